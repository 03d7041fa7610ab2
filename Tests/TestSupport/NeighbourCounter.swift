import CloudScrubCore

/// Counts points of one set that lie within a radius of some point of another, with a
/// hash grid of cells one radius wide (each query looks at 27 cells).
public struct NeighbourCounter {
  private let radius: Float
  private var cells: [SIMD3<Int32>: [Point3]] = [:]

  public init(points: [Point3], radius: Float) {
    self.radius = radius
    for point in points { cells[cell(of: point), default: []].append(point) }
  }

  private func cell(of p: Point3) -> SIMD3<Int32> {
    SIMD3(
      Int32((p.x / radius).rounded(.down)), Int32((p.y / radius).rounded(.down)),
      Int32((p.z / radius).rounded(.down)))
  }

  /// Whether some point lies within the radius of `p`.
  public func hasNeighbour(of p: Point3) -> Bool {
    let c = cell(of: p)
    let r2 = radius * radius
    for dx in Int32(-1)...1 {
      for dy in Int32(-1)...1 {
        for dz in Int32(-1)...1 {
          for q in cells[c &+ SIMD3(dx, dy, dz)] ?? [] {
            let d =
              (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) + (q.z - p.z) * (q.z - p.z)
            if d <= r2 { return true }
          }
        }
      }
    }
    return false
  }

  /// The fraction of `points` that have a neighbour.
  public func fractionWithNeighbour(_ points: [Point3]) -> Double {
    guard !points.isEmpty else { return 0 }
    return Double(points.filter(hasNeighbour).count) / Double(points.count)
  }
}
