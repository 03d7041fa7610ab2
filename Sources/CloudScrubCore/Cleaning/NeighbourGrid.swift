import Foundation

/// A uniform grid over a k-d tree's points, for finding every point's k nearest others
/// faster on scanned surfaces, where the density varies little. The tree (best built by
/// `KDTree(mortonOrdering:)`, which is quick to build) answers what the grid cannot.
///
/// The cell edge is about the k-th neighbour distance of a sample of points, so a
/// point's neighbours nearly always lie in the 3 × 3 × 3 cells around its own: those
/// are nine runs of three consecutive cells, scanned linearly with no tree walk. A
/// result is used only when it is provably exact: its k-th distance is below the
/// distance from the point to the block's faces (with a margin far above rounding).
/// Otherwise (outliers in empty space, sparse corners) the tree search finishes the
/// query: it starts in the point's own leaf and is pruned from the start by the k-th
/// distance the grid found. Both compute
/// distances in the same `Float` arithmetic, so results equal the tree's bit for bit.
struct NeighbourGrid {
  /// The tree's points sorted by cell, in tree order within a cell.
  let entries: [KDTree.Entry]
  /// Cell `c` holds `entries[cellStart[c]..<cellStart[c + 1]]`.
  let cellStart: [Int32]
  /// Cells along x and y, with one empty cell of padding on every side.
  let columns: Int
  let rows: Int
  let origin: SIMD3<Double>
  let cellSize: Double
  let tree: KDTree
  /// Where each of `entries` is in the tree.
  let treePositions: [Int32]

  /// At most this many cells a point, so that the grid stays small next to the cloud.
  static let cellsPerPoint = 8

  /// A grid for `k`-nearest queries over `tree`'s points, or `nil` when the cloud is too
  /// small or too spread out for one, or once `stop` (asked every few thousand points
  /// of each pass) says to stop.
  init?(_ tree: KDTree, neighbours k: Int, stop: StopCheck? = nil) {
    let count = tree.count
    guard count >= 1 << 12, k >= 1, k < count else { return nil }
    guard let cellSize = Self.cellSize(tree, neighbours: k) else { return nil }
    var low = SIMD3<Double>(repeating: .infinity)
    var high = SIMD3<Double>(repeating: -.infinity)
    for (position, e) in tree.entries.enumerated() {
      if StopChecks.due(stop, at: position) { return nil }
      let p = SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z))
      low = pointwiseMin(low, p)
      high = pointwiseMax(high, p)
    }
    let span = ((high - low) / cellSize).rounded(.down) + 3
    guard span.x * span.y * span.z <= Double(Self.cellsPerPoint * count) else { return nil }
    origin = low
    self.cellSize = cellSize
    self.tree = tree
    let (columns, rows) = (Int(span.x), Int(span.y))
    self.columns = columns
    self.rows = rows
    let cellCount = columns * rows * Int(span.z)
    // Counting sort by cell, the cells found on every core; a stable scatter keeps tree
    // order within each cell.
    let cellOf = ParallelSlots<Int32>(count: count, initial: 0)
    let corner = low
    Parallel.forEachRange(count, minimumPerTask: 1 << 16) { range in
      tree.entries.withUnsafeBufferPointer { entries in
        for position in range {
          if StopChecks.due(stop, at: position) { return }
          cellOf[position] = Int32(
            Self.cell(
              of: entries[position], origin: corner, size: cellSize, columns: columns, rows: rows))
        }
      }
    }
    if StopChecks.now(stop) { return nil }
    var starts = [Int32](repeating: 0, count: cellCount + 1)
    for position in 0..<count { starts[Int(cellOf[position]) + 1] += 1 }
    for cell in 0..<cellCount { starts[cell + 1] += starts[cell] }
    // Each cell's start serves as its cursor, which leaves it at the next cell's start;
    // a shift by one restores the starts without a second array as large.
    var sorted = tree.entries
    var positions = [Int32](repeating: 0, count: count)
    for (position, e) in tree.entries.enumerated() {
      if StopChecks.due(stop, at: position) { return nil }
      let cell = Int(cellOf[position])
      sorted[Int(starts[cell])] = e
      positions[Int(starts[cell])] = Int32(position)
      starts[cell] += 1
    }
    for cell in stride(from: cellCount, to: 0, by: -1) { starts[cell] = starts[cell - 1] }
    starts[0] = 0
    entries = sorted
    treePositions = positions
    cellStart = starts
  }

  /// The cell edge: a little above the 90th percentile of the k-th neighbour distance
  /// over a sample of points spread through the tree, or `nil` when that is zero or
  /// more than twice the median.
  private static func cellSize(_ tree: KDTree, neighbours k: Int) -> Double? {
    let sampleCount = min(tree.count, 1024)
    var distances: [Float] = []
    distances.reserveCapacity(sampleCount)
    var search = NearestSearch(capacity: k)
    defer { search.release() }
    tree.withSearchContext { context in
      for s in 0..<sampleCount {
        let position = s * tree.count / sampleCount
        let found = search.run(context, treePosition: position, upperBound: .infinity)
        if found == k { distances.append(search.distanceSquared(k - 1).squareRoot()) }
      }
    }
    guard distances.count >= sampleCount / 2 else { return nil }
    distances.sort()
    // Where the density varies widely (a capture's near surfaces, seen by every frame,
    // beside its far ones), cells sized for the sparse points hold hundreds of the dense
    // ones: the tree alone is faster there.
    guard distances[distances.count * 9 / 10] <= 2 * distances[distances.count / 2] else {
      return nil
    }
    let size = Double(distances[distances.count * 9 / 10]) * 1.05
    return size > 0 && size.isFinite ? size : nil
  }

  /// The padded cell index of a point; cells count from `origin` in steps of `size`
  /// (the same arithmetic as `cellCoordinates`, which queries use).
  @inline(__always)
  private static func cell(
    of e: KDTree.Entry, origin: SIMD3<Double>, size: Double, columns: Int, rows: Int
  ) -> Int {
    let p = (SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z)) - origin) / size
    return Int(p.x) + 1 + columns * (Int(p.y) + 1 + rows * (Int(p.z) + 1))
  }
}
