import CloudScrubCore

extension TextLines {
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
}
