import CloudScrubCore

/// Writes PCD v0.7 files (the Point Cloud Library's format, which Open3D reads too):
/// `x y z` as float, `rgb` as PCL's packed float (the bits of `0x00RRGGBB`), then
/// `normal_x normal_y normal_z` and the attributes in their own types when selected;
/// binary (the default, little-endian) or ASCII. The provenance goes in `#` comment
/// lines after the first. The cloud is unorganised: `WIDTH` is the point count,
/// `HEIGHT` 1, the viewpoint the identity.
public struct PCDRecordEncoder: CloudRecordEncoder {
  let ascii: Bool
  let colors: Bool
  let fields: CloudFieldSelection

  public init(fields cloud: PointCloud, options: CloudWriteOptions) throws {
    ascii = options.ascii
    colors = cloud.colors != nil
    fields = try CloudFieldSelection(cloud, options.attributes)
  }

  /// The PCD type letter and size of an attribute's scalar type.
  static func pcdType(_ type: ScalarType) -> (letter: String, size: Int) {
    switch type {
    case .int8, .int16, .int32: ("I", type.byteCount)
    case .uint8, .uint16, .uint32: ("U", type.byteCount)
    case .float32, .float64: ("F", type.byteCount)
    }
  }

  public func header(count: Int, provenance: ExportProvenance) -> [UInt8] {
    var names = ["x", "y", "z"]
    var types = ["F", "F", "F"]
    var sizes = [4, 4, 4]
    if colors {
      names.append("rgb")
      // PCL writes ASCII rgb as the packed integer; an integer type says so.
      types.append(ascii ? "U" : "F")
      sizes.append(4)
    }
    if fields.normals {
      names += ["normal_x", "normal_y", "normal_z"]
      types += ["F", "F", "F"]
      sizes += [4, 4, 4]
    }
    for attribute in fields.attributes {
      let (letter, size) = Self.pcdType(attribute.values.scalarType)
      names.append(attribute.name.replacingSpaces())
      types.append(letter)
      sizes.append(size)
    }
    var lines = ["# .PCD v0.7 - Point Cloud Data file format"]
    lines += provenance.lines.map { "# " + $0 }
    lines += [
      "VERSION 0.7",
      "FIELDS " + names.joined(separator: " "),
      "SIZE " + sizes.map(String.init).joined(separator: " "),
      "TYPE " + types.joined(separator: " "),
      "COUNT " + names.map { _ in "1" }.joined(separator: " "),
      "WIDTH \(count)",
      "HEIGHT 1",
      "VIEWPOINT 0 0 0 1 0 0 0",
      "POINTS \(count)",
      "DATA " + (ascii ? "ascii" : "binary"),
    ]
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  /// PCL's packed colour: `0x00RRGGBB`.
  @inline(__always)
  static func packed(_ c: RGB8) -> UInt32 {
    UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
  }

  public mutating func encode(
    _ piece: PointCloud, _ range: Range<Int>, into buffer: inout [UInt8]
  ) throws {
    if ascii { return encodeASCII(piece, range, into: &buffer) }
    let attributes = fields.attributes.compactMap { piece.attribute(named: $0.name)?.values }
    let first = range.lowerBound
    // x y z, rgb, normals, attributes: each stored as a column of the records.
    let stride =
      12 + (colors ? 4 : 0) + (fields.normals ? 12 : 0)
      + attributes.reduce(0) { $0 + $1.scalarType.byteCount }
    buffer.appendRecords(count: range.count, stride: stride) { records in
      piece.positions.withUnsafeBufferPointer { records.points($0, from: first, at: 0) }
      var offset = 12
      if colors {
        piece.colors?.withUnsafeBufferPointer { colors in
          records.column(at: offset) { Self.packed(colors[first + $0]) }
        }
        offset += 4
      }
      records.normalsAndAttributes(
        of: piece, normals: fields.normals, attributes: attributes, from: first, at: offset)
    }
  }

  private func encodeASCII(_ piece: PointCloud, _ range: Range<Int>, into buffer: inout [UInt8]) {
    let attributes = fields.attributes.compactMap { piece.attribute(named: $0.name)?.values }
    TextRecordLines(
      separator: UInt8(ascii: " "), color: colors ? .packed : .none, normals: fields.normals
    )
    .append(piece, range, attributes: attributes, to: &buffer)
  }
}

/// PCD in the registry of export formats.
public struct PCDFormatWriter: CloudFormatWriter {
  public let name = "pcd"
  public let extensions = ["pcd"]
  public let hasTextForm = true

  public init() {}

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    try EncodedCloudFile.write(
      cloud, as: PCDRecordEncoder.self, provenance: provenance, options: options, to: path,
      inputs: inputs, progress: progress)
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    try SpooledCloudStreamWriter<PCDRecordEncoder>(
      path: path, fields: fields, options: options, inputs: inputs)
  }
}

extension String {
  func replacingSpaces() -> String {
    String(map { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" ? "_" : $0 })
  }
}

extension AttributeValues {
  /// Appends the value at `index` in its own type, little-endian.
  @inline(__always)
  func appendLittleEndian(at index: Int, to buffer: inout [UInt8]) {
    switch self {
    case .int8(let v): buffer.appendLittleEndian(v[index])
    case .uint8(let v): buffer.appendLittleEndian(v[index])
    case .int16(let v): buffer.appendLittleEndian(v[index])
    case .uint16(let v): buffer.appendLittleEndian(v[index])
    case .int32(let v): buffer.appendLittleEndian(v[index])
    case .uint32(let v): buffer.appendLittleEndian(v[index])
    case .float32(let v): buffer.appendLittleEndian(v[index])
    case .float64(let v): buffer.appendLittleEndian(v[index])
    }
  }
}
