/// Radius queries: counting and visiting the points within a distance.
extension KDTreeSearchContext {
  /// How many points other than the one at tree position `excludingPosition` (−1 for
  /// none) lie within `radiusSquared` (inclusive) of (x, y, z), counting no further than
  /// `limit`.
  func count(
    withinSquared radiusSquared: Float, _ x: Float, _ y: Float, _ z: Float,
    excludingPosition: Int, limit: Int
  ) -> Int {
    guard !entries.isEmpty, limit > 0 else { return 0 }
    var found = 0
    countNode(0, 0, entries.count, 0, radiusSquared, x, y, z, excludingPosition, limit, &found)
    return found
  }

  private func countNode(
    _ node: Int, _ lo: Int, _ hi: Int, _ level: Int, _ r2: Float, _ x: Float, _ y: Float,
    _ z: Float, _ excluding: Int, _ limit: Int, _ found: inout Int
  ) {
    guard nearSquared(node, x, y, z) <= r2 else { return }
    if farSquared(node, x, y, z) <= r2 {
      // The whole box lies inside the ball.
      found += hi - lo - (lo <= excluding && excluding < hi ? 1 : 0)
      return
    }
    if level == depth {
      for i in lo..<hi where i != excluding {
        if Self.distanceSquared(entries[i], x, y, z) <= r2 { found += 1 }
      }
      return
    }
    let mid = lo + (hi - lo) / 2
    countNode(2 * node + 1, lo, mid, level + 1, r2, x, y, z, excluding, limit, &found)
    if found < limit {
      countNode(2 * node + 2, mid, hi, level + 1, r2, x, y, z, excluding, limit, &found)
    }
  }

  /// Calls `body` with every point within `radiusSquared` (inclusive) of (x, y, z), in
  /// no particular order.
  func visit(
    withinSquared radiusSquared: Float, _ x: Float, _ y: Float, _ z: Float,
    _ body: (KDTree.Entry, Float) -> Void
  ) {
    guard !entries.isEmpty else { return }
    visitNode(0, 0, entries.count, 0, radiusSquared, x, y, z, body)
  }

  private func visitNode(
    _ node: Int, _ lo: Int, _ hi: Int, _ level: Int, _ r2: Float, _ x: Float, _ y: Float,
    _ z: Float, _ body: (KDTree.Entry, Float) -> Void
  ) {
    guard nearSquared(node, x, y, z) <= r2 else { return }
    if level == depth {
      for i in lo..<hi {
        let d = Self.distanceSquared(entries[i], x, y, z)
        if d <= r2 { body(entries[i], d) }
      }
      return
    }
    let mid = lo + (hi - lo) / 2
    visitNode(2 * node + 1, lo, mid, level + 1, r2, x, y, z, body)
    visitNode(2 * node + 2, mid, hi, level + 1, r2, x, y, z, body)
  }
}
