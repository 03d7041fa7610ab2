/// A COPC file's octree, as its hierarchy pages describe it: how many levels deep it
/// goes and how many nodes hold points. COPC (cloud-optimised point cloud) is a LAZ 1.4
/// file whose chunks are the nodes of an octree; its `copc` info VLR points at the
/// root page of the hierarchy, whose entries point at the nodes' chunks and at further
/// pages.
public struct LASCOPCHierarchy: Equatable, Sendable {
  /// Levels of the octree (the root alone is 1).
  public var levels: Int
  /// Nodes that hold points.
  public var nodes: Int

  /// Reads the hierarchy that `info` (the info VLR's 160 bytes) points at in `file`;
  /// nil when the info is short or a page lies outside the file.
  init?(info: [UInt8], file: UnsafeRawBufferPointer) {
    guard info.count >= 56 else { return nil }
    func u64(_ at: Int) -> UInt64 {
      (0..<8).reduce(UInt64(0)) { $0 | UInt64(info[at + $1]) << (8 * $1) }
    }
    var pages: [(offset: UInt64, size: UInt64)] = [(u64(40), u64(48))]
    var levels = 0
    var nodes = 0
    var visited = 0
    // Every page is 32-byte entries: key (level, x, y, z), offset, bytes, point count
    // (−1: the entry is a child page).
    while let page = pages.popLast() {
      visited += 1
      guard visited <= 100_000, page.offset <= UInt64(file.count),
        page.size <= UInt64(file.count) - page.offset, page.size % 32 == 0
      else { return nil }
      let start = Int(page.offset)
      for entry in 0..<(Int(page.size) / 32) {
        let at = start + 32 * entry
        let level = Int32(littleEndian: file.loadUnaligned(fromByteOffset: at, as: Int32.self))
        let offset = UInt64(
          littleEndian: file.loadUnaligned(fromByteOffset: at + 16, as: UInt64.self))
        let bytes = Int32(littleEndian: file.loadUnaligned(fromByteOffset: at + 24, as: Int32.self))
        let count = Int32(littleEndian: file.loadUnaligned(fromByteOffset: at + 28, as: Int32.self))
        if count == -1 {
          pages.append((offset, UInt64(max(bytes, 0))))
        } else if count > 0 {
          nodes += 1
          levels = max(levels, Int(level) + 1)
        }
      }
    }
    self.levels = levels
    self.nodes = nodes
  }
}
