import Foundation

/// Typed access to a parsed JSON object's values, throwing `Record3DError` that names the
/// key and the file.
struct MetadataFields {
  let dictionary: [String: Any]
  let path: String

  func has(_ key: String) -> Bool { dictionary[key] != nil && !(dictionary[key] is NSNull) }

  func number(_ key: String) throws -> Double {
    guard let value = dictionary[key] else { throw missing(key) }
    guard let number = Self.double(value) else { throw bad(key, "a number") }
    return number
  }

  func positiveNumber(_ key: String) throws -> Double {
    let value = try number(key)
    guard value > 0, value.isFinite else { throw bad(key, "a positive number") }
    return value
  }

  func positiveInt(_ key: String) throws -> Int {
    let value = try number(key)
    guard value >= 1, value <= Double(Int32.max), value.rounded() == value else {
      throw bad(key, "a positive whole number")
    }
    return Int(value)
  }

  /// A whole number of at most 2³¹−1 in size (a type code, say).
  func wholeNumber(_ key: String) throws -> Int {
    let value = try number(key)
    guard abs(value) <= Double(Int32.max), value.rounded() == value else {
      throw bad(key, "a whole number")
    }
    return Int(value)
  }

  /// An array of exactly `count` numbers.
  func numbers(_ key: String, count: Int, expected: String) throws -> [Double] {
    guard let values = try numbersIfPresent(key, expected: expected) else { throw missing(key) }
    guard values.count == count else { throw bad(key, expected) }
    return values
  }

  /// An array of numbers, or nil when the key is absent.
  func numbersIfPresent(_ key: String, expected: String = "an array of numbers") throws
    -> [Double]?
  {
    guard has(key) else { return nil }
    guard let array = dictionary[key] as? [Any] else { throw bad(key, expected) }
    var values = [Double]()
    values.reserveCapacity(array.count)
    for element in array {
      guard let number = Self.double(element) else { throw bad(key, expected) }
      values.append(number)
    }
    return values
  }

  /// An array of rows of `width` numbers each, or nil when the key is absent.
  func rows(_ key: String, width: Int, expected: String) throws -> [[Double]]? {
    guard has(key) else { return nil }
    guard let array = dictionary[key] as? [Any] else { throw bad(key, expected) }
    return try array.enumerated().map { index, element in
      guard let row = element as? [Any], row.count == width else {
        throw bad(key, "\(expected) (row \(index) is not)")
      }
      return try row.map { value in
        guard let number = Self.double(value) else {
          throw bad(key, "\(expected) (row \(index) is not)")
        }
        return number
      }
    }
  }

  /// A JSON number as a finite double; nil for anything else (a literal too large for
  /// a double, such as 1e999, is not a number a recording can use).
  private static func double(_ value: Any) -> Double? {
    guard let number = (value as? NSNumber)?.doubleValue, number.isFinite else { return nil }
    return number
  }

  private func missing(_ key: String) -> Record3DError {
    Record3DError(.missingKey(key), path: path)
  }

  private func bad(_ key: String, _ expected: String) -> Record3DError {
    Record3DError(.badValue(key: key, expected: expected), path: path)
  }
}
