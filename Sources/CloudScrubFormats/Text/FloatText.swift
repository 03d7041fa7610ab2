import CloudScrubCore

/// Numbers written as text straight into byte buffers, for the text writers (PCD ASCII,
/// XYZ): no `String` is made for a value.
///
/// A `Float` is written in its shortest decimal form that reads back to the same bits,
/// the one nearest the exact value when several are as short, laid out as Swift's
/// `description` lays it out (`0.1`, `16777216.0`, `1e-05`, `1.6777218e+07`, `-0.0`,
/// `nan`, `inf`): the same bytes the writers made with `description` before. The digits
/// come from exact integer arithmetic (`UInt128`, and a 256-bit product for the smallest
/// values), so there is no rounding to go wrong.
enum FloatText {
  /// 5^k for k in 0…55, exact (5^55 < 2^128).
  private static let powersOfFive: [UInt128] = {
    var powers: [UInt128] = [1]
    for _ in 1...55 { powers.append(powers[powers.count - 1] * 5) }
    return powers
  }()

  /// 10^k for k in 0…18.
  @inline(__always)
  private static func powerOfTen(_ k: Int) -> Int {
    var value = 1
    for _ in 0..<k { value &*= 10 }
    return value
  }

  /// Appends `value`'s decimal text.
  @inline(__always)
  static func append(_ value: Float, to buffer: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
      let count = write(value, into: scratch.baseAddress.unsafelyUnwrapped)
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
    }
  }

  /// Writes `value`'s decimal text (at most 16 bytes) at `out`; the bytes written.
  static func write(_ value: Float, into out: UnsafeMutablePointer<UInt8>) -> Int {
    var text = TextCursor(out)
    if value.isNaN { return text.put("nan") }
    if value.sign == .minus { text.put(UInt8(ascii: "-")) }
    if value.isInfinite { return text.put("inf") }
    if value == 0 { return text.put("0.0") }
    guard let (digits, exponent) = shortest(value.magnitude) else {
      for byte in value.magnitude.description.utf8.prefix(15) { text.put(byte) }
      return text.count
    }
    layOut(
      digits: digits, exponent: exponent, exponential: value.magnitude > 16_777_216,
      into: &text)
    return text.count
  }

  /// Appends an integer in decimal.
  @inline(__always)
  static func append<T: BinaryInteger>(integer value: T, to buffer: inout [UInt8]) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var magnitude = UInt64(value.magnitude)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
      var at = 20
      repeat {
        at -= 1
        scratch[at] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[at..<20]))
    }
  }

  // MARK: - Digits

  /// The shortest digits `d` and power of ten `j` with `d × 10^j` reading back as
  /// `value` (positive, finite), nearest to it among the shortest; nil when the value
  /// is outside what the arithmetic below was sized for (never, for `Float`).
  static func shortest(_ value: Float) -> (digits: Int, exponent: Int)? {
    let bits = value.bitPattern
    let biased = Int(bits >> 23)
    let fraction = UInt64(bits & 0x7F_FFFF)
    let m = biased == 0 ? fraction : fraction | 1 << 23
    let e = biased == 0 ? -149 : biased - 150
    // The value, and the bounds of what reads back as it, times four: halfway to each
    // neighbour (the lower one nearer at the bottom of a binade). Round-to-even reads a
    // bound back as the value when m is even.
    let x = m << 2
    let upper = x + 2
    let lower = fraction == 0 && biased > 1 ? x - 1 : x - 2
    let e2 = e - 2
    let inclusive = m & 1 == 0
    // floor(log10(value)) is p·log10(2) rounded down, or one more.
    let p = e + 63 - m.leadingZeroBitCount
    let k0 = (p * 78_913) >> 18
    let j0 = k0 - 9  // a grid with 10 or 11 digits: 9 always read back
    guard let (low, lowExact) = scaled(lower, e2, j0),
      let (high, highExact) = scaled(upper, e2, j0),
      let (fine, fineExact) = scaled(x, e2, j0 - 1)
    else { return nil }
    func first(_ floor: Int, _ exact: Bool) -> Int { exact && inclusive ? floor : floor + 1 }
    func last(_ floor: Int, _ exact: Bool) -> Int { exact && !inclusive ? floor - 1 : floor }
    var (lo, loExact, hi, hiExact) = (low, lowExact, high, highExact)
    var t = 0
    // Coarser grids while one still has a point that reads back.
    while true {
      let (nextLo, nextLoExact) = (lo / 10, loExact && lo % 10 == 0)
      let (nextHi, nextHiExact) = (hi / 10, hiExact && hi % 10 == 0)
      guard first(nextLo, nextLoExact) <= last(nextHi, nextHiExact) else { break }
      (lo, loExact, hi, hiExact) = (nextLo, nextLoExact, nextHi, nextHiExact)
      t += 1
    }
    // The grid point nearest the value, kept inside the bounds.
    let below = powerOfTen(t)
    let scaledValue = fine / below
    let sticky = !fineExact || fine % below != 0
    let roundDigit = scaledValue % 10
    var digits = scaledValue / 10
    if roundDigit > 5 || (roundDigit == 5 && (sticky || digits & 1 == 1)) { digits += 1 }
    digits = min(max(digits, first(lo, loExact)), last(hi, hiExact))
    return (digits, j0 + t)
  }

  /// floor(X · 2^e2 / 10^j) and whether it is exact, or nil past 64 bits.
  @inline(__always)
  private static func scaled(_ x: UInt64, _ e2: Int, _ j: Int) -> (Int, Bool)? {
    if j >= 0 {
      // X · 2^(e2−j) / 5^j
      let shift = e2 - j
      guard j < powersOfFive.count, shift >= 0, shift < 100 else { return nil }
      let numerator = UInt128(x) << shift
      let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: powersOfFive[j])
      guard quotient <= UInt128(Int.max) else { return nil }
      return (Int(quotient), remainder == 0)
    }
    // X · 5^n · 2^(e2+n), n = −j
    let n = -j
    guard n < powersOfFive.count else { return nil }
    let shift = e2 + n
    if shift >= 0 {
      guard shift < 40, n < 20 else { return nil }
      let value = UInt128(x) * powersOfFive[n] << shift
      guard value <= UInt128(Int.max) else { return nil }
      return (Int(value), true)
    }
    let s = -shift
    guard s < 128 else { return nil }
    if n < 28 && s < 64 {
      // 5^n fits 64 bits: one 64 × 64-bit product (coordinates of a few metres).
      let (high, low) = x.multipliedFullWidth(by: UInt64(truncatingIfNeeded: powersOfFive[n]))
      guard high >> s == 0 else { return nil }
      let quotient = s == 0 ? low : (high << (64 - s)) | (low >> s)
      guard quotient <= UInt64(Int.max) else { return nil }
      return (Int(quotient), low & ((1 << s) - 1) == 0)
    }
    let (high, low) = UInt128(x).multipliedFullWidth(by: powersOfFive[n])
    guard high >> s == 0 else { return nil }
    let quotient = (high << (128 - s)) | (low >> s)
    guard quotient <= UInt128(Int.max) else { return nil }
    return (Int(quotient), low & ((1 << s) - 1) == 0)
  }

  // MARK: - Layout

  /// `digits × 10^exponent` as `description` writes it: plain decimals from 10^-4 up
  /// to 2^24, with `.0` after a whole number; otherwise `d.ddde±XX`.
  @inline(__always)
  private static func layOut(
    digits: Int, exponent: Int, exponential: Bool, into text: inout TextCursor
  ) {
    var count = 1
    while count < 18 && digits >= powerOfTen(count) { count += 1 }
    let decimalExponent = count + exponent - 1
    if exponential || decimalExponent < -4 {
      text.putDigits(digits, count: count, pointAfter: count > 1 ? 1 : 0)
      text.put(UInt8(ascii: "e"))
      text.put(UInt8(ascii: decimalExponent < 0 ? "-" : "+"))
      let magnitude = abs(decimalExponent)
      if magnitude >= 10 {
        text.put(UInt8(truncatingIfNeeded: 48 + magnitude / 10))
      } else {
        text.put(UInt8(ascii: "0"))
      }
      text.put(UInt8(truncatingIfNeeded: 48 + magnitude % 10))
      return
    }
    let point = count + exponent  // digits before the decimal point
    if point <= 0 {
      text.put("0.")
      for _ in 0..<(-point) { text.put(UInt8(ascii: "0")) }
      text.putDigits(digits, count: count, pointAfter: 0)
    } else if point >= count {
      text.putDigits(digits, count: count, pointAfter: 0)
      for _ in 0..<(point - count) { text.put(UInt8(ascii: "0")) }
      text.put(".0")
    } else {
      text.putDigits(digits, count: count, pointAfter: point)
    }
  }
}

/// Bytes written one after another from a pointer (a stack scratch of `FloatText`).
struct TextCursor {
  let base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0

  init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

  @inline(__always)
  mutating func advance(_ bytes: Int) { count += bytes }

  @inline(__always)
  mutating func put(_ byte: UInt8) {
    base[count] = byte
    count += 1
  }

  @discardableResult @inline(__always)
  mutating func put(_ text: StaticString) -> Int {
    text.withUTF8Buffer { for byte in $0 { put(byte) } }
    return count
  }

  /// The `count` decimal digits of `value`, with a point after the first `pointAfter`
  /// of them (none when 0).
  @inline(__always)
  mutating func putDigits(_ value: Int, count digits: Int, pointAfter: Int) {
    let length = digits + (pointAfter > 0 ? 1 : 0)
    var rest = value
    var at = length - 1
    for k in stride(from: digits - 1, through: 0, by: -1) {
      if pointAfter > 0 && k == pointAfter - 1 {
        base[count + at] = UInt8(ascii: ".")
        at -= 1
      }
      base[count + at] = UInt8(truncatingIfNeeded: 48 + rest % 10)
      rest /= 10
      at -= 1
    }
    count += length
  }
}
