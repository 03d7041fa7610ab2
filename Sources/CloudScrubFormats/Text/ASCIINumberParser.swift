import CloudScrubCore
import Foundation

/// A plain decimal token split into sign, integer significand and power of ten:
/// value = ±significand × 10^exponent.
struct DecimalParts {
  var negative: Bool
  var significand: UInt64
  var exponent: Int
}

/// Turns number tokens into values without allocating.
///
/// Floating-point results are correctly rounded: plain decimals with up to 19
/// significant digits and small exponents are computed exactly with one IEEE operation
/// (Clinger's fast path), and everything else — long mantissas, large exponents, `nan`,
/// `inf`, hexadecimal — goes to the C library's correctly rounded `strtof`/`strtod`.
enum ASCIINumberParser {
  /// 10^k for k in 0…10, exact in `Float` (a literal table: no lazy global to check).
  @inline(__always)
  private static func powerOfTenFloat(_ k: Int) -> Float {
    let table: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float) =
      (1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10)
    return withUnsafeBytes(of: table) { $0.load(fromByteOffset: k * 4, as: Float.self) }
  }

  /// 10^k for k in 0…22, exact in `Double`.
  @inline(__always)
  private static func powerOfTenDouble(_ k: Int) -> Double {
    let table:
      (
        Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
        Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
        Double
      ) = (
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22
      )
    return withUnsafeBytes(of: table) { $0.load(fromByteOffset: k * 8, as: Double.self) }
  }

  // MARK: - From decimal parts

  /// The `Float` nearest to `d`, or `nil` when the fast path cannot decide it.
  @inline(__always)
  static func float(_ d: DecimalParts) -> Float? {
    if d.significand == 0 { return d.negative ? -0.0 : 0.0 }
    if d.significand <= 1 << 24 && d.exponent >= -10 && d.exponent <= 10 {
      let m = Float(d.significand)
      let v =
        d.exponent < 0
        ? m / powerOfTenFloat(-d.exponent) : m * powerOfTenFloat(d.exponent)
      return d.negative ? -v : v
    }
    if d.significand <= 1 << 53 && d.exponent >= -22 && d.exponent <= 22 {
      let m = Double(d.significand)
      let v =
        d.exponent < 0
        ? m / powerOfTenDouble(-d.exponent) : m * powerOfTenDouble(d.exponent)
      // Rounding the correctly rounded double to float again is exact unless the double
      // sits exactly halfway between two floats, or outside float's normal range.
      let lowBits = v.bitPattern & ((1 << 29) - 1)
      if lowBits != 1 << 28 && v >= Double(Float.leastNormalMagnitude)
        && v <= Double(Float.greatestFiniteMagnitude)
      {
        return d.negative ? -Float(v) : Float(v)
      }
    }
    return nil
  }

  /// The `Double` nearest to `d`, or `nil` when the fast path cannot decide it.
  @inline(__always)
  static func double(_ d: DecimalParts) -> Double? {
    guard d.significand <= 1 << 53, d.exponent >= -22, d.exponent <= 22 else { return nil }
    let m = Double(d.significand)
    let v =
      d.exponent < 0
      ? m / powerOfTenDouble(-d.exponent) : m * powerOfTenDouble(d.exponent)
    return d.negative ? -v : v
  }

  /// The integer `d` denotes, or `nil` when it is not a whole number in `Int64`'s
  /// range (`255`, `+7` and `-3` are; `2.5` is not).
  @inline(__always)
  static func integer(_ d: DecimalParts) -> Int64? {
    var significand = d.significand
    var exponent = d.exponent
    while exponent < 0 {
      guard significand % 10 == 0 else { return nil }
      significand /= 10
      exponent += 1
    }
    while exponent > 0 {
      guard significand <= UInt64(Int64.max) / 10 else { return nil }
      significand *= 10
      exponent -= 1
    }
    guard significand <= UInt64(Int64.max) else { return nil }
    return d.negative ? -Int64(significand) : Int64(significand)
  }

  // MARK: - From text

  /// Splits a token into decimal parts, or `nil` if it is not a plain decimal or has
  /// more than 19 significant digits.
  static func decimal(_ p: UnsafePointer<UInt8>, _ n: Int) -> DecimalParts? {
    var i = 0
    guard let parts = scanDecimal(p, &i, n), i == n else { return nil }
    return parts
  }

  /// Reads `[+-]digits[.digits][(e|E)[+-]digits]` from `p[i...]`, stopping at the first
  /// character that cannot continue it (`i` is left there, wherever the scan ended).
  /// Returns `nil` when no digit was read, an exponent has no digits, or the significand
  /// passes 19 digits.
  @inline(__always)
  static func scanDecimal(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int
  ) -> DecimalParts? {
    var negative = false
    if i < end && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
      negative = p[i] == UInt8(ascii: "-")
      i += 1
    }
    var significand: UInt64 = 0
    var significantDigits = 0
    var exponent = 0
    var sawDigit = false
    while i < end, case let d = p[i] &- 48, d < 10 {
      sawDigit = true
      if significand != 0 || d != 0 { significantDigits &+= 1 }
      significand = significand &* 10 &+ UInt64(d)
      i &+= 1
    }
    if i < end && p[i] == UInt8(ascii: ".") {
      i += 1
      while i < end, case let d = p[i] &- 48, d < 10 {
        sawDigit = true
        if significand != 0 || d != 0 { significantDigits &+= 1 }
        significand = significand &* 10 &+ UInt64(d)
        exponent &-= 1
        i &+= 1
      }
    }
    guard sawDigit, significantDigits <= 19 else { return nil }
    if i < end && (p[i] | 0x20) == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < end && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
        exponentNegative = p[i] == UInt8(ascii: "-")
        i += 1
      }
      var value = 0
      var sawExponentDigit = false
      while i < end, case let d = p[i] &- 48, d < 10 {
        sawExponentDigit = true
        value = min(value * 10 + Int(d), 100_000)
        i += 1
      }
      guard sawExponentDigit else { return nil }
      exponent += exponentNegative ? -value : value
    }
    return DecimalParts(negative: negative, significand: significand, exponent: exponent)
  }

  /// Parses a `Float`, or returns `nil` if the token is not a number.
  static func parseFloat(_ p: UnsafePointer<UInt8>, _ n: Int) -> Float? {
    if let d = decimal(p, n), let value = float(d) { return value }
    return withCString(p, n) { cString, end in
      var endPointer: UnsafeMutablePointer<CChar>?
      let value = strtof(cString, &endPointer)
      return endPointer == end ? value : nil
    }
  }

  /// Parses a `Double`, or returns `nil` if the token is not a number.
  static func parseDouble(_ p: UnsafePointer<UInt8>, _ n: Int) -> Double? {
    if let d = decimal(p, n), let value = double(d) { return value }
    return withCString(p, n) { cString, end in
      var endPointer: UnsafeMutablePointer<CChar>?
      let value = strtod(cString, &endPointer)
      return endPointer == end ? value : nil
    }
  }

  /// Parses a whole number written in decimal (`12`, `-3`, `1e3`), or `nil`.
  static func parseInteger(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
    if let d = decimal(p, n) { return integer(d) }
    // Long runs of digits (leading zeros, or out of every type's range).
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
