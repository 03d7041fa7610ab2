import CloudScrubCore
import Foundation

/// The fields of one scan's records as the writer stores them, in byte-stream order:
/// `cartesianX/Y/Z` (single floats), `colorRed/Green/Blue` (Integer 0–255) when the
/// cloud has colours, `nor:normalX/Y/Z` (single floats in −1…1, the libE57 normals
/// extension CloudCompare writes) when it has normals, one `cloudscrub:NAME` field per
/// attribute in its own type, and `cartesianInvalidState` (Integer 0–0, no bytes).
///
/// An integer attribute is an Integer whose bounds are its type's whole range (so
/// `uint8` takes 8 bits, `int32` 32, and a reader gets the type back from the bounds);
/// a `float32` attribute is a single-precision Float, a `float64` one a double.
struct E57PointFields {
  /// The namespace of the normals extension (libE57's, as CloudCompare declares it).
  static let normalsNamespace = "http://www.libe57.org/E57_NOR_surface_normals.txt"

  /// One byte stream of the records.
  enum Stream: Equatable {
    case coordinate(axis: Int)
    case color(channel: Int)
    case normal(axis: Int)
    case attribute(index: Int)
    case invalidState
  }

  let hasColor: Bool
  let hasNormals: Bool
  let attributes: [PointAttribute]
  let streams: [Stream]

  /// The fields of `cloud`: colours, normals and every attribute it has.
  ///
  /// - Throws: `FileError.cannotWrite` (naming `path`) for an attribute whose name is
  ///   no XML name, which an E57 field must be.
  init(_ cloud: PointCloud, path: String) throws {
    hasColor = cloud.colors != nil
    hasNormals = cloud.normals != nil
    attributes = cloud.attributes
    for attribute in attributes where !Self.isXMLName(attribute.name) {
      throw FileError(
        .cannotWrite(
          "attribute '\(attribute.name)' is not an XML name (letters, digits, _ - .), which an"
            + " E57 field needs"), path: path)
    }
    var streams: [Stream] = (0..<3).map { .coordinate(axis: $0) }
    if hasColor { streams += (0..<3).map { .color(channel: $0) } }
    if hasNormals { streams += (0..<3).map { .normal(axis: $0) } }
    streams += attributes.indices.map { .attribute(index: $0) }
    streams.append(.invalidState)
    self.streams = streams
  }

  /// Whether `name` can name an XML element: an ASCII letter or `_` first, then
  /// letters, digits, `_`, `-` and `.`.
  static func isXMLName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    guard let first = bytes.first else { return false }
    let isLetter = { (b: UInt8) in (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    guard isLetter(first) || first == 0x5F else { return false }
    return bytes.allSatisfy { b in
      isLetter(b) || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2D || b == 0x2E
    }
  }

  /// Bytes one record takes in `stream`.
  func bytes(of stream: Stream) -> Int {
    switch stream {
    case .coordinate, .normal: 4
    case .color: 1
    case .attribute(let index): attributes[index].values.scalarType.byteCount
    case .invalidState: 0
    }
  }

  /// Bytes one record takes in every stream together.
  var recordBytes: Int { streams.reduce(0) { $0 + bytes(of: $1) } }

  /// The prototype's children, one line each, indented by `indent`.
  func prototypeXML(indent: String) -> String {
    var x = ""
    for axis in ["X", "Y", "Z"] {
      x += indent + "<cartesian\(axis) type=\"Float\" precision=\"single\"/>\n"
    }
    if hasColor {
      for channel in ["Red", "Green", "Blue"] {
        x += indent + "<color\(channel) type=\"Integer\" minimum=\"0\" maximum=\"255\"/>\n"
      }
    }
    if hasNormals {
      for axis in ["X", "Y", "Z"] {
        x +=
          indent
          + "<nor:normal\(axis) type=\"Float\" precision=\"single\" minimum=\"-1\" maximum=\"1\"/>\n"
      }
    }
    for attribute in attributes {
      let name = "cloudscrub:" + attribute.name
      let type = attribute.values.scalarType
      switch type {
      case .float32: x += indent + "<\(name) type=\"Float\" precision=\"single\"/>\n"
      case .float64: x += indent + "<\(name) type=\"Float\"/>\n"
      default:
        let (minimum, maximum) = Self.integerRange(type)
        x +=
          indent + "<\(name) type=\"Integer\" minimum=\"\(minimum)\" maximum=\"\(maximum)\"/>\n"
      }
    }
    x += indent + "<cartesianInvalidState type=\"Integer\" minimum=\"0\" maximum=\"0\"/>\n"
    return x
  }

  /// An integer type's whole range, as the E57 bounds of its field.
  static func integerRange(_ type: ScalarType) -> (Int64, Int64) {
    switch type {
    case .int8: (Int64(Int8.min), Int64(Int8.max))
    case .uint8: (0, Int64(UInt8.max))
    case .int16: (Int64(Int16.min), Int64(Int16.max))
    case .uint16: (0, Int64(UInt16.max))
    case .int32: (Int64(Int32.min), Int64(Int32.max))
    case .uint32: (0, Int64(UInt32.max))
    case .float32, .float64: (0, 0)
    }
  }

  /// Stores `stream`'s values of records `first..<first + records` of `cloud` from
  /// `base` on, little-endian; an Integer as its value minus the field's minimum.
  func encode(
    _ stream: Stream, of cloud: PointCloud, first: Int, records: Int,
    to base: UnsafeMutableRawPointer
  ) {
    func column<T: FixedWidthInteger>(_ value: (Int) -> T) {
      var address = base
      for k in 0..<records {
        address.storeBytes(of: value(first + k).littleEndian, as: T.self)
        address += MemoryLayout<T>.size
      }
    }
    func component(_ p: Point3, _ axis: Int) -> Float { axis == 0 ? p.x : axis == 1 ? p.y : p.z }
    switch stream {
    case .coordinate(let axis):
      cloud.positions.withUnsafeBufferPointer { p in column { component(p[$0], axis).bitPattern } }
    case .color(let channel):
      cloud.colors?.withUnsafeBufferPointer { c in
        column { i -> UInt8 in channel == 0 ? c[i].r : channel == 1 ? c[i].g : c[i].b }
      }
    case .normal(let axis):
      // The prototype bounds normals to −1…1: rounding past them is clamped, a
      // non-finite component (a point without a normal) is stored as 0.
      cloud.normals?.withUnsafeBufferPointer { n in
        column { i -> UInt32 in
          let value = component(n[i], axis)
          return (value.isFinite ? Swift.min(1, Swift.max(-1, value)) : 0).bitPattern
        }
      }
    case .attribute(let index):
      switch attributes[index].values {
      case .int8(let v): column { UInt8(bitPattern: v[$0]) ^ 0x80 }
      case .uint8(let v): column { v[$0] }
      case .int16(let v): column { UInt16(bitPattern: v[$0]) ^ 0x8000 }
      case .uint16(let v): column { v[$0] }
      case .int32(let v): column { UInt32(bitPattern: v[$0]) ^ 0x8000_0000 }
      case .uint32(let v): column { v[$0] }
      case .float32(let v): column { v[$0].bitPattern }
      case .float64(let v): column { v[$0].bitPattern }
      }
    case .invalidState:
      break
    }
  }
}

extension AttributeValues {
  /// The CRC-32C of the values' bytes, for the writer's content-derived GUIDs.
  var crc32C: UInt32 {
    switch self {
    case .int8(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .uint8(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .int16(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .uint16(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .int32(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .uint32(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .float32(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    case .float64(let v): v.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
    }
  }
}
