import Foundation

/// An analytic room with a box and a sphere, for rendering synthetic captures whose
/// every point is known exactly.
///
/// Metres, world y up. With the defaults (`SyntheticScene.standard`):
///
/// - floor: y = 0, x and z in −2…2;
/// - back wall: z = −2; left wall: x = −2; right wall: x = +2; each 2.5 m high over
///   the floor's extent. There is no ceiling and no front wall: a ray that leaves
///   through z = +2 or above y = 2.5 hits nothing;
/// - a box standing on the floor: x in −1.3…−0.5, y in 0…0.7, z in −1.2…−0.4
///   (its bottom face lies on the floor and is not a surface of its own);
/// - a sphere of radius 0.6 centred at (0.3, 0.6, −0.5), resting on the floor (the
///   sphere of `SyntheticCloud`).
///
/// Every surface carries a texture of flat-coloured cells whose colour encodes the
/// cell's indices, so a colour names a cell of one surface (see `color(at:on:)`). The
/// room's planes and the box's faces are one-sided in meaning (their normals face the
/// room's inside and the box's outside) but intersected from either side.
public struct SyntheticScene: Equatable, Sendable {
  /// A surface of the scene, named by where it is.
  public enum Surface: String, CaseIterable, Sendable {
    case floor
    /// z = −halfWidth.
    case backWall
    /// x = −halfWidth.
    case leftWall
    /// x = +halfWidth.
    case rightWall
    /// The box's face at its largest y.
    case boxTop
    /// The box's face at its largest z (towards the open front of the room).
    case boxFront
    /// The box's face at its smallest z.
    case boxBack
    /// The box's face at its smallest x.
    case boxLeft
    /// The box's face at its largest x.
    case boxRight
    case sphere

    /// The surface's position in `allCases`, without building that array.
    var index: Int {
      switch self {
      case .floor: 0
      case .backWall: 1
      case .leftWall: 2
      case .rightWall: 3
      case .boxTop: 4
      case .boxFront: 5
      case .boxBack: 6
      case .boxLeft: 7
      case .boxRight: 8
      case .sphere: 9
      }
    }
  }

  /// Where a ray first meets the scene.
  public struct Hit: Equatable, Sendable {
    /// Metres along the ray from its origin.
    public var distance: Double
    public var point: SIMD3<Double>
    /// Unit normal of the surface, facing the room's inside or the object's outside.
    public var normal: SIMD3<Double>
    public var surface: Surface
    /// The surface's texture colour at `point`.
    public var color: RGB8
  }

  public let roomHalfWidth: Double
  public let wallHeight: Double
  public let boxMin: SIMD3<Double>
  public let boxMax: SIMD3<Double>
  public let sphereCenter: SIMD3<Double>
  public let sphereRadius: Double
  /// Every planar surface, as an axis-aligned rectangle, in `Surface`'s order: the
  /// room's first, then the box's.
  let rectangles: [AxisRectangle]
  static let roomRectangleCount = 4
  let boxCenter: SIMD3<Double>
  /// The radius of the sphere through the box's corners.
  let boxBoundingRadius: Double

  /// A scene with the given room and objects; the defaults are `standard`'s.
  ///
  /// The box and sphere should lie inside the room and apart from each other.
  public init(
    roomHalfWidth: Double = 2, wallHeight: Double = 2.5,
    boxMin: SIMD3<Double> = SIMD3(-1.3, 0, -1.2), boxMax: SIMD3<Double> = SIMD3(-0.5, 0.7, -0.4),
    sphereCenter: SIMD3<Double> = SIMD3(0.3, 0.6, -0.5), sphereRadius: Double = 0.6
  ) {
    precondition(roomHalfWidth > 0 && wallHeight > 0 && sphereRadius > 0, "positive sizes")
    precondition(boxMin.x < boxMax.x && boxMin.y < boxMax.y && boxMin.z < boxMax.z, "box min < max")
    self.roomHalfWidth = roomHalfWidth
    self.wallHeight = wallHeight
    self.boxMin = boxMin
    self.boxMax = boxMax
    self.sphereCenter = sphereCenter
    self.sphereRadius = sphereRadius
    boxCenter = (boxMin + boxMax) / 2
    let halfDiagonal = (boxMax - boxMin) / 2
    boxBoundingRadius = (halfDiagonal * halfDiagonal).sum().squareRoot() * (1 + 1e-9)
    let w = roomHalfWidth
    let h = wallHeight
    let room = -w...w
    let height = 0...h
    rectangles = [
      AxisRectangle(
        .floor, axis: 1, at: 0, normalSign: 1, u: (0, room), v: (2, room), cell: (0.25, 0.25)),
      AxisRectangle(
        .backWall, axis: 2, at: -w, normalSign: 1, u: (0, room), v: (1, height), cell: (0.5, 0.25)),
      AxisRectangle(
        .leftWall, axis: 0, at: -w, normalSign: 1, u: (2, room), v: (1, height), cell: (0.5, 0.25)),
      AxisRectangle(
        .rightWall, axis: 0, at: w, normalSign: -1, u: (2, room), v: (1, height), cell: (0.5, 0.25)),
      AxisRectangle(
        .boxTop, axis: 1, at: boxMax.y, normalSign: 1, u: (0, boxMin.x...boxMax.x),
        v: (2, boxMin.z...boxMax.z), cell: (0.1, 0.1)),
      AxisRectangle(
        .boxFront, axis: 2, at: boxMax.z, normalSign: 1, u: (0, boxMin.x...boxMax.x),
        v: (1, boxMin.y...boxMax.y), cell: (0.1, 0.1)),
      AxisRectangle(
        .boxBack, axis: 2, at: boxMin.z, normalSign: -1, u: (0, boxMin.x...boxMax.x),
        v: (1, boxMin.y...boxMax.y), cell: (0.1, 0.1)),
      AxisRectangle(
        .boxLeft, axis: 0, at: boxMin.x, normalSign: -1, u: (2, boxMin.z...boxMax.z),
        v: (1, boxMin.y...boxMax.y), cell: (0.1, 0.1)),
      AxisRectangle(
        .boxRight, axis: 0, at: boxMax.x, normalSign: 1, u: (2, boxMin.z...boxMax.z),
        v: (1, boxMin.y...boxMax.y), cell: (0.1, 0.1)),
    ]
  }

  /// The room, box and sphere described above.
  public static let standard = SyntheticScene()

  // MARK: - Ray casting

  /// The first surface a ray meets, or `nil` when it leaves the room without a hit.
  ///
  /// `direction` need not be of unit length; `Hit.distance` is in metres all the same.
  public func intersect(rayOrigin: SIMD3<Double>, direction: SIMD3<Double>) -> Hit? {
    let length = (direction * direction).sum().squareRoot()
    guard length > 0 else { return nil }
    let ray = Ray(origin: rayOrigin, direction: direction / length)
    guard let (t, surface) = firstHit(ray) else { return nil }
    let point = ray.point(t)
    return Hit(
      distance: t, point: point, normal: normal(at: point, on: surface), surface: surface,
      color: color(at: point, on: surface))
  }

  /// The parameter and surface of the ray's first hit at t > 0, in units of the
  /// direction's length.
  func firstHit(_ ray: Ray) -> (Double, Surface)? {
    var best = Double.infinity
    var bestSurface = Surface.floor
    // Most rays pass the box by: a test against a sphere around it spares them five
    // divisions.
    let nearBox = Self.mayHit(ray, center: boxCenter, radius: boxBoundingRadius)
    let count = nearBox ? rectangles.count : Self.roomRectangleCount
    for index in 0..<count {
      let t = rectangles[index].intersect(ray)
      if t < best {
        best = t
        bestSurface = rectangles[index].surface
      }
    }
    let t = Self.nearestRoot(ray, center: sphereCenter, radius: sphereRadius)
    if t < best {
      best = t
      bestSurface = .sphere
    }
    return best.isFinite ? (best, bestSurface) : nil
  }

  /// Whether the ray comes within `radius` of `center` at some t ≥ 0 (without the
  /// square root and divisions that finding where would take).
  private static func mayHit(_ ray: Ray, center: SIMD3<Double>, radius: Double) -> Bool {
    let (x, y, z) = (ray.ox - center.x, ray.oy - center.y, ray.oz - center.z)
    let halfB = x * ray.dx + y * ray.dy + z * ray.dz
    let c = x * x + y * y + z * z - radius * radius
    // Starting inside, or heading towards the centre and passing close enough.
    if c <= 0 { return true }
    let a = ray.dx * ray.dx + ray.dy * ray.dy + ray.dz * ray.dz
    return halfB < 0 && halfB * halfB >= a * c
  }

  /// The nearest t > 0 with |origin + t · direction − center| = radius; infinity where
  /// there is none.
  private static func nearestRoot(_ ray: Ray, center: SIMD3<Double>, radius: Double) -> Double {
    let (x, y, z) = (ray.ox - center.x, ray.oy - center.y, ray.oz - center.z)
    let a = ray.dx * ray.dx + ray.dy * ray.dy + ray.dz * ray.dz
    let halfB = x * ray.dx + y * ray.dy + z * ray.dz
    let c = x * x + y * y + z * z - radius * radius
    let discriminant = halfB * halfB - a * c
    guard discriminant >= 0 else { return .infinity }
    let root = discriminant.squareRoot()
    // The smaller root is the entry point; the larger one matters only from inside.
    let near = (-halfB - root) / a
    if near > AxisRectangle.minimumParameter { return near }
    let far = (-halfB + root) / a
    return far > AxisRectangle.minimumParameter ? far : .infinity
  }

  /// |cos| of the angle between a ray and the normal of `surface` where the ray meets
  /// it at parameter t.
  func incidenceCosine(_ ray: Ray, t: Double, on surface: Surface) -> Double {
    let length = (ray.dx * ray.dx + ray.dy * ray.dy + ray.dz * ray.dz).squareRoot()
    guard surface == .sphere else {
      return abs(ray.direction(rectangles[surface.index].axis)) / length
    }
    let x = ray.ox + t * ray.dx - sphereCenter.x
    let y = ray.oy + t * ray.dy - sphereCenter.y
    let z = ray.oz + t * ray.dz - sphereCenter.z
    return abs(x * ray.dx + y * ray.dy + z * ray.dz) / (sphereRadius * length)
  }

  /// The surface's unit normal at a point on it.
  public func normal(at point: SIMD3<Double>, on surface: Surface) -> SIMD3<Double> {
    if surface == .sphere {
      let offset = point - sphereCenter
      return offset / (offset * offset).sum().squareRoot()
    }
    return rectangle(for: surface).normal
  }

  // MARK: - Membership

  /// The surface `point` lies on, within `tolerance` metres; the nearest one where
  /// several are that close (at edges and corners), `nil` where none is.
  public func surface(containing point: SIMD3<Double>, tolerance: Double = 1e-4) -> Surface? {
    let (distance, surface) = nearestSurface(to: point)
    return distance <= tolerance ? surface : nil
  }

  /// Metres from `point` to the closest point of any surface.
  public func distanceToNearestSurface(_ point: SIMD3<Double>) -> Double {
    nearestSurface(to: point).0
  }

  private func nearestSurface(to point: SIMD3<Double>) -> (Double, Surface) {
    let (x, y, z) = (point.x - sphereCenter.x, point.y - sphereCenter.y, point.z - sphereCenter.z)
    var best = abs((x * x + y * y + z * z).squareRoot() - sphereRadius)
    var bestSurface = Surface.sphere
    for rectangle in rectangles {
      let distance = rectangle.distance(to: point)
      if distance < best {
        best = distance
        bestSurface = rectangle.surface
      }
    }
    return (best, bestSurface)
  }

  /// The rectangle of a planar surface (`rectangles` is in `Surface`'s order).
  func rectangle(for surface: Surface) -> AxisRectangle {
    precondition(surface != .sphere, "the sphere is not a planar surface")
    return rectangles[surface.index]
  }
}
