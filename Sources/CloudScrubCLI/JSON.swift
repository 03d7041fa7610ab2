/// A JSON value whose objects keep their keys in the order they were built, so that
/// output is byte-stable.
enum JSON {
  case object([(String, JSON)])
  case array([JSON])
  case string(String)
  case int(Int)
  case float(Float)
  case double(Double)
  case bool(Bool)
  case null

  /// The value as indented text (two spaces a level).
  func rendered(indent: String = "") -> String {
    let inner = indent + "  "
    switch self {
    case .object(let members):
      guard !members.isEmpty else { return "{}" }
      // Small objects of scalars (a property's name and type) stay on one line.
      if members.allSatisfy({ $0.1.isScalar }) {
        let inline =
          "{"
          + members.map { "\(JSON.quote($0.0)): \($0.1.rendered())" }
          .joined(separator: ", ") + "}"
        if inline.count <= 72 { return inline }
      }
      let lines = members.map { "\(inner)\(JSON.quote($0.0)): \($0.1.rendered(indent: inner))" }
      return "{\n" + lines.joined(separator: ",\n") + "\n\(indent)}"
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      if items.allSatisfy(\.isScalar) {
        return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]"
      }
      let lines = items.map { inner + $0.rendered(indent: inner) }
      return "[\n" + lines.joined(separator: ",\n") + "\n\(indent)]"
    case .string(let value): return JSON.quote(value)
    case .int(let value): return String(value)
    case .float(let value): return value.isFinite ? value.description : "null"
    case .double(let value): return value.isFinite ? value.description : "null"
    case .bool(let value): return value ? "true" : "false"
    case .null: return "null"
    }
  }

  private var isScalar: Bool {
    switch self {
    case .object, .array: false
    default: true
    }
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        result +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
