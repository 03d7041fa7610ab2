/// The scalar types a per-point attribute (and a PLY property) can have.
public enum ScalarType: Sendable, CaseIterable, Hashable {
  case int8, uint8, int16, uint16, int32, uint32, float32, float64

  /// Size of one value in bytes.
  public var byteCount: Int {
    switch self {
    case .int8, .uint8: 1
    case .int16, .uint16: 2
    case .int32, .uint32, .float32: 4
    case .float64: 8
    }
  }

  public var isFloatingPoint: Bool { self == .float32 || self == .float64 }
}

/// A named per-point scalar, kept in the type its source declared.
public struct PointAttribute: Equatable, Sendable {
  public var name: String
  public var values: AttributeValues

  public init(name: String, values: AttributeValues) {
    self.name = name
    self.values = values
  }
}

/// One column of per-point values in its own scalar type, so that a round trip
/// through PLY keeps every bit.
public enum AttributeValues: Equatable, Sendable {
  case int8([Int8])
  case uint8([UInt8])
  case int16([Int16])
  case uint16([UInt16])
  case int32([Int32])
  case uint32([UInt32])
  case float32([Float])
  case float64([Double])

  public var scalarType: ScalarType {
    switch self {
    case .int8: .int8
    case .uint8: .uint8
    case .int16: .int16
    case .uint16: .uint16
    case .int32: .int32
    case .uint32: .uint32
    case .float32: .float32
    case .float64: .float64
    }
  }

  public var count: Int {
    switch self {
    case .int8(let v): v.count
    case .uint8(let v): v.count
    case .int16(let v): v.count
    case .uint16(let v): v.count
    case .int32(let v): v.count
    case .uint32(let v): v.count
    case .float32(let v): v.count
    case .float64(let v): v.count
    }
  }

  /// The value at `index` widened to `Double` (exact for every type).
  public func double(at index: Int) -> Double {
    switch self {
    case .int8(let v): Double(v[index])
    case .uint8(let v): Double(v[index])
    case .int16(let v): Double(v[index])
    case .uint16(let v): Double(v[index])
    case .int32(let v): Double(v[index])
    case .uint32(let v): Double(v[index])
    case .float32(let v): Double(v[index])
    case .float64(let v): v[index]
    }
  }
}
