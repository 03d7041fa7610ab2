import CloudScrubCore

/// Turns logical bytes into E57 pages (1020 bytes, then their CRC-32C big-endian) and
/// appends them to an `AtomicFileWriter`, a few hundred pages a write.
struct E57PageWriter {
  private let output: AtomicFileWriter
  private var buffer: [UInt8]
  /// Bytes in `buffer` (whole pages, then the page being filled).
  private var filled = 0
  private var pageFill = 0
  private static let pagesPerWrite = 256
  /// Logical bytes written so far.
  private(set) var logicalOffset: UInt64 = 0

  init(output: AtomicFileWriter) {
    self.output = output
    buffer = [UInt8](repeating: 0, count: Self.pagesPerWrite * E57Pages.pageSize)
  }

  /// Appends logical bytes.
  ///
  /// - Throws: `FileError` when the file cannot be written.
  mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < bytes.count {
      let run = min(E57Pages.payloadSize - pageFill, bytes.count - offset)
      buffer.withUnsafeMutableBytes { target in
        guard let to = target.baseAddress, let from = bytes.baseAddress else { return }
        (to + filled + pageFill).copyMemory(from: from + offset, byteCount: run)
      }
      pageFill += run
      offset += run
      logicalOffset += UInt64(run)
      if pageFill == E57Pages.payloadSize { try finishPage() }
    }
  }

  mutating func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try write($0) }
  }

  /// Appends `count` zero bytes.
  mutating func pad(_ count: Int) throws {
    try write([UInt8](repeating: 0, count: count))
  }

  /// Fills the last page with zeros, checksums it and writes everything out.
  mutating func finish() throws {
    if pageFill > 0 {
      try pad(E57Pages.payloadSize - pageFill)
    }
    try flush()
  }

  private mutating func finishPage() throws {
    let start = filled
    let crc = buffer.withUnsafeBytes {
      CRC32.checksum(
        UnsafeRawBufferPointer(rebasing: $0[start..<start + E57Pages.payloadSize]), .castagnoli)
    }
    for k in 0..<4 {
      buffer[start + E57Pages.payloadSize + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k))
    }
    filled += E57Pages.pageSize
    pageFill = 0
    if filled == buffer.count { try flush() }
  }

  private mutating func flush() throws {
    guard filled > 0 else { return }
    let count = filled
    try buffer.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    // Every byte of a page is written again (content, padding or checksum) before the
    // buffer is flushed next, so it need not be cleared.
    filled = 0
  }
}
