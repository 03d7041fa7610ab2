/// The occupied cells of every inner level-of-detail node: one bit a cell of each
/// node's grid (64³ cells: 32 KiB a node), all nodes' grids in one flat array, so that
/// "is this cell taken?" is one load and one mask, with no hashing, no probing and no
/// array inside an array to check for uniqueness.
struct LODCellGrids: Sendable {
  /// 64-bit words of one grid.
  let wordsPerGrid: Int
  /// Every grid's words, grid k at `k * wordsPerGrid`.
  private(set) var words: [UInt64] = []

  init(resolution: Int) {
    let cells = resolution * resolution * resolution
    wordsPerGrid = max(1, (cells + 63) / 64)
  }

  var gridCount: Int { words.count / wordsPerGrid }

  /// Adds an empty grid; returns its number.
  mutating func addGrid() -> Int32 {
    words.append(contentsOf: repeatElement(0, count: wordsPerGrid))
    return Int32(gridCount - 1)
  }

  /// Marks `cell` of grid `grid` taken; returns whether it was free.
  mutating func insert(_ cell: UInt32, grid: Int32) -> Bool {
    let word = Int(grid) * wordsPerGrid + Int(cell >> 6)
    let mask = UInt64(1) << UInt64(cell & 63)
    guard words[word] & mask == 0 else { return false }
    words[word] |= mask
    return true
  }

  /// Cells taken in grid `grid`.
  func count(grid: Int32) -> Int {
    let start = Int(grid) * wordsPerGrid
    return words[start..<start + wordsPerGrid].reduce(0) { $0 + $1.nonzeroBitCount }
  }

  /// Runs `body` with the words to read and write directly (the descent's hot loop).
  mutating func withWords<R>(_ body: (UnsafeMutableBufferPointer<UInt64>) throws -> R) rethrows
    -> R
  {
    try words.withUnsafeMutableBufferPointer { try body($0) }
  }

  /// Bytes the grids hold.
  var byteCount: Int { words.count * MemoryLayout<UInt64>.stride }
}
