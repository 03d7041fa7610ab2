import CloudScrubCore

/// The encoding of a PLY body.
public enum PLYFormat: String, Sendable, CaseIterable {
  case ascii
  case binaryLittleEndian = "binary_little_endian"
  case binaryBigEndian = "binary_big_endian"
}

/// The type of one PLY property: a scalar, or a list with a count type and an item type.
public enum PLYPropertyKind: Equatable, Sendable {
  case scalar(ScalarType)
  case list(count: ScalarType, item: ScalarType)
}

/// One `property` line of a PLY header.
public struct PLYProperty: Equatable, Sendable {
  public var name: String
  public var kind: PLYPropertyKind

  public init(name: String, kind: PLYPropertyKind) {
    self.name = name
    self.kind = kind
  }
}

/// One `element` line of a PLY header with the properties that follow it.
public struct PLYElement: Equatable, Sendable {
  public var name: String
  public var count: Int
  public var properties: [PLYProperty]

  public init(name: String, count: Int, properties: [PLYProperty] = []) {
    self.name = name
    self.count = count
    self.properties = properties
  }

  /// The size of every record when no property is a list, else `nil`.
  public var fixedRecordSize: Int? {
    var size = 0
    for property in properties {
      guard case .scalar(let type) = property.kind else { return nil }
      size += type.byteCount
    }
    return size
  }

  /// The fewest bytes a binary record can take (lists counted as empty).
  public var minimumRecordSize: Int {
    properties.reduce(0) { sum, property in
      switch property.kind {
      case .scalar(let type): sum + type.byteCount
      case .list(let countType, _): sum + countType.byteCount
      }
    }
  }

  /// The fewest tokens an ASCII record can take (lists counted as empty).
  public var minimumTokenCount: Int { properties.count }
}

/// A parsed PLY header.
public struct PLYHeader: Equatable, Sendable {
  public var format: PLYFormat
  public var version: String
  public var elements: [PLYElement]
  public var comments: [String]
  public var objInfo: [String]
  /// Byte offset of the body: the first byte after the `end_header` line.
  public var bodyOffset: Int

  public init(
    format: PLYFormat, version: String = "1.0", elements: [PLYElement] = [],
    comments: [String] = [], objInfo: [String] = [], bodyOffset: Int = 0
  ) {
    self.format = format
    self.version = version
    self.elements = elements
    self.comments = comments
    self.objInfo = objInfo
    self.bodyOffset = bodyOffset
  }

  /// Names of the element whose records are the points, in order of preference.
  public static let pointElementNames = ["vertex", "vertices", "point", "points"]

  /// The index of the element whose records are the points: `vertex`, or failing that
  /// `vertices`, `point` or `points`.
  public var vertexElementIndex: Int? {
    for name in Self.pointElementNames {
      if let index = elements.firstIndex(where: { $0.name == name }) { return index }
    }
    return nil
  }

  /// The element whose records are the points.
  public var vertexElement: PLYElement? { vertexElementIndex.map { elements[$0] } }
}

extension ScalarType {
  /// Parses a PLY type name or its alias (`uchar` or `uint8`, `float` or `float32`…).
  public init?(plyName: some StringProtocol) {
    switch plyName {
    case "char", "int8": self = .int8
    case "uchar", "uint8": self = .uint8
    case "short", "int16": self = .int16
    case "ushort", "uint16": self = .uint16
    case "int", "int32": self = .int32
    case "uint", "uint32": self = .uint32
    case "float", "float32": self = .float32
    case "double", "float64": self = .float64
    default: return nil
    }
  }

  /// The name this project writes into PLY headers (the original spec's names).
  public var plyName: String {
    switch self {
    case .int8: "char"
    case .uint8: "uchar"
    case .int16: "short"
    case .uint16: "ushort"
    case .int32: "int"
    case .uint32: "uint"
    case .float32: "float"
    case .float64: "double"
    }
  }
}
