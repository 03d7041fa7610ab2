/// How one field of a compressed vector's records is stored in its byte stream.
enum E57FieldEncoding: Equatable, Sendable {
  /// IEEE floats, 4 bytes (`single`) or 8 bytes a record, little-endian.
  case float(single: Bool)
  /// Integers in `minimum...maximum`, stored as `value - minimum` in the fewest bits
  /// that hold `maximum - minimum`, packed from the least significant bit up.
  case integer(minimum: Int64, maximum: Int64)
  /// Integers packed as `.integer`; the value is `raw × scale + offset`.
  case scaledInteger(minimum: Int64, maximum: Int64, scale: Double, offset: Double)

  /// Bits a record takes in the stream (0 for an integer whose range is one value).
  var bitsPerRecord: Int {
    switch self {
    case .float(let single): return single ? 32 : 64
    case .integer(let minimum, let maximum), .scaledInteger(let minimum, let maximum, _, _):
      let range = UInt64(bitPattern: maximum &- minimum)
      return range == 0 ? 0 : 64 - range.leadingZeroBitCount
    }
  }

  /// The value a record's raw bits stand for.
  @inline(__always)
  func value(ofBits bits: UInt64) -> Double {
    switch self {
    case .float(let single):
      return single
        ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
    case .integer(let minimum, _):
      return Double(minimum &+ Int64(bitPattern: bits))
    case .scaledInteger(let minimum, _, let scale, let offset):
      return Double(minimum &+ Int64(bitPattern: bits)) * scale + offset
    }
  }
}

/// One field of a compressed vector's prototype, in the order of its byte streams.
struct E57Field: Equatable, Sendable {
  /// The field's name; fields of a nested structure as "parent/child".
  var name: String
  var encoding: E57FieldEncoding

  /// The prototype's terminal fields, depth first, as the byte streams are ordered.
  ///
  /// - Throws: `E57ErrorReason.badElement` for a String or Blob field, a missing or
  ///   malformed bound, or `minimum > maximum`.
  static func fields(of prototype: E57XMLElement, path: String) throws(E57ErrorReason)
    -> [E57Field]
  {
    var out: [E57Field] = []
    try collect(prototype, prefix: "", path: path, into: &out)
    return out
  }

  private static func collect(
    _ element: E57XMLElement, prefix: String, path: String, into out: inout [E57Field]
  ) throws(E57ErrorReason) {
    for child in element.children {
      let name = prefix + child.name
      let where_ = path + "/" + child.name
      switch child.type {
      case "Structure", "Vector":
        try collect(child, prefix: name + "/", path: where_, into: &out)
      case "Float":
        let precision = child.attributes["precision"] ?? "double"
        guard precision == "single" || precision == "double" else {
          throw .badElement(
            path: where_, message: "precision '\(precision)' is not single or double")
        }
        out.append(E57Field(name: name, encoding: .float(single: precision == "single")))
      case "Integer", "ScaledInteger":
        let minimum = try integerAttribute(child, "minimum", path: where_)
        let maximum = try integerAttribute(child, "maximum", path: where_)
        guard minimum <= maximum else {
          throw .badElement(path: where_, message: "minimum \(minimum) > maximum \(maximum)")
        }
        if child.type == "Integer" {
          out.append(E57Field(name: name, encoding: .integer(minimum: minimum, maximum: maximum)))
        } else {
          let scale = try doubleAttribute(child, "scale", default: 1, path: where_)
          let offset = try doubleAttribute(child, "offset", default: 0, path: where_)
          out.append(
            E57Field(
              name: name,
              encoding: .scaledInteger(
                minimum: minimum, maximum: maximum, scale: scale, offset: offset)))
        }
      default:
        throw .badElement(
          path: where_,
          message: "a points field of type '\(child.type ?? "none")' (only Float, Integer and "
            + "ScaledInteger are read)")
      }
    }
  }

  private static func integerAttribute(_ element: E57XMLElement, _ name: String, path: String)
    throws(E57ErrorReason) -> Int64
  {
    guard let text = element.attributes[name] else {
      // The standard's defaults: the whole 64-bit range.
      return name == "minimum" ? .min : .max
    }
    guard let value = Int64(text.e57Trimmed) else {
      throw .badElement(path: path, message: "\(name) '\(text)' is not an integer")
    }
    return value
  }

  private static func doubleAttribute(
    _ element: E57XMLElement, _ name: String, default fallback: Double, path: String
  ) throws(E57ErrorReason) -> Double {
    guard let text = element.attributes[name] else { return fallback }
    guard let value = Double(text.e57Trimmed), value.isFinite else {
      throw .badElement(path: path, message: "\(name) '\(text)' is not a finite number")
    }
    return value
  }
}

extension String {
  /// The string without leading and trailing spaces, tabs and line breaks.
  var e57Trimmed: Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    guard let last = lastIndex(where: { !isSpace($0) }) else { return "" }
    return self[first...last]
  }
}
