/// Lines and number tokens of a text body, for the text readers (PCD ASCII, XYZ).
struct TextLines {
  let bytes: UnsafeRawBufferPointer
  private(set) var cursor: Int
  /// The 1-based number of the line `next()` returns next.
  private(set) var lineNumber: Int

  init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, firstLine: Int = 1) {
    self.bytes = bytes
    cursor = start
    lineNumber = firstLine
  }

  /// The next line's byte range (without its line break), or nil at the end.
  mutating func next() -> Range<Int>? {
    guard cursor < bytes.count else { return nil }
    let start = cursor
    var end = start
    while end < bytes.count && bytes[end] != 0x0A { end += 1 }
    cursor = min(end + 1, bytes.count)
    lineNumber += 1
    var trimmed = end
    if trimmed > start && bytes[trimmed - 1] == 0x0D { trimmed -= 1 }
    return start..<trimmed
  }

  /// The tokens of `line` split at spaces, tabs and (when `commas`) commas: the first
  /// `limit` of them.
  func tokens(_ line: Range<Int>, commas: Bool, limit: Int = .max) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var index = line.lowerBound
    while index < line.upperBound && result.count < limit {
      while index < line.upperBound && Self.isSeparator(bytes[index], commas) { index += 1 }
      let start = index
      while index < line.upperBound && !Self.isSeparator(bytes[index], commas) { index += 1 }
      if index > start { result.append(start..<index) }
    }
    return result
  }

  /// How many tokens `tokens(line, commas:)` would return, counted without keeping them.
  func tokenCount(_ line: Range<Int>, commas: Bool) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    return TextRows.tokenCount(
      base.assumingMemoryBound(to: UInt8.self), line.lowerBound, line.upperBound, commas)
  }

  /// Whether `line` is empty or only spaces and tabs.
  func isBlank(_ line: Range<Int>) -> Bool {
    line.allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
  }

  /// The first non-blank byte of `line`, if any.
  func firstByte(_ line: Range<Int>) -> UInt8? {
    line.lazy.map { bytes[$0] }.first { $0 != 0x20 && $0 != 0x09 }
  }

  func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// The token as a `Double`, or nil when it is no number.
  func double(_ token: Range<Int>) -> Double? {
    guard let base = bytes.baseAddress else { return nil }
    return ASCIINumberParser.parseDouble(
      base.assumingMemoryBound(to: UInt8.self) + token.lowerBound, token.count)
  }

  /// The token as a `Float` rounded once from its decimal, or nil.
  func float(_ token: Range<Int>) -> Float? {
    guard let base = bytes.baseAddress else { return nil }
    return ASCIINumberParser.parseFloat(
      base.assumingMemoryBound(to: UInt8.self) + token.lowerBound, token.count)
  }

  private static func isSeparator(_ byte: UInt8, _ commas: Bool) -> Bool {
    byte == 0x20 || byte == 0x09 || (commas && byte == 0x2C)
  }
}

extension Array where Element == UInt8 {
  /// Appends a `Float`'s bytes, little-endian (integers and `Double`: RecordingBytes).
  @inline(__always)
  mutating func appendLittleEndian(_ value: Float) { appendLittleEndian(value.bitPattern) }

  /// Appends the text of `string`.
  mutating func appendText(_ string: String) { append(contentsOf: string.utf8) }
}

extension UnsafeRawBufferPointer {
  /// The little-endian integer at `offset` (the caller checked the bounds).
  @inline(__always)
  func littleEndian<T: FixedWidthInteger>(at offset: Int, as _: T.Type) -> T {
    T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}
