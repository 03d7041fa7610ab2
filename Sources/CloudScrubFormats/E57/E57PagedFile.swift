import CloudScrubCore

/// An E57 file opened for reading: its bytes mapped, addressed by logical offset (the
/// page checksums skipped), each page's checksum checked the first time it is read.
final class E57PagedFile {
  let path: String
  let header: E57FileHeader
  /// Bytes of content (the file's length less 4 bytes a page).
  let logicalLength: UInt64
  private let file: MappedFile
  private var checkedPages: [Bool]

  /// Maps the file and checks its header and length.
  ///
  /// - Throws: `FileError` when it cannot be opened; `E57Error` when it is no E57 file,
  ///   its header is unsupported, or its declared length is not its size.
  init(path: String) throws {
    self.path = path
    file = try MappedFile(path: path)
    let size = UInt64(file.bytes.count)
    guard size >= UInt64(E57Pages.pageSize) else {
      if size < 8 || !file.bytes.starts(with: E57FileHeader.signature) {
        throw E57Error(.notE57, path: path)
      }
      throw E57Error(
        .truncated(what: "the first page", neededBytes: UInt64(E57Pages.pageSize), fileBytes: size),
        path: path)
    }
    let pages = Int(size / UInt64(E57Pages.pageSize))
    checkedPages = [Bool](repeating: false, count: pages)
    logicalLength = UInt64(pages * E57Pages.payloadSize)
    do {
      header = try E57FileHeader(bytes: Array(file.bytes[0..<E57FileHeader.byteCount]))
    } catch {
      throw E57Error(error, path: path)
    }
    guard header.physicalLength == size, size % UInt64(E57Pages.pageSize) == 0 else {
      throw E57Error(
        .lengthMismatch(declaredBytes: header.physicalLength, fileBytes: size), path: path)
    }
    try checkPage(0)
  }

  /// The logical offset of a physical offset the XML gives, checked against the file.
  ///
  /// - Throws: `E57Error.badOffset` naming `what`.
  func logicalOffset(ofPhysical physical: UInt64, what: String) throws -> UInt64 {
    guard physical < header.physicalLength, let logical = E57Pages.logical(physical) else {
      throw E57Error(.badOffset(what: what, offset: physical), path: path)
    }
    return logical
  }

  /// Copies `count` logical bytes from `logical` into `destination`.
  ///
  /// - Throws: `E57Error.truncated` past the end, `.checksumMismatch` for a damaged page.
  func read(
    logical: UInt64, count: Int, into destination: UnsafeMutableRawPointer, what: String
  ) throws {
    let (end, overflow) = logical.addingReportingOverflow(UInt64(count))
    guard !overflow, end <= logicalLength else {
      throw E57Error(
        .truncated(
          what: what, neededBytes: overflow ? .max : E57Pages.physical(end),
          fileBytes: header.physicalLength),
        path: path)
    }
    var position = logical
    var written = 0
    guard let source = file.bytes.baseAddress else { return }
    while written < count {
      let page = Int(position / UInt64(E57Pages.payloadSize))
      let within = Int(position % UInt64(E57Pages.payloadSize))
      if !checkedPages[page] { try checkPage(page) }
      let run = min(E57Pages.payloadSize - within, count - written)
      let start = page * E57Pages.pageSize + within
      (destination + written).copyMemory(from: source + start, byteCount: run)
      written += run
      position += UInt64(run)
    }
  }

  /// `count` logical bytes from `logical`.
  ///
  /// - Throws: as `read`, before allocating when the range runs past the file's end.
  func bytes(logical: UInt64, count: Int, what: String) throws -> [UInt8] {
    let (end, overflow) = logical.addingReportingOverflow(UInt64(count))
    guard !overflow, end <= logicalLength else {
      throw E57Error(
        .truncated(
          what: what, neededBytes: overflow ? .max : E57Pages.physical(end),
          fileBytes: header.physicalLength),
        path: path)
    }
    var out = [UInt8](repeating: 0, count: count)
    try out.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      try read(logical: logical, count: count, into: base, what: what)
    }
    return out
  }

  private func checkPage(_ page: Int) throws {
    let start = page * E57Pages.pageSize
    let bytes = file.bytes
    let payload = UnsafeRawBufferPointer(rebasing: bytes[start..<start + E57Pages.payloadSize])
    let computed = CRC32.checksum(payload, .castagnoli)
    let stored = (0..<4).reduce(UInt32(0)) {
      $0 << 8 | UInt32(bytes[start + E57Pages.payloadSize + $1])
    }
    guard computed == stored else {
      throw E57Error(.checksumMismatch(page: page, stored: stored, computed: computed), path: path)
    }
    checkedPages[page] = true
  }
}
