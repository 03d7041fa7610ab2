import CloudScrubCore

/// A PLY scalar type as a Swift type: loads itself from unaligned bytes in either byte
/// order and widens to `Double` (exactly, for every PLY type).
protocol PLYScalar: Sendable {
  static func load(from pointer: UnsafeRawPointer, swapped: Bool) -> Self
  func store(to pointer: UnsafeMutableRawPointer, swapped: Bool)
  var doubleValue: Double { get }
  var floatValue: Float { get }
}

extension PLYScalar where Self: FixedWidthInteger {
  @inline(__always)
  static func load(from pointer: UnsafeRawPointer, swapped: Bool) -> Self {
    let raw = pointer.loadUnaligned(as: Self.self)
    return swapped ? raw.byteSwapped : raw
  }

  @inline(__always)
  func store(to pointer: UnsafeMutableRawPointer, swapped: Bool) {
    pointer.storeBytes(of: swapped ? byteSwapped : self, as: Self.self)
  }
}

extension Int8: PLYScalar {
  var doubleValue: Double { Double(self) }
  var floatValue: Float { Float(self) }
}
extension UInt8: PLYScalar {
  var doubleValue: Double { Double(self) }
  var floatValue: Float { Float(self) }
}
extension Int16: PLYScalar {
  var doubleValue: Double { Double(self) }
  var floatValue: Float { Float(self) }
}
extension UInt16: PLYScalar {
  var doubleValue: Double { Double(self) }
  var floatValue: Float { Float(self) }
}
extension Int32: PLYScalar {
  var doubleValue: Double { Double(self) }
  var floatValue: Float { Float(self) }
}
extension UInt32: PLYScalar {
  var doubleValue: Double { Double(self) }
  var floatValue: Float { Float(self) }
}

extension Float: PLYScalar {
  @inline(__always)
  static func load(from pointer: UnsafeRawPointer, swapped: Bool) -> Float {
    let raw = pointer.loadUnaligned(as: UInt32.self)
    return Float(bitPattern: swapped ? raw.byteSwapped : raw)
  }
  @inline(__always)
  func store(to pointer: UnsafeMutableRawPointer, swapped: Bool) {
    pointer.storeBytes(of: swapped ? bitPattern.byteSwapped : bitPattern, as: UInt32.self)
  }
  var doubleValue: Double { Double(self) }
  var floatValue: Float { self }
}

extension Double: PLYScalar {
  @inline(__always)
  static func load(from pointer: UnsafeRawPointer, swapped: Bool) -> Double {
    let raw = pointer.loadUnaligned(as: UInt64.self)
    return Double(bitPattern: swapped ? raw.byteSwapped : raw)
  }
  @inline(__always)
  func store(to pointer: UnsafeMutableRawPointer, swapped: Bool) {
    pointer.storeBytes(of: swapped ? bitPattern.byteSwapped : bitPattern, as: UInt64.self)
  }
  var doubleValue: Double { self }
  var floatValue: Float { Float(self) }
}

extension ScalarType {
  /// Reads one value of this type at `pointer`, widened to `Double`.
  @inline(__always)
  func loadDouble(from pointer: UnsafeRawPointer, swapped: Bool) -> Double {
    switch self {
    case .int8: Int8.load(from: pointer, swapped: swapped).doubleValue
    case .uint8: UInt8.load(from: pointer, swapped: swapped).doubleValue
    case .int16: Int16.load(from: pointer, swapped: swapped).doubleValue
    case .uint16: UInt16.load(from: pointer, swapped: swapped).doubleValue
    case .int32: Int32.load(from: pointer, swapped: swapped).doubleValue
    case .uint32: UInt32.load(from: pointer, swapped: swapped).doubleValue
    case .float32: Float.load(from: pointer, swapped: swapped).doubleValue
    case .float64: Double.load(from: pointer, swapped: swapped)
    }
  }
}
