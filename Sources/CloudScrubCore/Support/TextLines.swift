/// The lines and tokens of a text body, for the text readers (TUM trajectories here;
/// PCD and XYZ headers in CloudScrubFormats).
public struct TextLines {
  public let bytes: UnsafeRawBufferPointer
  public private(set) var cursor: Int
  /// The 1-based number of the line `next()` returns next.
  public private(set) var lineNumber: Int

  public init(_ bytes: UnsafeRawBufferPointer, from start: Int = 0, firstLine: Int = 1) {
    self.bytes = bytes
    cursor = start
    lineNumber = firstLine
  }

  /// The next line's byte range (without its line break), or nil at the end.
  public mutating func next() -> Range<Int>? {
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
  public func tokens(_ line: Range<Int>, commas: Bool, limit: Int = .max) -> [Range<Int>] {
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
  public func tokenCount(_ line: Range<Int>, commas: Bool) -> Int {
    var count = 0
    var index = line.lowerBound
    while index < line.upperBound {
      while index < line.upperBound && Self.isSeparator(bytes[index], commas) { index += 1 }
      if index < line.upperBound { count += 1 }
      while index < line.upperBound && !Self.isSeparator(bytes[index], commas) { index += 1 }
    }
    return count
  }

  /// Whether `line` is empty or only spaces and tabs.
  public func isBlank(_ line: Range<Int>) -> Bool {
    line.allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
  }

  /// The first non-blank byte of `line`, if any.
  public func firstByte(_ line: Range<Int>) -> UInt8? {
    line.lazy.map { bytes[$0] }.first { $0 != 0x20 && $0 != 0x09 }
  }

  public func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private static func isSeparator(_ byte: UInt8, _ commas: Bool) -> Bool {
    byte == 0x20 || byte == 0x09 || (commas && byte == 0x2C)
  }
}

extension StringProtocol {
  /// The text without the white space at its ends (spaces, tabs, line breaks: what
  /// `Character.isWhitespace` says), in Swift alone: Foundation's `trimmingCharacters`
  /// goes through `NSString` and costs a hundred times more on short fields.
  public func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }
}
