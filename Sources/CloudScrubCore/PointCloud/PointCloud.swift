/// A position or direction in 3D, packed as three `Float`s (12 bytes, no padding).
///
/// `SIMD3<Float>` would take 16 bytes a point; a cloud of tens of millions of points
/// keeps positions in this packed form so that they can be copied to and from PLY
/// bodies and GPU buffers in bulk.
public struct Point3: Equatable, Hashable, Sendable {
  public var x: Float
  public var y: Float
  public var z: Float

  public init(_ x: Float, _ y: Float, _ z: Float) {
    self.x = x
    self.y = y
    self.z = z
  }

  public static let zero = Point3(0, 0, 0)
}

/// An 8-bit-per-channel colour (3 bytes, no padding).
public struct RGB8: Equatable, Hashable, Sendable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8

  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }
}

/// An axis-aligned box; `nil` bounds mean an empty cloud.
public struct Bounds3: Equatable, Sendable {
  public var min: Point3
  public var max: Point3

  public init(min: Point3, max: Point3) {
    self.min = min
    self.max = max
  }
}

/// A set of points with optional per-point colours, normals and named scalar attributes.
///
/// Storage is one array per field (positions 12 bytes a point, colours 3 bytes), so a
/// coloured cloud costs 15 bytes a point. Every optional array, when present, has
/// exactly `count` elements.
public struct PointCloud: Equatable, Sendable {
  public var positions: [Point3]
  public var colors: [RGB8]?
  public var normals: [Point3]?
  /// Other per-point scalars kept by name, in the order the source declared them.
  public var attributes: [PointAttribute]

  public init(
    positions: [Point3] = [], colors: [RGB8]? = nil, normals: [Point3]? = nil,
    attributes: [PointAttribute] = []
  ) {
    self.positions = positions
    self.colors = colors
    self.normals = normals
    self.attributes = attributes
  }

  public var count: Int { positions.count }
  public var isEmpty: Bool { positions.isEmpty }

  /// The attribute with this name, if the cloud carries one.
  public func attribute(named name: String) -> PointAttribute? {
    attributes.first { $0.name == name }
  }

  /// Bytes of point data held in memory (the arrays' element storage).
  public var storageByteCount: Int {
    positions.count * MemoryLayout<Point3>.stride
      + (colors?.count ?? 0) * MemoryLayout<RGB8>.stride
      + (normals?.count ?? 0) * MemoryLayout<Point3>.stride
      + attributes.reduce(0) { $0 + $1.values.count * $1.values.scalarType.byteCount }
  }

  /// The smallest box holding every finite position, or `nil` when there is none.
  public var bounds: Bounds3? {
    var lo = Point3(.infinity, .infinity, .infinity)
    var hi = Point3(-.infinity, -.infinity, -.infinity)
    var any = false
    for p in positions where p.x.isFinite && p.y.isFinite && p.z.isFinite {
      any = true
      lo = Point3(Swift.min(lo.x, p.x), Swift.min(lo.y, p.y), Swift.min(lo.z, p.z))
      hi = Point3(Swift.max(hi.x, p.x), Swift.max(hi.y, p.y), Swift.max(hi.z, p.z))
    }
    return any ? Bounds3(min: lo, max: hi) : nil
  }

  /// Checks the invariant that every per-point array has `count` elements.
  public var isConsistent: Bool {
    (colors.map { $0.count == count } ?? true)
      && (normals.map { $0.count == count } ?? true)
      && attributes.allSatisfy { $0.values.count == count }
  }
}
