import CloudScrubCore

/// Writes LAS 1.4 files with point data record format 7 (x y z, RGB), uncompressed.
///
/// Coordinates are 32-bit integers at a scale of 0.1 mm (0.0001 m) from an offset in
/// whole metres (the first point's coordinates rounded), so no point moves more than
/// 0.05 mm; a point farther than 214 km from the first cannot be written (an error
/// names it). Colours are scaled to 16 bits
/// (`c × 257`). Selected normals and attributes follow each record as extra bytes,
/// described in the `LASF_Spec` record 4 VLR; the provenance is a `CloudScrub` VLR
/// (record 1) of UTF-8 lines. A cloud's intensity attribute (`IntensityGreys.attribute`)
/// goes into the records' own intensity field, not the extra bytes: rounded and kept
/// within 0…65,535, and a float attribute whose first points all lie within 0…1 is
/// scaled to 16 bits, as the format asks. Every record has return 1 of 1, no
/// classification and GPS time 0; the creation date is left 0 so that equal inputs
/// give equal bytes.
public struct LASRecordEncoder: CloudRecordEncoder {
  /// The coordinate step, in metres.
  public static let scaleMeters = 0.0001
  static let headerSize = 375
  static let vlrHeaderSize = 54
  static let baseRecordSize = 36

  let colors: Bool
  let fields: CloudFieldSelection
  /// The attribute written as the records' intensity, and the factor its values are
  /// multiplied by; nil when the cloud has none.
  let intensity: (name: String, scale: Double)?
  private(set) var offsetMeters: SIMD3<Double>?
  private var low = SIMD3<Int32>(repeating: .max)
  private var high = SIMD3<Int32>(repeating: .min)
  private var encoded = 0

  public init(fields cloud: PointCloud, options: CloudWriteOptions) throws {
    colors = cloud.colors != nil
    var fields = try CloudFieldSelection(cloud, options.attributes)
    if let attribute = IntensityGreys.attribute(of: cloud) {
      intensity = (attribute.name, Self.intensityScale(of: attribute.values))
      fields.attributes.removeAll { $0.name == attribute.name }
    } else {
      intensity = nil
    }
    self.fields = fields
  }

  /// 65,535 for floats that all lie within 0…1 (of up to about 4,000 evenly spaced
  /// values), else 1.
  static func intensityScale(of values: AttributeValues) -> Double {
    guard values.scalarType == .float32 || values.scalarType == .float64, values.count > 0
    else { return 1 }
    let step = max(1, values.count / 4096)
    let unit = stride(from: 0, to: values.count, by: step).allSatisfy {
      let v = values.double(at: $0)
      return !v.isFinite || (0...1).contains(v)
    }
    return unit ? 65_535 : 1
  }

  /// Scans the whole cloud for the bounds the header states, as `encode` would find
  /// them, so that the header can be written before the records.
  public mutating func prepare(whole cloud: PointCloud) throws {
    guard let first = cloud.positions.first else { return }
    let offset = Self.offset(for: first)
    offsetMeters = offset
    // Storing is monotonic in each coordinate, so the stored bounds are those of the
    // smallest and largest coordinates; a non-finite one, or bounds that do not fit,
    // send the search to the points one by one, which names the first bad point.
    var lowest = SIMD3<Float>(first.x, first.y, first.z)
    var highest = lowest
    var finite = true
    cloud.positions.withUnsafeBufferPointer { positions in
      for p in positions {
        let v = SIMD3<Float>(p.x, p.y, p.z)
        finite = finite && p.x.isFinite && p.y.isFinite && p.z.isFinite
        lowest = pointwiseMin(lowest, v)
        highest = pointwiseMax(highest, v)
      }
    }
    let toPoint = { (v: SIMD3<Float>) in Point3(v.x, v.y, v.z) }
    if finite, let low = try? Self.stored(toPoint(lowest), offset: offset, point: 0),
      let high = try? Self.stored(toPoint(highest), offset: offset, point: 0)
    {
      self.low = low
      self.high = high
      return
    }
    for index in cloud.positions.indices {
      let stored = try Self.stored(cloud.positions[index], offset: offset, point: index)
      low = pointwiseMin(low, stored)
      high = pointwiseMax(high, stored)
    }
  }

  /// The offset of a file whose first point is `p`: its coordinates rounded to the
  /// metre (the same for a whole cloud and a stream, so both write the same bytes).
  static func offset(for p: Point3) -> SIMD3<Double> {
    SIMD3(Double(p.x).rounded(), Double(p.y).rounded(), Double(p.z).rounded())
  }

  /// `p` in 0.1 mm steps from `offset`.
  ///
  /// - Throws: `LASErrorReason.coordinateOutOfRange` for a coordinate that is not
  ///   finite or lies farther than 32 bits of steps from the offset.
  @inline(__always)
  static func stored(_ p: Point3, offset: SIMD3<Double>, point: Int) throws(LASErrorReason)
    -> SIMD3<Int32>
  {
    let steps = (SIMD3(Double(p.x), Double(p.y), Double(p.z)) - offset) / scaleMeters
    let rounded = steps.rounded(.toNearestOrAwayFromZero)
    let limit = SIMD3<Double>(repeating: Double(Int32.max))
    // NaN fails both comparisons, so it is refused with the out-of-range values.
    guard all(rounded .<= limit), all(rounded .>= -limit - 1) else {
      for axis in 0..<3 where !(abs(rounded[axis]) <= Double(Int32.max)) {
        throw .coordinateOutOfRange(
          point: point, axis: ["x", "y", "z"][axis], value: Double([p.x, p.y, p.z][axis]))
      }
      throw .coordinateOutOfRange(point: point, axis: "x", value: Double(p.x))
    }
    return SIMD3<Int32>(Int32(rounded.x), Int32(rounded.y), Int32(rounded.z))
  }

  /// Extra bytes a record carries.
  var extraSize: Int {
    (fields.normals ? 12 : 0) + fields.attributes.reduce(0) { $0 + $1.values.scalarType.byteCount }
  }

  /// The bytes of a record: the format's 36 and the extra bytes.
  var recordLength: Int { Self.baseRecordSize + extraSize }

  public mutating func encode(
    _ piece: PointCloud, _ range: Range<Int>, into buffer: inout [UInt8]
  ) throws {
    if offsetMeters == nil, let first = range.first {
      offsetMeters = Self.offset(for: piece.positions[first])
    }
    let offset = offsetMeters ?? .zero
    let attributes = fields.attributes.compactMap { piece.attribute(named: $0.name)?.values }
    let first = range.lowerBound
    let stride = recordLength
    var low = self.low
    var high = self.high
    let alreadyEncoded = encoded
    // Each field is stored as a column of the records; the zeroed bytes are already
    // intensity 0, classification 0, scan angle 0, source 0 and GPS time 0.
    try buffer.appendRecords(count: range.count, stride: stride) { records in
      try piece.positions.withUnsafeBufferPointer { positions in
        var address = records.base
        for k in 0..<records.count {
          let stored = try Self.stored(
            positions[first + k], offset: offset, point: alreadyEncoded + k)
          low = pointwiseMin(low, stored)
          high = pointwiseMax(high, stored)
          address.storeBytes(of: stored.x.littleEndian, as: Int32.self)
          address.storeBytes(of: stored.y.littleEndian, toByteOffset: 4, as: Int32.self)
          address.storeBytes(of: stored.z.littleEndian, toByteOffset: 8, as: Int32.self)
          address.storeBytes(of: 0x11, toByteOffset: 14, as: UInt8.self)  // return 1 of 1
          address += records.stride
        }
      }
      piece.colors?.withUnsafeBufferPointer { colors in
        var address = records.base + 30
        for k in 0..<records.count {
          let c = colors[first + k]
          address.storeBytes(of: (UInt16(c.r) * 257).littleEndian, as: UInt16.self)
          address.storeBytes(of: (UInt16(c.g) * 257).littleEndian, toByteOffset: 2, as: UInt16.self)
          address.storeBytes(of: (UInt16(c.b) * 257).littleEndian, toByteOffset: 4, as: UInt16.self)
          address += records.stride
        }
      }
      if let intensity, let values = piece.attribute(named: intensity.name)?.values {
        var address = records.base + 12
        for k in 0..<records.count {
          let v = (values.double(at: first + k) * intensity.scale).rounded()
          let stored = v.isFinite ? UInt16(min(65_535, max(0, v))) : 0
          address.storeBytes(of: stored.littleEndian, as: UInt16.self)
          address += records.stride
        }
      }
      let offset = Self.baseRecordSize
      records.normalsAndAttributes(
        of: piece, normals: fields.normals, attributes: attributes, from: first, at: offset)
    }
    self.low = low
    self.high = high
    encoded += range.count
  }

  public func header(count: Int, provenance: ExportProvenance) -> [UInt8] {
    let extraBytes = extraBytesVLR()
    let text = Array(provenance.lines.joined(separator: "\n").utf8.prefix(65_535))
    var vlrs: [UInt8] = []
    if !extraBytes.isEmpty {
      vlrs += Self.vlr(user: "LASF_Spec", record: 4, description: "extra bytes", extraBytes)
    }
    vlrs += Self.vlr(user: "CloudScrub", record: 1, description: "provenance", text)
    let vlrCount = extraBytes.isEmpty ? 1 : 2
    let offset = offsetMeters ?? .zero
    var h: [UInt8] = []
    h.appendText("LASF")
    h.appendLittleEndian(UInt16(0))  // file source ID
    h.appendLittleEndian(UInt16(16))  // global encoding: WKT, as formats 6-10 require
    h += [UInt8](repeating: 0, count: 16)  // project GUID
    h += [1, 4]
    h += Self.fixed("CloudScrub", 32)
    h += Self.fixed("CloudScrub export", 32)
    h.appendLittleEndian(UInt16(0))  // creation day of year
    h.appendLittleEndian(UInt16(0))  // creation year
    h.appendLittleEndian(UInt16(Self.headerSize))
    h.appendLittleEndian(UInt32(Self.headerSize + vlrs.count))
    h.appendLittleEndian(UInt32(vlrCount))
    h.append(7)
    h.appendLittleEndian(UInt16(recordLength))
    h.appendLittleEndian(UInt32(0))  // legacy point count: 0 for formats 6-10
    h += [UInt8](repeating: 0, count: 20)  // legacy points by return
    for _ in 0..<3 { h.appendLittleEndian(Self.scaleMeters) }
    for axis in 0..<3 { h.appendLittleEndian(offset[axis]) }
    for axis in 0..<3 {
      let empty = count == 0
      h.appendLittleEndian(empty ? 0 : offset[axis] + Double(high[axis]) * Self.scaleMeters)
      h.appendLittleEndian(empty ? 0 : offset[axis] + Double(low[axis]) * Self.scaleMeters)
    }
    h.appendLittleEndian(UInt64(0))  // waveform data
    h.appendLittleEndian(UInt64(0))  // first EVLR
    h.appendLittleEndian(UInt32(0))  // EVLR count
    h.appendLittleEndian(UInt64(count))
    h.appendLittleEndian(UInt64(count))  // points by return: all first returns
    h += [UInt8](repeating: 0, count: 14 * 8)
    assert(h.count == Self.headerSize)
    return h + vlrs
  }

  /// The `LASF_Spec` extra-bytes descriptors (192 bytes each) of the selected fields.
  private func extraBytesVLR() -> [UInt8] {
    var named: [(String, ScalarType)] = []
    if fields.normals { named += ["normal_x", "normal_y", "normal_z"].map { ($0, .float32) } }
    named += fields.attributes.map { ($0.name, $0.values.scalarType) }
    var bytes: [UInt8] = []
    for (name, type) in named {
      bytes += [0, 0, Self.extraBytesType(type), 0]
      bytes += Self.fixed(name, 32)
      bytes += [UInt8](repeating: 0, count: 4 + 24 * 5)
      bytes += Self.fixed("CloudScrub \(name)", 32)
    }
    return bytes
  }

  /// The extra-bytes data type of a scalar type (LAS 1.4 R15, table 24).
  static func extraBytesType(_ type: ScalarType) -> UInt8 {
    switch type {
    case .uint8: 1
    case .int8: 2
    case .uint16: 3
    case .int16: 4
    case .uint32: 5
    case .int32: 6
    case .float32: 9
    case .float64: 10
    }
  }

  static func vlr(user: String, record: UInt16, description: String, _ payload: [UInt8])
    -> [UInt8]
  {
    var bytes: [UInt8] = [0, 0]
    bytes += fixed(user, 16)
    bytes.appendLittleEndian(record)
    bytes.appendLittleEndian(UInt16(payload.count))
    bytes += fixed(description, 32)
    return bytes + payload
  }

  /// `text` as a NUL-padded field of `size` bytes (cut to fit).
  static func fixed(_ text: String, _ size: Int) -> [UInt8] {
    let bytes = Array(text.utf8.prefix(size))
    return bytes + [UInt8](repeating: 0, count: size - bytes.count)
  }
}

/// LAS in the registry of export formats.
public struct LASFormatWriter: CloudFormatWriter {
  public let name = "las"
  public let extensions = ["las"]
  public let hasTextForm = false

  public init() {}

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    do {
      try EncodedCloudFile.write(
        cloud, as: LASRecordEncoder.self, provenance: provenance, options: options, to: path,
        inputs: inputs, progress: progress)
    } catch let reason as LASErrorReason {
      throw LASError(reason, path: path)
    }
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    LASStreamWriter(
      try SpooledCloudStreamWriter<LASRecordEncoder>(
        path: path, fields: fields, options: options, inputs: inputs), path: path)
  }
}

/// The spooled LAS (or LAZ, or COPC) writer, whose encoder errors name the target.
final class LASStreamWriter: CloudStreamWriter {
  private let writer: SpooledCloudStreamWriter<LASRecordEncoder>
  private let path: String

  init(_ writer: SpooledCloudStreamWriter<LASRecordEncoder>, path: String) {
    self.writer = writer
    self.path = path
  }

  /// A streamed export whose records go through the transform `make` makes for their
  /// length on their way to the spool (LAZ's compression, COPC's octree).
  convenience init(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String],
    transform make: (Int) -> any SpoolTransform
  ) throws {
    let recordLength = try LASRecordEncoder(fields: fields, options: options).recordLength
    self.init(
      try SpooledCloudStreamWriter<LASRecordEncoder>(
        path: path, fields: fields, options: options, inputs: inputs,
        transform: make(recordLength)), path: path)
  }

  var count: Int { writer.count }
  func append(_ piece: PointCloud) throws {
    do { try writer.append(piece) } catch let reason as LASErrorReason {
      throw LASError(reason, path: path)
    }
  }
  func finish(provenance: ExportProvenance, progress: ProgressHandler?) throws {
    try writer.finish(provenance: provenance, progress: progress)
  }
  func abandon() { writer.abandon() }
}
