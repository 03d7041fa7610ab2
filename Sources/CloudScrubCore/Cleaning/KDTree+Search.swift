/// Raw, read-only access to a `KDTree`'s arrays for the duration of a query batch.
struct KDTreeSearchContext {
  let entries: UnsafeBufferPointer<KDTree.Entry>
  let boxes: UnsafeBufferPointer<KDTree.Box>
  let depth: Int
  /// Squared distance in the one arithmetic every search and reference uses.
  @inline(__always) static func distanceSquared(
    _ e: KDTree.Entry, _ x: Float, _ y: Float, _ z: Float
  ) -> Float {
    let dx = e.x - x
    let dy = e.y - y
    let dz = e.z - z
    return dx * dx + dy * dy + dz * dz
  }

  /// A lower bound on the squared distance from (x, y, z) to any point in `box`.
  ///
  /// Each axis offset is at most the matching coordinate difference of any point in the
  /// box (rounding is monotonic), and the squares are summed in the same order as
  /// `distanceSquared`, so the bound never exceeds a point's computed distance.
  @inline(__always) func nearSquared(_ node: Int, _ x: Float, _ y: Float, _ z: Float) -> Float {
    let b = boxes[node]
    let ox = max(max(b.lowX - x, 0), x - b.highX)
    let oy = max(max(b.lowY - y, 0), y - b.highY)
    let oz = max(max(b.lowZ - z, 0), z - b.highZ)
    return ox * ox + oy * oy + oz * oz
  }

  /// An upper bound on the squared distance from (x, y, z) to any point in `box`.
  @inline(__always) func farSquared(_ node: Int, _ x: Float, _ y: Float, _ z: Float) -> Float {
    let b = boxes[node]
    let ox = max(abs(b.lowX - x), abs(b.highX - x))
    let oy = max(abs(b.lowY - y), abs(b.highY - y))
    let oz = max(abs(b.lowZ - z), abs(b.highZ - z))
    return ox * ox + oy * oy + oz * oz
  }
}
