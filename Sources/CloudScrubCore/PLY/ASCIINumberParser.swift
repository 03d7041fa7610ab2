import Foundation

/// Parses decimal numbers from byte ranges without allocating.
///
/// Floating-point results are correctly rounded: common tokens (up to 19 significant
/// digits and small exponents) are computed exactly with one IEEE operation (Clinger's
/// fast path), and everything else — long mantissas, large exponents, `nan`, `inf`,
/// hexadecimal — goes to the C library's correctly rounded `strtof`/`strtod`.
enum ASCIINumberParser {
  private static let powersOfTenFloat: [Float] = (0...10).map { Float(pow(10.0, Double($0))) }
  private static let powersOfTenDouble: [Double] = (0...22).map { pow(10.0, Double($0)) }

  /// A decimal token split into sign, integer significand and power of ten.
  private struct Decimal {
    var negative: Bool
    var significand: UInt64
    var exponent: Int
  }

  /// Splits `token` into a decimal, or `nil` if it is not a plain decimal or has more
  /// than 19 significant digits.
  @inline(__always)
  private static func decimal(_ p: UnsafePointer<UInt8>, _ n: Int) -> Decimal? {
    var i = 0
    var negative = false
    if i < n && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
      negative = p[i] == UInt8(ascii: "-")
      i += 1
    }
    var significand: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    var sawDigit = false
    while i < n, case let d = p[i] &- 48, d < 10 {
      sawDigit = true
      if significand != 0 || d != 0 { significantDigits += 1 }
      guard significantDigits <= 19 else { return nil }
      significand = significand &* 10 &+ UInt64(d)
      i += 1
    }
    if i < n && p[i] == UInt8(ascii: ".") {
      i += 1
      while i < n, case let d = p[i] &- 48, d < 10 {
        sawDigit = true
        if significand != 0 || d != 0 { significantDigits += 1 }
        guard significantDigits <= 19 else { return nil }
        significand = significand &* 10 &+ UInt64(d)
        exponent -= 1
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < n && (p[i] | 0x20) == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < n && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
        exponentNegative = p[i] == UInt8(ascii: "-")
        i += 1
      }
      var value = 0
      var sawExponentDigit = false
      while i < n, case let d = p[i] &- 48, d < 10 {
        sawExponentDigit = true
        value = min(value * 10 + Int(d), 100_000)
        i += 1
      }
      guard sawExponentDigit else { return nil }
      exponent += exponentNegative ? -value : value
    }
    guard i == n else { return nil }
    return Decimal(negative: negative, significand: significand, exponent: exponent)
  }

  /// Parses a `Float`, or returns `nil` if the token is not a number.
  @inline(__always)
  static func parseFloat(_ p: UnsafePointer<UInt8>, _ n: Int) -> Float? {
    if let d = decimal(p, n) {
      if d.significand == 0 { return d.negative ? -0.0 : 0.0 }
      if d.significand <= 1 << 24 && d.exponent >= -10 && d.exponent <= 10 {
        let m = Float(d.significand)
        let v = d.exponent < 0
          ? m / powersOfTenFloat[-d.exponent] : m * powersOfTenFloat[d.exponent]
        return d.negative ? -v : v
      }
      if d.significand <= 1 << 53 && d.exponent >= -22 && d.exponent <= 22 {
        let m = Double(d.significand)
        let v = d.exponent < 0
          ? m / powersOfTenDouble[-d.exponent] : m * powersOfTenDouble[d.exponent]
        // Rounding the correctly rounded double to float again is exact unless the double
        // sits exactly halfway between two floats, or outside float's normal range.
        let lowBits = v.bitPattern & ((1 << 29) - 1)
        if lowBits != 1 << 28 && v >= Double(Float.leastNormalMagnitude)
          && v <= Double(Float.greatestFiniteMagnitude)
        {
          return d.negative ? -Float(v) : Float(v)
        }
      }
    }
    return withCString(p, n) { cString, end in
      var endPointer: UnsafeMutablePointer<CChar>?
      let value = strtof(cString, &endPointer)
      return endPointer == end ? value : nil
    }
  }

  /// Parses a `Double`, or returns `nil` if the token is not a number.
  @inline(__always)
  static func parseDouble(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    if let d = decimal(p, n), d.significand <= 1 << 53, d.exponent >= -22, d.exponent <= 22 {
      let m = Double(d.significand)
      let v = d.exponent < 0
        ? m / powersOfTenDouble[-d.exponent] : m * powersOfTenDouble[d.exponent]
      return d.negative ? -v : v
    }
    return withCString(p, n) { cString, end in
      var endPointer: UnsafeMutablePointer<CChar>?
      let value = strtod(cString, &endPointer)
      return endPointer == end ? value : nil
    }
  }

  /// Parses a decimal integer (optional sign, digits only), or `nil`.
  @inline(__always)
  static func parseInteger(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
    var i = 0
    var negative = false
    if i < n && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
      negative = p[i] == UInt8(ascii: "-")
      i += 1
    }
    guard i < n, n - i <= 18 else { return longInteger(p, n) }
    var value: Int64 = 0
    while i < n {
      let d = p[i] &- 48
      guard d < 10 else { return nil }
      value = value * 10 + Int64(d)
      i += 1
    }
    return negative ? -value : value
  }

  /// Integers with 19 or more characters: leading zeros, or out of range for every type.
  private static func longInteger(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
    guard n > 0 else { return nil }
    return Int64(String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self))
  }

  private static func withCString<R>(
    _ p: UnsafePointer<UInt8>, _ n: Int,
    _ body: (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>) -> R?
  ) -> R? {
    guard n > 0, n < 4096 else { return nil }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buffer in
      let base = buffer.baseAddress.unsafelyUnwrapped
      UnsafeMutableRawPointer(base).copyMemory(from: p, byteCount: n)
      base[n] = 0
      return body(base, base + n)
    }
  }
}
