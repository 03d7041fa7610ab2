import Foundation

/// A ray as six plain numbers: origin + t · direction.
///
/// The ray caster runs for every pixel of every frame, in tests too, which are built
/// without optimisation; there generic `SIMD3` arithmetic costs a hundred times what
/// plain `Double`s do, so the hot paths use these.
struct Ray: Sendable {
  var ox, oy, oz: Double
  var dx, dy, dz: Double

  init(origin: SIMD3<Double>, direction: SIMD3<Double>) {
    (ox, oy, oz) = (origin.x, origin.y, origin.z)
    (dx, dy, dz) = (direction.x, direction.y, direction.z)
  }

  init(ox: Double, oy: Double, oz: Double, dx: Double, dy: Double, dz: Double) {
    (self.ox, self.oy, self.oz, self.dx, self.dy, self.dz) = (ox, oy, oz, dx, dy, dz)
  }

  /// The origin's and the direction's coordinate `axis` (0 x, 1 y, 2 z).
  @inline(__always) func origin(_ axis: Int) -> Double { axis == 0 ? ox : axis == 1 ? oy : oz }
  @inline(__always) func direction(_ axis: Int) -> Double { axis == 0 ? dx : axis == 1 ? dy : dz }

  /// The point at parameter t.
  func point(_ t: Double) -> SIMD3<Double> { SIMD3(ox + t * dx, oy + t * dy, oz + t * dz) }
}

/// A rectangle in a plane of constant x, y or z: the room's planes and the box's faces.
struct AxisRectangle: Equatable, Sendable {
  /// Hits closer than this along a ray are the ray's own start point, not a surface.
  static let minimumParameter = 1e-9

  let surface: SyntheticScene.Surface
  /// 0, 1 or 2: the coordinate that is constant on the plane.
  let axis: Int
  let value: Double
  /// +1 or −1: which way along `axis` the surface faces.
  let normalSign: Double
  /// The in-plane coordinate that runs along the texture's columns, and its extent.
  let uAxis: Int
  let uLow: Double
  let uHigh: Double
  /// The in-plane coordinate that runs along the texture's rows, and its extent.
  let vAxis: Int
  let vLow: Double
  let vHigh: Double
  /// Texture cell size in metres along u and v.
  let cellU: Double
  let cellV: Double

  init(
    _ surface: SyntheticScene.Surface, axis: Int, at value: Double, normalSign: Double,
    u: (Int, ClosedRange<Double>), v: (Int, ClosedRange<Double>), cell: (Double, Double)
  ) {
    self.surface = surface
    self.axis = axis
    self.value = value
    self.normalSign = normalSign
    uAxis = u.0
    (uLow, uHigh) = (u.1.lowerBound, u.1.upperBound)
    vAxis = v.0
    (vLow, vHigh) = (v.1.lowerBound, v.1.upperBound)
    (cellU, cellV) = cell
  }

  var normal: SIMD3<Double> {
    var normal = SIMD3<Double>.zero
    normal[axis] = normalSign
    return normal
  }

  /// The ray parameter of the hit, from either side; infinity where there is none.
  @inline(__always) func intersect(_ ray: Ray) -> Double {
    let speed = ray.direction(axis)
    guard speed != 0 else { return .infinity }
    let t = (value - ray.origin(axis)) / speed
    guard t > Self.minimumParameter else { return .infinity }
    let u = ray.origin(uAxis) + t * ray.direction(uAxis)
    let v = ray.origin(vAxis) + t * ray.direction(vAxis)
    return u >= uLow && u <= uHigh && v >= vLow && v <= vHigh ? t : .infinity
  }

  func distance(to point: SIMD3<Double>) -> Double {
    let (u, v) = (point[uAxis], point[vAxis])
    let du = u - min(max(u, uLow), uHigh)
    let dv = v - min(max(v, vLow), vHigh)
    let dn = point[axis] - value
    return (du * du + dv * dv + dn * dn).squareRoot()
  }
}
