import CloudScrubCore

/// Builders of clouds for tests.
public enum Clouds {
  /// A cloud of `count` random points with colours, normals and one attribute of every
  /// scalar type, each value drawn over its type's whole range (floats from random bit
  /// patterns: subnormals, huge and tiny exponents, ±0; never NaN or infinity).
  public static func random(count: Int, seed: UInt64) -> PointCloud {
    var random = SplitMix64(seed: seed)
    func float() -> Float {
      while true {
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
        if value.isFinite { return value }
      }
    }
    func double() -> Double {
      while true {
        let value = Double(bitPattern: random.next())
        if value.isFinite { return value }
      }
    }
    func point() -> Point3 { Point3(float(), float(), float()) }
    func bits<T: FixedWidthInteger>(_: T.Type) -> T { T(truncatingIfNeeded: random.next()) }
    let indices = 0..<count
    return PointCloud(
      positions: indices.map { _ in point() },
      colors: indices.map { _ in RGB8(bits(UInt8.self), bits(UInt8.self), bits(UInt8.self)) },
      normals: indices.map { _ in point() },
      attributes: [
        PointAttribute(name: "a_char", values: .int8(indices.map { _ in bits(Int8.self) })),
        PointAttribute(name: "confidence", values: .uint8(indices.map { _ in bits(UInt8.self) })),
        PointAttribute(name: "a_short", values: .int16(indices.map { _ in bits(Int16.self) })),
        PointAttribute(name: "a_ushort", values: .uint16(indices.map { _ in bits(UInt16.self) })),
        PointAttribute(name: "a_int", values: .int32(indices.map { _ in bits(Int32.self) })),
        PointAttribute(name: "frame", values: .uint32(indices.map { _ in bits(UInt32.self) })),
        PointAttribute(name: "intensity", values: .float32(indices.map { _ in float() })),
        PointAttribute(name: "scalar_range", values: .float64(indices.map { _ in double() })),
      ])
  }

  /// PLY text with `\n` line ends, as bytes.
  public static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

extension PointCloud {
  /// Whether two clouds hold the same bits in every field (NaN-safe, −0 ≠ +0).
  public func isBitwiseEqual(to other: PointCloud) -> Bool {
    func same(_ a: [Point3]?, _ b: [Point3]?) -> Bool {
      guard let a, let b else { return a == nil && b == nil }
      return a.count == b.count
        && zip(a, b).allSatisfy {
          $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern
            && $0.z.bitPattern == $1.z.bitPattern
        }
    }
    func sameValues(_ a: AttributeValues, _ b: AttributeValues) -> Bool {
      switch (a, b) {
      case (.float32(let x), .float32(let y)): x.map(\.bitPattern) == y.map(\.bitPattern)
      case (.float64(let x), .float64(let y)): x.map(\.bitPattern) == y.map(\.bitPattern)
      default: a == b
      }
    }
    return same(positions, other.positions) && colors == other.colors
      && same(normals, other.normals) && attributes.count == other.attributes.count
      && zip(attributes, other.attributes).allSatisfy {
        $0.name == $1.name && sameValues($0.values, $1.values)
      }
  }
}
