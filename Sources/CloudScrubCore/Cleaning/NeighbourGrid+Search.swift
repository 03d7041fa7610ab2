import Foundation

extension NeighbourGrid {
  /// Finds the squared distances from every point of the grid (and its tree) to its `k`
  /// nearest other points, nearest first, on every core, and hands them
  /// to `body` with the point's entry. They equal `KDTree.forEachNearest`'s distances bit
  /// for bit: both compute every distance in the same `Float` arithmetic, and which of
  /// several equally distant points counts does not change a distance.
  ///
  /// Queries run in grid order. All the points of one cell share one block of 3 × 3 × 3
  /// cells, copied once into a `BlockSearch`; a result is used only when `isExact` proves
  /// it, and the tree finishes the query otherwise. `body` is called from several
  /// threads at once, and its buffer is valid only during the call. `stop`, asked
  /// every 1,024 points on each core, ends the search early.
  func forEachNearestDistances(
    count k: Int, stop: StopCheck? = nil,
    _ body:
      @Sendable (_ entry: KDTree.Entry, _ distancesSquared: UnsafeBufferPointer<Float>) ->
      Void
  ) {
    let count = entries.count
    let cores = Parallel.cores
    // Many chunks, handed out as cores come free: dense and sparse parts of a capture
    // cost very different amounts.
    let chunks = max(1, min(count >> 10, 64 * cores))
    VoxelBuckets.forEachChunk(count, chunks) { _, range in
      let block = BlockSearch(neighbours: k)
      var search = NearestSearch(capacity: k)
      defer { search.release() }
      withQueryContext { points, starts, context in
        var loadedCell = -1
        for position in range {
          // At each chunk's start too, so a chunk begun after a stop does nothing.
          if position == range.lowerBound || position & 1023 == 0, let stop, stop() { break }
          _ = nearestDistances(at: position, block, &search, &loadedCell, points, starts, context)
          body(points[position], block.result)
        }
      }
    }
  }

  /// Runs `body` with raw access to the grid's and the tree's arrays.
  func withQueryContext<R>(
    _ body: (UnsafeBufferPointer<KDTree.Entry>, UnsafeBufferPointer<Int32>, KDTreeSearchContext)
      -> R
  ) -> R {
    entries.withUnsafeBufferPointer { points in
      cellStart.withUnsafeBufferPointer { starts in
        tree.withSearchContext { context in body(points, starts, context) }
      }
    }
  }

  /// Finds the `k` nearest other points of the point at grid position `position`, leaving
  /// their squared distances in `block.result`, nearest first; returns whether it found
  /// `k`. `loadedCell` is the cell whose block `block` holds, or −1.
  @inline(__always)
  func nearestDistances(
    at position: Int, _ block: BlockSearch, _ search: inout NearestSearch, _ loadedCell: inout Int,
    _ points: UnsafeBufferPointer<KDTree.Entry>, _ starts: UnsafeBufferPointer<Int32>,
    _ context: KDTreeSearchContext
  ) -> Bool {
    let e = points[position]
    let c = cellCoordinates(e)
    let cell = c.x + 1 + columns * (c.y + 1 + rows * (c.z + 1))
    if cell != loadedCell {
      loadBlock(around: cell, block, points, starts)
      loadedCell = cell
    }
    let found: Bool
    let known: Float
    if !block.isOversized {
      let own = block.middleOffset + position - Int(starts[cell - 1])
      found = block.search(e, own: own)
      if found && isExact(block.kthDistanceSquared, e, c) { return true }
      // Without k points in the block, the bound from the previous result still prunes.
      known = found ? block.kthDistanceSquared : block.lastBound
    } else {
      // Where points crowd far above the cell's usual count (a surface every frame of
      // a capture saw, near the camera), the tree is the faster of the two.
      found = false
      known = block.bound(e)
    }
    let treeFound = search.run(
      context, treePosition: Int(treePositions[position]), upperBound: known)
    block.take(search, found: treeFound, context.entries)
    return treeFound == block.k
  }

  /// Above this many points in a block, a query goes to the tree: a block's cost grows
  /// with its count, a tree query's barely.
  @inline(__always) func blockLimit(k: Int) -> Int { max(256, 16 * k) }

  /// Copies the points of the 3 × 3 × 3 cells around `cell` into `block`: nine runs of
  /// three consecutive cells, whose points are consecutive too.
  private func loadBlock(
    around cell: Int, _ block: BlockSearch, _ points: UnsafeBufferPointer<KDTree.Entry>,
    _ starts: UnsafeBufferPointer<Int32>
  ) {
    let plane = columns * rows
    var total = 0
    for dz in -1...1 {
      for dy in -1...1 {
        let middle = cell + dy * columns + dz * plane
        total += Int(starts[middle + 2] - starts[middle - 1])
      }
    }
    guard total <= blockLimit(k: block.k) else {
      block.markOversized()
      return
    }
    block.reset(count: total)
    for dz in -1...1 {
      for dy in -1...1 {
        let middle = cell + dy * columns + dz * plane
        if dz == 0 && dy == 0 { block.middleOffset = block.count }
        block.append(points, Int(starts[middle - 1])..<Int(starts[middle + 2]))
      }
    }
    block.finishLoading()
  }

  /// Whether the `k` nearest points of the block around `e` (the k-th of them at squared
  /// distance `kth`) are surely its nearest of all: every point outside the block lies
  /// farther than the block's nearest face, and `kth` is below that by a margin far
  /// wider than `Float` rounding.
  @inline(__always)
  private func isExact(_ kth: Float, _ e: KDTree.Entry, _ c: SIMD3<Int>) -> Bool {
    let cell = SIMD3<Double>(Double(c.x), Double(c.y), Double(c.z))
    let low = origin + (cell - 1) * cellSize
    let high = origin + (cell + 2) * cellSize
    let q = SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z))
    let gap = min((q - low).min(), (high - q).min())
    return Double(kth) < 0.998 * gap * gap
  }

  @inline(__always)
  private func cellCoordinates(_ e: KDTree.Entry) -> SIMD3<Int> {
    let p = (SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z)) - origin) / cellSize
    return SIMD3(Int(p.x), Int(p.y), Int(p.z))
  }
}
