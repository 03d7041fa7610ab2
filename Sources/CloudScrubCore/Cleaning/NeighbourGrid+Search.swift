import Foundation

extension NeighbourGrid {
  /// Finds the `k` nearest other points of every point in `tree` (the tree the grid was
  /// built from), on every core, and hands each result to `body` with the point's entry
  /// and how many were found; the same results as `KDTree.forEachNearest`.
  ///
  /// Queries run in grid order, each bounded by the previous result (see
  /// `NearestSearch.boundForNext`); `body` is called from several threads at once.
  func forEachNearest(
    _ tree: KDTree, count k: Int,
    _ body: @Sendable (_ entry: KDTree.Entry, _ search: NearestSearch, _ found: Int) -> Void
  ) {
    let count = entries.count
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let chunks = max(1, min(count >> 12, 8 * cores))
    VoxelBuckets.forEachChunk(count, chunks) { _, range in
      var search = NearestSearch(capacity: k)
      defer { search.release() }
      entries.withUnsafeBufferPointer { points in
        cellStart.withUnsafeBufferPointer { starts in
          tree.withSearchContext { context in
            var bound = Float.infinity
            for position in range {
              let e = points[position]
              var found = scanBlock(&search, e, points, starts, bound: bound)
              // The tree's positions replace the grid's in `search` after a fallback.
              var fellBack = false
              if found < k || !isExact(search, e, k) {
                let known = found == k ? search.distanceSquared(k - 1) : bound
                found = search.run(
                  context, e.x, e.y, e.z, excluding: e.index, upperBound: known)
                fellBack = true
              }
              body(e, search, found)
              bound =
                !fellBack && position + 1 < range.upperBound
                ? search.boundForNext(points, current: position, next: position + 1)
                : .infinity
            }
          }
        }
      }
    }
  }

  /// Searches the 3 × 3 × 3 cells around `e`'s, keeping nothing past `bound`; returns
  /// how many points were found.
  @inline(__always)
  private func scanBlock(
    _ search: inout NearestSearch, _ e: KDTree.Entry, _ points: UnsafeBufferPointer<KDTree.Entry>,
    _ starts: UnsafeBufferPointer<Int32>, bound: Float
  ) -> Int {
    search.start(e.x, e.y, e.z, excluding: e.index, bound: bound)
    let c = cellCoordinates(e)
    let centre = c.x + 1 + columns * (c.y + 1 + rows * (c.z + 1))
    let plane = columns * rows
    for dz in -1...1 {
      for dy in -1...1 {
        // Three cells in a row are consecutive, and so are their points.
        let middle = centre + dy * columns + dz * plane
        search.scan(points, Int(starts[middle - 1]), Int(starts[middle + 2]))
      }
    }
    return search.count
  }

  /// Whether the `k` points found around `e` are surely its nearest: every point outside
  /// the block lies farther than the block's nearest face, and the k-th distance is
  /// below that by a margin far wider than `Float` rounding.
  @inline(__always)
  private func isExact(_ search: NearestSearch, _ e: KDTree.Entry, _ k: Int) -> Bool {
    let c = cellCoordinates(e)
    let cell = SIMD3<Double>(Double(c.x), Double(c.y), Double(c.z))
    let low = origin + (cell - 1) * cellSize
    let high = origin + (cell + 2) * cellSize
    let q = SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z))
    let gap = min((q - low).min(), (high - q).min())
    return Double(search.distanceSquared(k - 1)) < 0.998 * gap * gap
  }

  @inline(__always)
  private func cellCoordinates(_ e: KDTree.Entry) -> SIMD3<Int> {
    let p = (SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z)) - origin) / cellSize
    return SIMD3(Int(p.x), Int(p.y), Int(p.z))
  }
}
