import Foundation

/// Reads PCD files (v0.5–v0.7): ASCII, binary, and `binary_compressed` when given an
/// LZF decompressor (CloudScrubFormats passes liblzf's).
///
/// `x y z` become positions (any numeric type), `rgb`/`rgba` colours (PCL's packed
/// float or integer), `normal_x normal_y normal_z` normals, `_` padding is skipped, and
/// every other field becomes an attribute in its own type (64-bit integers as double;
/// a field of count n as `name_0` … `name_{n-1}`). Invalid points (NaN coordinates, as
/// in organised clouds) are kept as they are.
public enum PCDReader {
  /// Decompresses LZF: the compressed bytes and the exact size they expand to; nil
  /// when the data is not valid LZF or expands to another size.
  public typealias LZFDecompressor = @Sendable (UnsafeRawBufferPointer, Int) -> [UInt8]?

  /// A PCD file read: its header and its points.
  public struct Document: Sendable {
    public var header: PCDHeader
    public var cloud: PointCloud
  }

  /// Reads the PCD file at `path` through a memory map.
  ///
  /// - Throws: `PCDError` naming what is wrong and where, with the path; `FileError`
  ///   when the file cannot be opened.
  public static func read(path: String, lzf: LZFDecompressor? = nil) throws -> Document {
    let file = try MappedFile(path: path)
    do {
      return try read(bytes: file.bytes, lzf: lzf)
    } catch {
      throw PCDError(error, path: path)
    }
  }

  /// Reads a whole PCD file held in memory.
  ///
  /// - Throws: `PCDErrorReason` naming what is wrong and where.
  public static func read(
    bytes: UnsafeRawBufferPointer, lzf: LZFDecompressor? = nil
  ) throws(PCDErrorReason) -> Document {
    let header = try PCDHeader.parse(bytes)
    let body = UnsafeRawBufferPointer(rebasing: bytes[header.dataOffset...])
    let recordSize = header.recordSize
    let (expected, overflow) = header.points.multipliedReportingOverflow(by: recordSize)
    guard !overflow else {
      throw .truncated(points: header.points, expectedBytes: Int.max, availableBytes: body.count)
    }
    let cloud: PointCloud
    switch header.data {
    case .binary:
      guard expected <= body.count else {
        throw .truncated(
          points: header.points, expectedBytes: expected, availableBytes: body.count)
      }
      cloud = PCDColumn.cloud(
        PCDColumn.interleaved(header.fields), records: body, points: header.points)
    case .ascii:
      let records = try PCDASCIIData.records(body, header: header)
      cloud = records.withUnsafeBytes { records in
        PCDColumn.cloud(
          PCDColumn.interleaved(header.fields), records: records, points: header.points)
      }
    case .binaryCompressed:
      let records = try decompress(body, header: header, expected: expected, lzf: lzf)
      cloud = records.withUnsafeBytes { records in
        PCDColumn.cloud(
          PCDColumn.planar(header.fields, points: header.points), records: records,
          points: header.points)
      }
    }
    return Document(header: header, cloud: cloud)
  }

  /// The records of `binary_compressed` data: two little-endian `UInt32` sizes, then
  /// LZF bytes expanding to the fields one after another (all x, then all y, …).
  static func decompress(
    _ body: UnsafeRawBufferPointer, header: PCDHeader, expected: Int, lzf: LZFDecompressor?
  ) throws(PCDErrorReason) -> [UInt8] {
    guard body.count >= 8 else {
      throw .truncated(points: header.points, expectedBytes: 8, availableBytes: body.count)
    }
    let compressed = Int(body.littleEndian(at: 0, as: UInt32.self))
    let uncompressed = Int(body.littleEndian(at: 4, as: UInt32.self))
    // LZF expands at most about 100-fold; a claim past that is no LZF stream.
    guard uncompressed == expected, compressed <= body.count - 8,
      uncompressed <= compressed * 100 + 1024
    else {
      throw .compressedSizes(
        compressedBytes: compressed, uncompressedBytes: uncompressed, expectedBytes: expected)
    }
    guard expected > 0 else { return [] }
    guard let lzf else { throw .compressedNeedsLZF }
    guard
      let bytes = lzf(UnsafeRawBufferPointer(rebasing: body[8..<(8 + compressed)]), expected),
      bytes.count == expected
    else { throw .decompressionFailed(compressedBytes: compressed) }
    return bytes
  }
}

/// One scalar of a PCD record: where its value for point `i` lies.
struct PCDColumn {
  var name: String
  var fieldName: String
  var type: String
  var size: Int
  var offset: Int
  var stride: Int

  /// Columns of records laid out point after point (ASCII and binary).
  static func interleaved(_ fields: [PCDHeader.Field]) -> [PCDColumn] {
    let recordSize = fields.reduce(0) { $0 + $1.size * $1.count }
    var columns: [PCDColumn] = []
    var offset = 0
    for field in fields {
      for index in 0..<field.count {
        columns.append(
          PCDColumn(
            name: field.count == 1 ? field.name : "\(field.name)_\(index)",
            fieldName: field.name, type: field.type, size: field.size, offset: offset,
            stride: recordSize))
        offset += field.size
      }
    }
    return columns
  }

  /// Columns of `binary_compressed` data: each field's values for every point in turn.
  static func planar(_ fields: [PCDHeader.Field], points: Int) -> [PCDColumn] {
    var columns: [PCDColumn] = []
    var start = 0
    for field in fields {
      for index in 0..<field.count {
        columns.append(
          PCDColumn(
            name: field.count == 1 ? field.name : "\(field.name)_\(index)",
            fieldName: field.name, type: field.type, size: field.size,
            offset: start + index * field.size, stride: field.size * field.count))
      }
      start += field.size * field.count * points
    }
    return columns
  }

  var scalarType: ScalarType {
    switch (type, size) {
    case ("I", 1): .int8
    case ("I", 2): .int16
    case ("I", 4): .int32
    case ("U", 1): .uint8
    case ("U", 2): .uint16
    case ("U", 4): .uint32
    case ("F", 4): .float32
    default: .float64  // F8, and 64-bit integers widened
    }
  }

  func double(_ records: UnsafeRawBufferPointer, _ point: Int) -> Double {
    let at = offset + point * stride
    switch (type, size) {
    case ("F", 4): return Double(Float(bitPattern: records.littleEndian(at: at, as: UInt32.self)))
    case ("F", _): return Double(bitPattern: records.littleEndian(at: at, as: UInt64.self))
    case ("I", 1): return Double(Int8(bitPattern: records[at]))
    case ("I", 2): return Double(records.littleEndian(at: at, as: Int16.self))
    case ("I", 4): return Double(records.littleEndian(at: at, as: Int32.self))
    case ("I", _): return Double(records.littleEndian(at: at, as: Int64.self))
    case (_, 1): return Double(records[at])
    case (_, 2): return Double(records.littleEndian(at: at, as: UInt16.self))
    case (_, 4): return Double(records.littleEndian(at: at, as: UInt32.self))
    default: return Double(records.littleEndian(at: at, as: UInt64.self))
    }
  }

  func values<T: FixedWidthInteger>(_ records: UnsafeRawBufferPointer, _ points: Int, _: T.Type)
    -> [T]
  {
    (0..<points).map { records.littleEndian(at: offset + $0 * stride, as: T.self) }
  }

  func floats(_ records: UnsafeRawBufferPointer, _ points: Int) -> [Float] {
    if type == "F" && size == 4 {
      return values(records, points, UInt32.self).map(Float.init(bitPattern:))
    }
    return (0..<points).map { Float(double(records, $0)) }
  }

  func attribute(_ records: UnsafeRawBufferPointer, _ points: Int) -> AttributeValues {
    switch scalarType {
    case .int8: .int8(values(records, points, Int8.self))
    case .int16: .int16(values(records, points, Int16.self))
    case .int32: .int32(values(records, points, Int32.self))
    case .uint8: .uint8(values(records, points, UInt8.self))
    case .uint16: .uint16(values(records, points, UInt16.self))
    case .uint32: .uint32(values(records, points, UInt32.self))
    case .float32: .float32(floats(records, points))
    case .float64: .float64((0..<points).map { double(records, $0) })
    }
  }

  /// The cloud the columns hold, `records` having been checked to hold every point.
  static func cloud(_ columns: [PCDColumn], records: UnsafeRawBufferPointer, points: Int)
    -> PointCloud
  {
    func column(_ name: String) -> PCDColumn? { columns.first { $0.name == name } }
    var cloud = PointCloud()
    if let x = column("x"), let y = column("y"), let z = column("z") {
      let xs = x.floats(records, points)
      let ys = y.floats(records, points)
      let zs = z.floats(records, points)
      cloud.positions = (0..<points).map { Point3(xs[$0], ys[$0], zs[$0]) }
    }
    let color = (column("rgb") ?? column("rgba")).flatMap { $0.size == 4 ? $0 : nil }
    if let color {
      cloud.colors = color.values(records, points, UInt32.self).map { packed in
        RGB8(
          UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8),
          UInt8(truncatingIfNeeded: packed))
      }
    }
    let normalNames = ["normal_x", "normal_y", "normal_z"]
    let normals = normalNames.compactMap(column)
    if normals.count == 3 {
      let n = normals.map { $0.floats(records, points) }
      cloud.normals = (0..<points).map { Point3(n[0][$0], n[1][$0], n[2][$0]) }
    }
    let taken = Set(
      ["x", "y", "z"] + (color.map { [$0.name] } ?? []) + (normals.count == 3 ? normalNames : []))
    var names = Set<String>()
    for column in columns
    where column.fieldName != "_" && !taken.contains(column.name)
      && names.insert(column.name).inserted
    {
      cloud.attributes.append(
        PointAttribute(name: column.name, values: column.attribute(records, points)))
    }
    return cloud
  }
}
