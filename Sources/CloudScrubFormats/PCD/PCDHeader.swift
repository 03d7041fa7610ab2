import CloudScrubCore

/// A PCD file's header: its fields, point count and data kind.
public struct PCDHeader: Equatable, Sendable {
  /// One field: its name, type letter (`F`, `I`, `U`), size in bytes and count.
  public struct Field: Equatable, Sendable {
    public var name: String
    public var type: String
    public var size: Int
    public var count: Int
  }

  public enum DataKind: String, Sendable {
    case ascii
    case binary
    case binaryCompressed = "binary_compressed"
  }

  public var version: String?
  public var fields: [Field]
  public var width: Int
  public var height: Int
  public var points: Int
  public var data: DataKind
  /// The `#` comment lines, without the `#`.
  public var comments: [String]
  /// The offset of the first byte after the `DATA` line.
  public var dataOffset: Int
  /// The 1-based number of the line after `DATA` (ASCII data's first line).
  public var dataLine: Int

  /// Bytes of one record in binary data.
  public var recordSize: Int { fields.reduce(0) { $0 + $1.size * $1.count } }

  /// The most points a header may claim (PCL's own clouds stay far below).
  public static let maxPoints = 1 << 31
  /// The longest header read before its `DATA` line.
  public static let maxHeaderBytes = 1 << 16

  /// Parses the header at the start of `bytes`.
  ///
  /// - Throws: `PCDErrorReason` naming the line at fault.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws(PCDErrorReason) -> PCDHeader {
    var lines = TextLines(bytes)
    var version: String?
    var names: [String]?
    var sizes: [Int]?
    var types: [String]?
    var counts: [Int]?
    var width: Int?
    var height: Int?
    var points: Int?
    var comments: [String] = []
    while let line = lines.next() {
      let number = lines.lineNumber - 1
      guard line.upperBound <= maxHeaderBytes else { break }
      if lines.isBlank(line) { continue }
      if lines.firstByte(line) == UInt8(ascii: "#") {
        let text = lines.text(line).drop { $0 == " " || $0 == "\t" }.dropFirst()
        comments.append(String(text.drop { $0 == " " }))
        continue
      }
      let words = lines.tokens(line, commas: false).map { lines.text($0) }
      guard let keyword = words.first else { continue }
      let values = Array(words.dropFirst())
      let bad = PCDErrorReason.malformedLine(line: number, text: InputExcerpt.of(lines.text(line)))
      func integers() throws(PCDErrorReason) -> [Int] {
        var result: [Int] = []
        for value in values {
          guard let integer = Int(value), integer >= 0 else { throw bad }
          result.append(integer)
        }
        return result
      }
      func one() throws(PCDErrorReason) -> Int {
        let list = try integers()
        guard list.count == 1 else { throw bad }
        return list[0]
      }
      func checkLength(_ got: Int) throws(PCDErrorReason) {
        guard let expected = names?.count else {
          throw .missingLine(keyword: "FIELDS (before \(keyword))")
        }
        guard got == expected else {
          throw .fieldListLength(line: number, keyword: keyword, expected: expected, got: got)
        }
      }
      switch keyword.uppercased() {
      case "VERSION": version = values.first
      case "FIELDS", "COLUMNS":
        guard !values.isEmpty, values.count <= 4096 else { throw bad }
        names = values
      case "SIZE":
        let list = try integers()
        try checkLength(list.count)
        sizes = list
      case "TYPE":
        try checkLength(values.count)
        types = values.map { $0.uppercased() }
      case "COUNT":
        let list = try integers()
        try checkLength(list.count)
        guard list.allSatisfy({ $0 >= 1 && $0 <= 4096 }) else { throw bad }
        counts = list
      case "WIDTH": width = try one()
      case "HEIGHT": height = try one()
      case "POINTS": points = try one()
      case "VIEWPOINT":
        guard values.count == 7, values.allSatisfy({ Double($0) != nil }) else {
          throw bad
        }
      case "DATA":
        guard values.count == 1, let kind = DataKind(rawValue: values[0].lowercased()) else {
          throw .unknownData(values.joined(separator: " "))
        }
        guard let names else { throw .missingLine(keyword: "FIELDS") }
        guard let sizes else { throw .missingLine(keyword: "SIZE") }
        guard let types else { throw .missingLine(keyword: "TYPE") }
        let counts = counts ?? names.map { _ in 1 }
        // A second FIELDS line may have changed the count after SIZE, TYPE or COUNT.
        for (keyword, got) in [
          ("SIZE", sizes.count), ("TYPE", types.count), ("COUNT", counts.count),
        ]
        where got != names.count {
          throw .fieldListLength(line: number, keyword: keyword, expected: names.count, got: got)
        }
        guard let width else { throw .missingLine(keyword: "WIDTH") }
        let height = height ?? 1
        let points = points ?? width * height
        guard width.multipliedReportingOverflow(by: height) == (points, false),
          points <= maxPoints
        else { throw .pointCount(points: points, width: width, height: height) }
        var fields: [Field] = []
        for index in names.indices {
          let field = Field(
            name: names[index], type: types[index], size: sizes[index], count: counts[index])
          guard Self.isSupported(field) else {
            throw .unsupportedType(field: field.name, type: field.type, size: field.size)
          }
          fields.append(field)
        }
        for axis in ["x", "y", "z"] where !fields.contains(where: { $0.name == axis }) {
          throw .noCoordinates(fields: names)
        }
        return PCDHeader(
          version: version, fields: fields, width: width, height: height, points: points,
          data: kind, comments: comments, dataOffset: lines.cursor, dataLine: lines.lineNumber)
      default: throw bad
      }
    }
    throw .noDataLine(limitBytes: maxHeaderBytes)
  }

  static func isSupported(_ field: Field) -> Bool {
    switch field.type {
    case "F": field.size == 4 || field.size == 8
    case "I", "U": [1, 2, 4, 8].contains(field.size)
    default: false
    }
  }
}
