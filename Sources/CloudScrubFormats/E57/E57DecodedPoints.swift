import CloudScrubCore

/// The points the reader has decoded so far, over every scan: positions, and the
/// optional fields the merged cloud will have (each scan appends to every array, so
/// they stay as long as `positions`).
struct E57DecodedPoints {
  var positions: [Point3] = []
  /// Present when any scan has colours (grey for the points of a scan without).
  var colors: [RGB8]?
  /// Present when every scan has intensity.
  var intensity: [Float]?
  /// Present when every scan has normals (`nor:normalX/Y/Z`), in world coordinates.
  var normals: [Point3]?
  /// The `cloudscrub:NAME` fields every scan has with the same type.
  var attributes: [E57AttributeColumn] = []

  /// The merged cloud.
  var cloud: PointCloud {
    var cloud = PointCloud(positions: positions, colors: colors, normals: normals)
    if let intensity {
      cloud.attributes.append(PointAttribute(name: "intensity", values: .float32(intensity)))
    }
    cloud.attributes += attributes.map { PointAttribute(name: $0.name, values: $0.values) }
    return cloud
  }

  mutating func reserve(_ more: Int) {
    let total = positions.count + more
    positions.reserveCapacity(total)
    colors?.reserveCapacity(total)
    intensity?.reserveCapacity(total)
    normals?.reserveCapacity(total)
    for index in attributes.indices { attributes[index].reserve(total) }
  }
}

/// One attribute field (`cloudscrub:NAME`) as it is decoded, in the scalar type its
/// E57 encoding names: an Integer whose bounds are a type's whole range (or lie inside
/// it) is that type, the smallest that holds them; a single Float is `float32`; a
/// double Float, a ScaledInteger or wider integers are `float64`.
struct E57AttributeColumn {
  /// The attribute's name, without the `cloudscrub:` prefix.
  let name: String
  let type: ScalarType
  private var int8: [Int8] = []
  private var uint8: [UInt8] = []
  private var int16: [Int16] = []
  private var uint16: [UInt16] = []
  private var int32: [Int32] = []
  private var uint32: [UInt32] = []
  private var float32: [Float] = []
  private var float64: [Double] = []

  init(name: String, type: ScalarType) {
    self.name = name
    self.type = type
  }

  /// The scalar type a field with `encoding` reads into.
  static func scalarType(of encoding: E57FieldEncoding) -> ScalarType {
    switch encoding {
    case .float(let single): return single ? .float32 : .float64
    case .scaledInteger: return .float64
    case .integer(let minimum, let maximum):
      let candidates: [ScalarType] =
        minimum >= 0 ? [.uint8, .uint16, .uint32] : [.int8, .int16, .int32]
      for type in candidates {
        let (low, high) = E57PointFields.integerRange(type)
        if minimum >= low && maximum <= high { return type }
      }
      return .float64
    }
  }

  mutating func reserve(_ total: Int) {
    switch type {
    case .int8: int8.reserveCapacity(total)
    case .uint8: uint8.reserveCapacity(total)
    case .int16: int16.reserveCapacity(total)
    case .uint16: uint16.reserveCapacity(total)
    case .int32: int32.reserveCapacity(total)
    case .uint32: uint32.reserveCapacity(total)
    case .float32: float32.reserveCapacity(total)
    case .float64: float64.reserveCapacity(total)
    }
  }

  /// Appends a decoded value (exact in `Double` for every type; an integer type's
  /// values lie in its range, as the field's bounds are checked to be).
  @inline(__always)
  mutating func append(_ value: Double) {
    switch type {
    case .int8: int8.append(Int8(clamping: Int64(value)))
    case .uint8: uint8.append(UInt8(clamping: Int64(value)))
    case .int16: int16.append(Int16(clamping: Int64(value)))
    case .uint16: uint16.append(UInt16(clamping: Int64(value)))
    case .int32: int32.append(Int32(clamping: Int64(value)))
    case .uint32: uint32.append(UInt32(clamping: Int64(value)))
    case .float32: float32.append(Float(value))
    case .float64: float64.append(value)
    }
  }

  var values: AttributeValues {
    switch type {
    case .int8: .int8(int8)
    case .uint8: .uint8(uint8)
    case .int16: .int16(int16)
    case .uint16: .uint16(uint16)
    case .int32: .int32(int32)
    case .uint32: .uint32(uint32)
    case .float32: .float32(float32)
    case .float64: .float64(float64)
    }
  }
}
