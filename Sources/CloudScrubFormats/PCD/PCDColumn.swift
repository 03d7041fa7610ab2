import CloudScrubCore

/// One scalar of a PCD record: where its value for point `i` lies, and how to turn the
/// columns of a whole body into a cloud.
///
/// Each field is converted in one loop over the points with its conversion chosen once,
/// written straight into its array's storage, on every core; positions and normals
/// stored as three consecutive floats are copied 12 bytes at a time.
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

  // MARK: - Column loops

  /// Stores point `i`'s value as a `Float` (through `Double` for every type but `F 4`,
  /// so 64-bit values round once to double and then to float) at `out + i * outStride`
  /// for every `i` in `range`.
  @inline(__always)
  private func storeFloats(
    _ base: UnsafeRawPointer, _ range: Range<Int>, into out: UnsafeMutableRawPointer,
    outStride: Int
  ) {
    @inline(__always)
    func run<T: FixedWidthInteger>(_: T.Type, _ convert: (T) -> Float) {
      for i in range {
        let bits = T(
          littleEndian: base.loadUnaligned(fromByteOffset: offset + i * stride, as: T.self))
        out.storeBytes(of: convert(bits), toByteOffset: i * outStride, as: Float.self)
      }
    }
    switch (type, size) {
    case ("F", 4): run(UInt32.self) { Float(bitPattern: $0) }
    case ("F", _): run(UInt64.self) { Float(Double(bitPattern: $0)) }
    case ("I", 1): run(Int8.self) { Float(Double($0)) }
    case ("I", 2): run(Int16.self) { Float(Double($0)) }
    case ("I", 4): run(Int32.self) { Float(Double($0)) }
    case ("I", _): run(Int64.self) { Float(Double($0)) }
    case (_, 1): run(UInt8.self) { Float(Double($0)) }
    case (_, 2): run(UInt16.self) { Float(Double($0)) }
    case (_, 4): run(UInt32.self) { Float(Double($0)) }
    default: run(UInt64.self) { Float(Double($0)) }
    }
  }

  /// The column's values in its own type (`T`), converted by `convert`, telling
  /// `progress` the fraction done.
  private func values<T: FixedWidthInteger & SendableMetatype, V>(
    _ base: UnsafeRawPointer, _ points: Int, _: T.Type, progress: ProgressHandler? = nil,
    _ convert: @escaping @Sendable (T) -> V
  ) -> [V] {
    [V](unsafeUninitializedCapacity: points) { buffer, initialized in
      nonisolated(unsafe) let out = buffer.baseAddress.unsafelyUnwrapped
      nonisolated(unsafe) let base = base
      let (offset, stride) = (offset, stride)
      Parallel.forEachRange(points, slabs: Self.progressSlabs, progress: progress) { range in
        for i in range {
          let bits = T(
            littleEndian: base.loadUnaligned(fromByteOffset: offset + i * stride, as: T.self))
          (out + i).initialize(to: convert(bits))
        }
      }
      initialized = points
    }
  }

  private func attribute(_ base: UnsafeRawPointer, _ points: Int, progress: ProgressHandler?)
    -> AttributeValues
  {
    let p = progress
    return switch (type, size) {
    case ("I", 1): .int8(values(base, points, Int8.self, progress: p) { $0 })
    case ("I", 2): .int16(values(base, points, Int16.self, progress: p) { $0 })
    case ("I", 4): .int32(values(base, points, Int32.self, progress: p) { $0 })
    case ("I", _): .float64(values(base, points, Int64.self, progress: p) { Double($0) })
    case ("U", 1): .uint8(values(base, points, UInt8.self, progress: p) { $0 })
    case ("U", 2): .uint16(values(base, points, UInt16.self, progress: p) { $0 })
    case ("U", 4): .uint32(values(base, points, UInt32.self, progress: p) { $0 })
    case ("U", _): .float64(values(base, points, UInt64.self, progress: p) { Double($0) })
    case ("F", 4):
      .float32(values(base, points, UInt32.self, progress: p) { Float(bitPattern: $0) })
    default: .float64(values(base, points, UInt64.self, progress: p) { Double(bitPattern: $0) })
    }
  }

  /// Three columns as points (positions, normals): copied when they are three
  /// consecutive `F 4` values, converted otherwise.
  private static func points(
    _ xyz: [PCDColumn], _ base: UnsafeRawPointer, _ points: Int, progress: ProgressHandler?
  ) -> [Point3] {
    [Point3](unsafeUninitializedCapacity: points) { buffer, initialized in
      nonisolated(unsafe) let out = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
      nonisolated(unsafe) let base = base
      adviseHugePages(out, byteCount: points * 12)
      let packed =
        xyz.allSatisfy { $0.type == "F" && $0.size == 4 && $0.stride == xyz[0].stride }
        && xyz[1].offset == xyz[0].offset + 4 && xyz[2].offset == xyz[0].offset + 8
      let (offset, stride) = (xyz[0].offset, xyz[0].stride)
      Parallel.forEachRange(points, slabs: progressSlabs, progress: progress) { range in
        if packed {
          for i in range {
            let from = base + offset + i * stride
            let to = out + i * 12
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(
              of: from.loadUnaligned(fromByteOffset: 8, as: UInt32.self), toByteOffset: 8,
              as: UInt32.self)
          }
        } else {
          for (component, column) in xyz.enumerated() {
            column.storeFloats(base, range, into: out + component * 4, outStride: 12)
          }
        }
      }
      initialized = points
    }
  }

  // MARK: - The cloud

  /// The slabs a column is gathered in when progress is reported.
  static let progressSlabs = 16

  /// The cloud the columns hold, `records` having been checked to hold every point,
  /// telling `progress` the share of the columns gathered.
  static func cloud(
    _ columns: [PCDColumn], records: UnsafeRawBufferPointer, points: Int,
    progress: ProgressHandler? = nil
  ) -> PointCloud {
    func column(_ name: String) -> PCDColumn? { columns.first { $0.name == name } }
    var cloud = PointCloud()
    guard points > 0, let base = records.baseAddress else {
      progress?(1)
      return emptyCloud(columns)
    }
    // Each gathered column is an equal part of the progress.
    let color = (column("rgb") ?? column("rgba")).flatMap { $0.size == 4 ? $0 : nil }
    let normalNames = ["normal_x", "normal_y", "normal_z"]
    let normals = normalNames.compactMap(column)
    let xyz = ["x", "y", "z"].compactMap(column)
    let attributes = attributeColumns(columns, color: color, normals: normals.count == 3)
    let parts = Double(
      (xyz.count == 3 ? 3 : 0) + (color == nil ? 0 : 1) + (normals.count == 3 ? 3 : 0)
        + attributes.count)
    var gathered = 0.0
    func part(_ columns: Int) -> ProgressHandler? {
      defer { gathered += Double(columns) }
      return ProgressParts.part(
        progress, from: gathered / parts, to: (gathered + Double(columns)) / parts)
    }
    if xyz.count == 3 {
      cloud.positions = Self.points(xyz, base, points, progress: part(3))
    }
    if let color {
      cloud.colors = color.values(base, points, UInt32.self, progress: part(1)) { packed in
        RGB8(
          UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8),
          UInt8(truncatingIfNeeded: packed))
      }
    }
    if normals.count == 3 {
      cloud.normals = Self.points(normals, base, points, progress: part(3))
    }
    for (name, column) in attributes {
      cloud.attributes.append(
        PointAttribute(name: name, values: column.attribute(base, points, progress: part(1))))
    }
    return cloud
  }

  /// A cloud of no points with the fields the columns would give.
  private static func emptyCloud(_ columns: [PCDColumn]) -> PointCloud {
    func column(_ name: String) -> PCDColumn? { columns.first { $0.name == name } }
    var cloud = PointCloud()
    let color = (column("rgb") ?? column("rgba")).flatMap { $0.size == 4 ? $0 : nil }
    if color != nil { cloud.colors = [] }
    let normals = ["normal_x", "normal_y", "normal_z"].compactMap(column).count == 3
    if normals { cloud.normals = [] }
    for (name, column) in attributeColumns(columns, color: color, normals: normals) {
      cloud.attributes.append(
        PointAttribute(name: name, values: emptyValues(column.scalarType)))
    }
    return cloud
  }

  /// The columns that become attributes, by name, first of each name.
  private static func attributeColumns(
    _ columns: [PCDColumn], color: PCDColumn?, normals: Bool
  ) -> [(String, PCDColumn)] {
    let normalNames = ["normal_x", "normal_y", "normal_z"]
    let taken = Set(
      ["x", "y", "z"] + (color.map { [$0.name] } ?? []) + (normals ? normalNames : []))
    var names = Set<String>()
    return columns.compactMap { column in
      guard column.fieldName != "_", !taken.contains(column.name),
        names.insert(column.name).inserted
      else { return nil }
      return (column.name, column)
    }
  }
}
