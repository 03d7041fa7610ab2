import CloudScrubCore
import CloudScrubSession
import Foundation

/// One parser per kind of option value (ranges, sizes, levels, metres, counts, choices,
/// lists of numbers), each returning nil when the option is absent. Every error names
/// the option and the value given.
extension ParsedArguments {
  /// `--name A-B` (or `A,B`), read by Core's `RangeText`; `isValid` says which pairs
  /// are allowed and `needs` describes them in the error.
  func range<Value>(
    _ name: String, as parse: (String) -> Value?, needs: String,
    isValid: (Value, Value) -> Bool
  ) throws(UsageError) -> (lower: Value, upper: Value)? {
    guard let text = value(name) else { return nil }
    guard let (lower, upper) = RangeText.parse(text, as: parse), isValid(lower, upper) else {
      throw UsageError("--\(name) needs \(needs), not '\(text)'")
    }
    return (lower, upper)
  }

  /// `--name MIN-MAX` in metres, finite, with MIN ≤ MAX and MIN ≥ `atLeast`.
  func metresRange(_ name: String, atLeast minimum: Float = -.infinity) throws(UsageError)
    -> ClosedRange<Float>?
  {
    let lowest = minimum.isFinite ? "\(Self.number(minimum)) ≤ MIN ≤ MAX" : "MIN ≤ MAX"
    let forms = minimum.isFinite ? "MIN-MAX or MIN,MAX" : RangeText.forms
    return try range(name, as: { Float($0) }, needs: "\(forms) in metres with \(lowest)") {
      $0.isFinite && $1.isFinite && $0 >= minimum && $0 <= $1
    }.map { $0.lower...$0.upper }
  }

  /// `--name FIRST-LAST` (or `FIRST,LAST`) of whole numbers with 0 ≤ FIRST ≤ LAST.
  func indexRange(_ name: String) throws(UsageError) -> ClosedRange<Int>? {
    try range(
      name, as: { Int($0) }, needs: "FIRST-LAST or FIRST,LAST with 0 ≤ FIRST ≤ LAST"
    ) { $0 >= 0 && $0 <= $1 }.map { $0.lower...$0.upper }
  }

  /// `--name WxH` in pixels, each side in its range.
  package func size(_ name: String, widths: ClosedRange<Int>, heights: ClosedRange<Int>)
    throws(UsageError) -> (width: Int, height: Int)?
  {
    guard let text = value(name) else { return nil }
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      widths.contains(width), heights.contains(height)
    else {
      let limits =
        widths == heights
        ? "each side \(widths.lowerBound) to \(widths.upperBound)"
        : "\(widths.lowerBound)x\(heights.lowerBound) to \(widths.upperBound)x\(heights.upperBound)"
      throw UsageError("--\(name) needs WxH with \(limits), not '\(text)'")
    }
    return (width, height)
  }

  /// `--name low|medium|high`.
  package func level(_ name: String) throws(UsageError) -> ConfidenceLevel? {
    guard let text = value(name) else { return nil }
    guard let level = ConfidenceLevel.named(text) else {
      throw UsageError("--\(name) is low, medium or high, not '\(text)'")
    }
    return level
  }

  /// `--name SIZE_M`: a finite length in metres above 0.
  package func metres(_ name: String) throws(UsageError) -> Float? {
    guard let text = value(name) else { return nil }
    guard let size = Float(text), size > 0, size.isFinite else {
      throw UsageError("--\(name) needs a size in metres above 0, not '\(text)'")
    }
    return size
  }

  /// `--name N`: a whole number of at least `minimum` (`_` separators allowed).
  package func count(_ name: String, atLeast minimum: Int = 1) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= minimum
    else {
      throw UsageError("--\(name) needs a whole number of at least \(minimum), not '\(text)'")
    }
    return number
  }

  /// `--name SIZE`: a number of bytes with an optional binary suffix, K, M, G or T
  /// (KiB, MiB, GiB, TiB; `512M`, `1.5G`, `2g`), of at least `minimum` bytes.
  package func byteSize(_ name: String, atLeast minimum: Int = 1) throws(UsageError) -> Int? {
    guard let text = value(name) else { return nil }
    let suffixes: [Character: Double] = ["k": 0x1p10, "m": 0x1p20, "g": 0x1p30, "t": 0x1p40]
    var digits = Substring(text.lowercased())
    var unit = 1.0
    if let last = digits.last, let scale = suffixes[last] {
      unit = scale
      digits = digits.dropLast()
    }
    guard let number = Double(digits), number.isFinite, number >= 0,
      number * unit >= Double(minimum), number * unit < 0x1p62
    else {
      throw UsageError(
        "--\(name) needs a size in bytes of at least \(minimum), with K, M, G or T for KiB, MiB,"
          + " GiB or TiB (512M, 2G), not '\(text)'")
    }
    return Int(number * unit)
  }

  /// `--name X`: a number in `allowed`.
  func number(_ name: String, in allowed: ClosedRange<Float>, unit: String) throws(UsageError)
    -> Float?
  {
    guard let text = value(name) else { return nil }
    guard let number = Float(text), allowed.contains(number) else {
      throw UsageError(
        "--\(name) needs a number of \(unit) from \(Self.number(allowed.lowerBound)) to "
          + "\(Self.number(allowed.upperBound)), not '\(text)'")
    }
    return number
  }

  /// `--name A|B|C`: one of `choices`, as written.
  package func choice(_ name: String, among choices: [String]) throws(UsageError) -> String? {
    guard let text = value(name) else { return nil }
    guard choices.contains(text) else {
      throw UsageError("--\(name) is \(Self.list(choices)), not '\(text)'")
    }
    return text
  }

  /// `--name A|B|C` of an enumeration whose raw values are the spellings.
  package func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, of type: Choice.Type)
    throws(UsageError) -> Choice? where Choice.RawValue == String
  {
    try choice(name, among: Choice.allCases.map(\.rawValue)).flatMap { Choice(rawValue: $0) }
  }

  /// `--name on|off`.
  package func onOff(_ name: String) throws(UsageError) -> Bool? {
    try choice(name, among: ["on", "off"]).map { $0 == "on" }
  }

  /// `--name A,B,…`: exactly `count` comma-separated numbers that `isValid` accepts;
  /// `syntax` is how the error writes the form.
  func numbers(
    _ name: String, count: Int, syntax: String, isValid: ([Double]) -> Bool = { _ in true }
  ) throws(UsageError) -> [Double]? {
    guard let text = value(name) else { return nil }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    let numbers = parts.compactMap { $0 }
    guard parts.count == count, numbers.count == count, numbers.allSatisfy(\.isFinite),
      isValid(numbers)
    else {
      throw UsageError("--\(name) needs \(syntax), not '\(text)'")
    }
    return numbers
  }

  /// `a, b or c`.
  static func list(_ words: [String]) -> String {
    guard let last = words.last, words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " or " + last
  }

  /// A bound as errors write it: `0` rather than `0.0`.
  static func number(_ value: Float) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }
}
