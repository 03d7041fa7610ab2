import CloudScrubCore

/// Splits a byte range into whitespace-separated tokens, counting lines as it goes.
///
/// Any byte at or below the space character separates tokens. While it finds a
/// token's end, the tokenizer also reads it as a decimal, so that a number is scanned
/// once.
struct ASCIITokenizer {
  /// One token: a pointer into the mapped bytes and a length, with its decimal parts
  /// when it is a plain decimal.
  struct Token {
    let start: UnsafePointer<UInt8>
    let length: Int
    /// Byte offset of the token in the file.
    let offset: Int
    let decimal: DecimalParts?

    var text: String {
      String(decoding: UnsafeBufferPointer(start: start, count: min(length, 64)), as: UTF8.self)
    }

    /// The token as a number of `type`, widened to `Double`; `nil` when it is not a
    /// number of that type (integers must be whole and in range).
    @inline(__always)
    func double(as type: ScalarType) -> Double? {
      switch type {
      case .float32: return float32().map(Double.init)
      case .float64:
        if let decimal, let value = ASCIINumberParser.double(decimal) { return value }
        return ASCIINumberParser.parseDouble(start, length)
      default:
        let value =
          decimal.map(ASCIINumberParser.integer)
          ?? ASCIINumberParser.parseInteger(start, length)
        guard let value, type.integerRange.contains(value) else { return nil }
        return Double(value)
      }
    }

    /// The token as a number of `type`, rounded to `Float` once.
    @inline(__always)
    func float(as type: ScalarType) -> Float? {
      type == .float32 ? float32() : double(as: type).map(Float.init)
    }

    @inline(__always)
    private func float32() -> Float? {
      if let decimal, let value = ASCIINumberParser.float(decimal) { return value }
      return ASCIINumberParser.parseFloat(start, length)
    }
  }

  let bytes: UnsafeRawBufferPointer
  private(set) var cursor: Int
  /// The line the next token search starts on.
  private(set) var line: Int
  /// The line of the last token returned.
  private(set) var tokenLine: Int

  init(bytes: UnsafeRawBufferPointer, start: Int, line: Int) {
    self.bytes = bytes
    self.cursor = start
    self.line = line
    self.tokenLine = line
  }

  @inline(__always)
  mutating func next() -> Token? {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
    let end = bytes.count
    var i = cursor
    while i < end && base[i] <= 32 {
      if base[i] == 10 { line += 1 }
      i += 1
    }
    guard i < end else {
      cursor = i
      return nil
    }
    let start = i
    var decimal = ASCIINumberParser.scanDecimal(base, &i, end)
    if i < end && base[i] > 32 {
      // Not a plain decimal after all: find the token's end.
      decimal = nil
      while i < end && base[i] > 32 { i += 1 }
    }
    cursor = i
    tokenLine = line
    return Token(start: base + start, length: i - start, offset: start, decimal: decimal)
  }
}

extension ASCIITokenizer {
  /// Continues from `cursor` on `line`, after another reader consumed the bytes before.
  mutating func move(to cursor: Int, line: Int) {
    self.cursor = cursor
    self.line = line
    tokenLine = line
  }

  /// Moves past the rest of the current line and then `count` non-blank lines; returns
  /// `false` (leaving the position undefined) when the bytes end first.
  mutating func skipLines(_ count: Int) -> Bool {
    guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      return count == 0
    }
    let end = bytes.count
    var i = cursor
    func finishLine() {
      while i < end && base[i] != 10 { i += 1 }
      if i < end {
        i += 1
        line += 1
      }
    }
    if i > 0 && base[i - 1] != 10 { finishLine() }
    var skipped = 0
    while skipped < count {
      while i < end && base[i] <= 32 {
        if base[i] == 10 { line += 1 }
        i += 1
      }
      guard i < end else { return false }
      finishLine()
      skipped += 1
    }
    cursor = i
    return true
  }
}

extension ScalarType {
  /// The values an integer type holds (all of `Int64` for floating point, unused).
  var integerRange: ClosedRange<Int64> {
    switch self {
    case .int8: Int64(Int8.min)...Int64(Int8.max)
    case .uint8: 0...Int64(UInt8.max)
    case .int16: Int64(Int16.min)...Int64(Int16.max)
    case .uint16: 0...Int64(UInt16.max)
    case .int32: Int64(Int32.min)...Int64(Int32.max)
    case .uint32: 0...Int64(UInt32.max)
    case .float32, .float64: Int64.min...Int64.max
    }
  }
}
