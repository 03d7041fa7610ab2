/// A COPC file's octree, as its hierarchy pages describe it. COPC (cloud-optimised point
/// cloud) is a LAZ 1.4 file whose chunks are the nodes of an octree; its `copc` info VLR
/// points at the root page of the hierarchy, whose entries point at the nodes' chunks
/// and at further pages.
public struct LASCOPCHierarchy: Equatable, Sendable {
  /// A node that holds points: its key and its chunk.
  public struct Node: Equatable, Sendable {
    /// Its depth (0: the root) and its cube's place at that depth.
    public var level: Int
    public var x: Int32
    public var y: Int32
    public var z: Int32
    /// Where its compressed chunk starts in the file, its bytes and its points.
    public var offset: Int
    public var bytes: Int
    public var points: Int
  }

  /// The nodes that hold points, in the order the pages list them.
  public var entries: [Node]
  /// Levels of the octree (the root alone is 1).
  public var levels: Int { (entries.map(\.level).max() ?? -1) + 1 }
  /// Nodes that hold points.
  public var nodes: Int { entries.count }

  /// Pages read at most: a hierarchy that links more is refused as a loop or a bomb.
  static let mostPages = 100_000
  /// A chunk holds at most this many points a byte (as `LAZChunkTable.walk` bounds it).
  static let mostPointsPerByte = 16

  /// Reads the hierarchy that `info` (the info VLR's 160 bytes) points at in `file`;
  /// nil when the info is short, a page lies outside the file, or a node's chunk does
  /// (or holds more points than its bytes can).
  init?(info: [UInt8], file: UnsafeRawBufferPointer) {
    guard info.count >= 56 else { return nil }
    func u64(_ at: Int) -> UInt64 {
      (0..<8).reduce(UInt64(0)) { $0 | UInt64(info[at + $1]) << (8 * $1) }
    }
    var pages: [(offset: UInt64, size: UInt64)] = [(u64(40), u64(48))]
    var entries: [Node] = []
    var visited = 0
    let size = UInt64(file.count)
    // Every page is 32-byte entries: key (level, x, y, z), offset, bytes, point count
    // (−1: the entry is a child page).
    while let page = pages.popLast() {
      visited += 1
      guard visited <= Self.mostPages, page.offset <= size, page.size <= size - page.offset,
        page.size % 32 == 0
      else { return nil }
      let start = Int(page.offset)
      for entry in 0..<(Int(page.size) / 32) {
        let at = start + 32 * entry
        func i32(_ field: Int) -> Int32 {
          Int32(littleEndian: file.loadUnaligned(fromByteOffset: at + field, as: Int32.self))
        }
        let offset = UInt64(
          littleEndian: file.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
        let bytes = i32(24)
        let count = i32(28)
        if count == -1 {
          pages.append((offset, UInt64(max(bytes, 0))))
        } else if count > 0 {
          guard (0..<32).contains(i32(0)), bytes > 0, offset <= size,
            UInt64(bytes) <= size - offset,
            Int(count) <= Self.mostPointsPerByte * Int(bytes)
          else { return nil }
          entries.append(
            Node(
              level: Int(i32(0)), x: i32(4), y: i32(8), z: i32(12), offset: Int(offset),
              bytes: Int(bytes), points: Int(count)))
        }
      }
    }
    self.entries = entries
  }
}
