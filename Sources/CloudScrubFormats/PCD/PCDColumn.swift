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

  /// The column's values in its own type (`T`), converted by `convert`.
  private func values<T: FixedWidthInteger & SendableMetatype, V>(
    _ base: UnsafeRawPointer, _ points: Int, _: T.Type, _ convert: @escaping @Sendable (T) -> V
  ) -> [V] {
    [V](unsafeUninitializedCapacity: points) { buffer, initialized in
      nonisolated(unsafe) let out = buffer.baseAddress.unsafelyUnwrapped
      nonisolated(unsafe) let base = base
      let (offset, stride) = (offset, stride)
      Parallel.forEachRange(points) { range in
        for i in range {
          let bits = T(
            littleEndian: base.loadUnaligned(fromByteOffset: offset + i * stride, as: T.self))
          (out + i).initialize(to: convert(bits))
        }
      }
      initialized = points
    }
  }

  private func attribute(_ base: UnsafeRawPointer, _ points: Int) -> AttributeValues {
    switch (type, size) {
    case ("I", 1): .int8(values(base, points, Int8.self) { $0 })
    case ("I", 2): .int16(values(base, points, Int16.self) { $0 })
    case ("I", 4): .int32(values(base, points, Int32.self) { $0 })
    case ("I", _): .float64(values(base, points, Int64.self) { Double($0) })
    case ("U", 1): .uint8(values(base, points, UInt8.self) { $0 })
    case ("U", 2): .uint16(values(base, points, UInt16.self) { $0 })
    case ("U", 4): .uint32(values(base, points, UInt32.self) { $0 })
    case ("U", _): .float64(values(base, points, UInt64.self) { Double($0) })
    case ("F", 4): .float32(values(base, points, UInt32.self) { Float(bitPattern: $0) })
    default: .float64(values(base, points, UInt64.self) { Double(bitPattern: $0) })
    }
  }

  /// Three columns as points (positions, normals): copied when they are three
  /// consecutive `F 4` values, converted otherwise.
  private static func points(_ xyz: [PCDColumn], _ base: UnsafeRawPointer, _ points: Int)
    -> [Point3]
  {
    [Point3](unsafeUninitializedCapacity: points) { buffer, initialized in
      nonisolated(unsafe) let out = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
      nonisolated(unsafe) let base = base
      adviseHugePages(out, byteCount: points * 12)
      let packed =
        xyz.allSatisfy { $0.type == "F" && $0.size == 4 && $0.stride == xyz[0].stride }
        && xyz[1].offset == xyz[0].offset + 4 && xyz[2].offset == xyz[0].offset + 8
      let (offset, stride) = (xyz[0].offset, xyz[0].stride)
      Parallel.forEachRange(points) { range in
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

  /// The cloud the columns hold, `records` having been checked to hold every point.
  static func cloud(_ columns: [PCDColumn], records: UnsafeRawBufferPointer, points: Int)
    -> PointCloud
  {
    func column(_ name: String) -> PCDColumn? { columns.first { $0.name == name } }
    var cloud = PointCloud()
    guard points > 0, let base = records.baseAddress else {
      return emptyCloud(columns)
    }
    if let x = column("x"), let y = column("y"), let z = column("z") {
      cloud.positions = Self.points([x, y, z], base, points)
    }
    let color = (column("rgb") ?? column("rgba")).flatMap { $0.size == 4 ? $0 : nil }
    if let color {
      cloud.colors = color.values(base, points, UInt32.self) { packed in
        RGB8(
          UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8),
          UInt8(truncatingIfNeeded: packed))
      }
    }
    let normalNames = ["normal_x", "normal_y", "normal_z"]
    let normals = normalNames.compactMap(column)
    if normals.count == 3 {
      cloud.normals = Self.points(normals, base, points)
    }
    for (name, column) in attributeColumns(columns, color: color, normals: normals.count == 3) {
      cloud.attributes.append(PointAttribute(name: name, values: column.attribute(base, points)))
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
