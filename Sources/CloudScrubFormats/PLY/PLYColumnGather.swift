import CloudScrubCore

/// Builds a point cloud from binary vertex records, one field at a time.
///
/// Each field is written straight into its array's uninitialised storage. Positions
/// stored as three consecutive native-order floats, and colours as three consecutive
/// bytes, are copied; every other layout converts value by value with the conversion
/// chosen once per field.
struct PLYColumnGather<Source: PLYColumnSource> {
  let source: Source
  let element: PLYElement
  let layout: PLYVertexLayout
  let swapped: Bool
  let progress: ProgressHandler?

  private var count: Int { element.count }

  func cloud() -> PointCloud {
    let fieldCount =
      1 + (layout.color == nil ? 0 : 1) + (layout.normal == nil ? 0 : 1)
      + layout.attributes.count
    var done = 0
    func step() {
      done += 1
      progress?(Double(done) / Double(fieldCount))
    }
    var cloud = PointCloud()
    cloud.positions = points(layout.position)
    step()
    if let color = layout.color {
      cloud.colors = colors(color)
      step()
    }
    if let normal = layout.normal {
      cloud.normals = points(normal.map { $0 })
      step()
    }
    for property in layout.attributes {
      cloud.attributes.append(attribute(property))
      step()
    }
    return cloud
  }

  static func emptyCloud(element: PLYElement, layout: PLYVertexLayout) -> PointCloud {
    PointCloud(
      positions: [], colors: layout.color.map { _ in [] },
      normals: layout.normal.map { _ in [] },
      attributes: layout.attributes.map { index in
        let property = element.properties[index]
        guard case .scalar(let type) = property.kind else { preconditionFailure("list attribute") }
        return PointAttribute(
          name: PLYVertexLayout.attributeName(for: property.name), values: emptyValues(type))
      })
  }

  // MARK: - Fields

  private func points(_ properties: [Int?]) -> [Point3] {
    [Point3](unsafeUninitializedCapacity: count) { buffer, initialized in
      let out = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
      adviseHugePages(out, byteCount: count * 12)
      let present = properties.compactMap { $0 }
      if present.count < 3 || !copyPackedFloats(present, into: out) {
        for (component, property) in properties.enumerated() {
          if let property {
            gatherFloats(property, into: out + component * 4)
          } else {
            for index in 0..<count {
              out.storeBytes(of: 0, toByteOffset: index * 12 + component * 4, as: Float.self)
            }
          }
        }
      }
      initialized = count
    }
  }

  /// Copies three consecutive native-order floats per record, if that is the layout.
  private func copyPackedFloats(_ properties: [Int], into out: UnsafeMutableRawPointer) -> Bool {
    guard !swapped,
      properties.allSatisfy({ scalarType(of: $0) == .float32 }),
      let first = source.fixedOffset(of: properties[0]),
      source.fixedOffset(of: properties[1]) == first + 4,
      source.fixedOffset(of: properties[2]) == first + 8
    else { return false }
    let column = source.column(properties[0])
    nonisolated(unsafe) let out = out
    Parallel.forEachRange(count) { range in
      for index in range {
        let from = column.address(index)
        let to = out + index * 12
        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        to.storeBytes(
          of: from.loadUnaligned(fromByteOffset: 8, as: UInt32.self), toByteOffset: 8,
          as: UInt32.self)
      }
    }
    return true
  }

  private func gatherFloats(_ property: Int, into out: UnsafeMutableRawPointer) {
    func run<T: PLYScalar>(_: T.Type) {
      let column = source.column(property)
      for index in 0..<count {
        let value = T.load(from: column.address(index), swapped: swapped).floatValue
        out.storeBytes(of: value, toByteOffset: index * 12, as: Float.self)
      }
    }
    switch scalarType(of: property) {
    case .int8: run(Int8.self)
    case .uint8: run(UInt8.self)
    case .int16: run(Int16.self)
    case .uint16: run(UInt16.self)
    case .int32: run(Int32.self)
    case .uint32: run(UInt32.self)
    case .float32: run(Float.self)
    case .float64: run(Double.self)
    }
  }

  private func colors(_ properties: [Int]) -> [RGB8] {
    [RGB8](unsafeUninitializedCapacity: count) { buffer, initialized in
      let out = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
      adviseHugePages(out, byteCount: count * 3)
      let types = properties.map(scalarType(of:))
      if types.allSatisfy({ $0 == .uint8 }), let first = source.fixedOffset(of: properties[0]),
        source.fixedOffset(of: properties[1]) == first + 1,
        source.fixedOffset(of: properties[2]) == first + 2
      {
        let column = source.column(properties[0])
        nonisolated(unsafe) let out = out
        Parallel.forEachRange(count) { range in
          for index in range {
            let from = column.address(index)
            let to = out + index * 3
            to.storeBytes(of: from.loadUnaligned(as: UInt16.self), as: UInt16.self)
            to.storeBytes(
              of: from.load(fromByteOffset: 2, as: UInt8.self), toByteOffset: 2, as: UInt8.self)
          }
        }
      } else {
        for (channel, property) in properties.enumerated() {
          let column = source.column(property)
          let type = types[channel]
          for index in 0..<count {
            let value = type.loadDouble(from: column.address(index), swapped: swapped)
            out.storeBytes(
              of: colorByte(fromDouble: value, type: type), toByteOffset: index * 3 + channel,
              as: UInt8.self)
          }
        }
      }
      initialized = count
    }
  }

  private func attribute(_ property: Int) -> PointAttribute {
    let name = PLYVertexLayout.attributeName(for: element.properties[property].name)
    let column = source.column(property)
    func run<T: PLYScalar>(_: T.Type) -> [T] {
      [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        for index in 0..<count {
          buffer[index] = T.load(from: column.address(index), swapped: swapped)
        }
        initialized = count
      }
    }
    let values: AttributeValues
    switch scalarType(of: property) {
    case .int8: values = .int8(run(Int8.self))
    case .uint8: values = .uint8(run(UInt8.self))
    case .int16: values = .int16(run(Int16.self))
    case .uint16: values = .uint16(run(UInt16.self))
    case .int32: values = .int32(run(Int32.self))
    case .uint32: values = .uint32(run(UInt32.self))
    case .float32: values = .float32(run(Float.self))
    case .float64: values = .float64(run(Double.self))
    }
    return PointAttribute(name: name, values: values)
  }

  // MARK: - Helpers

  private func scalarType(of property: Int) -> ScalarType {
    guard case .scalar(let type) = element.properties[property].kind else {
      preconditionFailure("the vertex layout only selects scalar properties")
    }
    return type
  }
}

func emptyValues(_ type: ScalarType) -> AttributeValues {
  switch type {
  case .int8: .int8([])
  case .uint8: .uint8([])
  case .int16: .int16([])
  case .uint16: .uint16([])
  case .int32: .int32([])
  case .uint32: .uint32([])
  case .float32: .float32([])
  case .float64: .float64([])
  }
}
