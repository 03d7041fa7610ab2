import Foundation

/// A camera that orbits a pivot point: the viewer's free camera.
///
/// All mutations take numbers (pixels, steps, NDC), never input events, so that they
/// can be tested without a window. The eye sits at `distanceMeters` from `pivot` in the
/// direction given by the azimuth and elevation about the world's up axis (see
/// `WorldUp`); the camera always looks at the pivot with the world up axis up, so
/// there is no roll.
public struct OrbitCamera: Equatable, Sendable {
  /// Elevation stays this far short of straight up or down, where the view's up
  /// direction would be undefined.
  public static let elevationLimitRadians: Float = .pi / 2 - 0.01
  /// The closest the eye may come to the pivot.
  public static let minimumDistanceMeters: Float = 1e-4
  /// The farthest the eye may go, so that far planes stay finite in `Float`.
  public static let maximumDistanceMeters: Float = 1e7
  /// The scale factor on the distance for one zoom step.
  public static let zoomFactorPerStep: Float = 0.85

  /// The point the camera looks at and orbits about, in world coordinates.
  public var pivot: SIMD3<Float>
  /// The angle about the up axis, in radians (see `WorldUp.offsetDirection`).
  public var azimuthRadians: Float
  /// The angle above the horizontal plane, in radians; clamped to
  /// ±`elevationLimitRadians`.
  public var elevationRadians: Float {
    didSet { elevationRadians = Self.clampElevation(elevationRadians) }
  }
  /// Distance from the eye to the pivot; clamped to the minimum and maximum distance.
  public var distanceMeters: Float {
    didSet { distanceMeters = Self.clampDistance(distanceMeters) }
  }
  /// The full vertical angle of view, in radians.
  public var verticalFieldOfViewRadians: Float
  /// The world's up axis.
  public var up: WorldUp
  /// Radius of the scene's bounding sphere, set by `fit`; widens the far plane so
  /// that the whole scene stays visible when zoomed in close.
  public var sceneRadiusMeters: Float

  /// The default three-quarter view (azimuth 45°, elevation 30°) of the origin from
  /// three metres.
  public init(
    pivot: SIMD3<Float> = .zero, azimuthRadians: Float = .pi / 4, elevationRadians: Float = .pi / 6,
    distanceMeters: Float = 3, verticalFieldOfViewRadians: Float = 50 * .pi / 180,
    up: WorldUp = .y, sceneRadiusMeters: Float = 0
  ) {
    self.pivot = pivot
    self.azimuthRadians = azimuthRadians
    self.elevationRadians = Self.clampElevation(elevationRadians)
    self.distanceMeters = Self.clampDistance(distanceMeters)
    self.verticalFieldOfViewRadians = verticalFieldOfViewRadians
    self.up = up
    self.sceneRadiusMeters = sceneRadiusMeters
  }

  // MARK: - Derived geometry

  /// Unit direction from the pivot to the eye.
  public var backward: SIMD3<Float> {
    up.offsetDirection(azimuthRadians: azimuthRadians, elevationRadians: elevationRadians)
  }

  /// Unit viewing direction (from the eye to the pivot).
  public var forward: SIMD3<Float> { -backward }

  /// Unit direction of screen-right in world coordinates.
  public var right: SIMD3<Float> { ViewerMath.normalized(ViewerMath.cross(forward, up.vector)) }

  /// Unit direction of screen-up in world coordinates.
  public var screenUp: SIMD3<Float> { ViewerMath.cross(right, forward) }

  /// The eye position in world coordinates.
  public var eye: SIMD3<Float> { pivot + backward * distanceMeters }

  /// `viewFromWorld`, OpenGL axes (looking down −z).
  public var viewMatrix: Matrix4 {
    Matrix4.lookAt(eye: eye, target: pivot, up: up.vector)
  }

  /// Near plane: a thousandth of the distance, so depth precision follows the zoom.
  public var nearMeters: Float { max(0.001, distanceMeters / 1000) }

  /// Far plane: far enough to see the whole scene from beyond it.
  public var farMeters: Float { distanceMeters * 100 + 2 * sceneRadiusMeters }

  /// The perspective projection for a viewport of this width over height.
  public func projectionMatrix(aspect: Float) -> Matrix4 {
    Matrix4.perspective(
      verticalFieldOfViewRadians: verticalFieldOfViewRadians, aspect: max(aspect, 1e-6),
      nearMeters: nearMeters, farMeters: farMeters)
  }

  /// Height in metres of the view at the pivot's depth.
  public var viewHeightAtPivotMeters: Float {
    2 * distanceMeters * tan(verticalFieldOfViewRadians / 2)
  }

  // MARK: - Mutations

  /// Orbits about the pivot by a cursor drag in window pixels (x right, y down).
  ///
  /// Dragging the full viewport height turns by π. Dragging right turns the scene
  /// right (the eye moves left); dragging down tilts the scene towards the viewer (the
  /// eye rises).
  public mutating func rotate(byPixels delta: SIMD2<Float>, viewportHeight: Float) {
    guard viewportHeight > 0 else { return }
    let radiansPerPixel = Float.pi / viewportHeight
    azimuthRadians = remainder(azimuthRadians - delta.x * radiansPerPixel, 2 * .pi)
    elevationRadians += delta.y * radiansPerPixel
  }

  /// Moves the pivot (and the eye with it) in the view plane by a cursor drag in
  /// window pixels (x right, y down), so that the point under the cursor at the
  /// pivot's depth follows the cursor exactly.
  public mutating func pan(byPixels delta: SIMD2<Float>, viewportHeight: Float) {
    guard viewportHeight > 0 else { return }
    let metersPerPixel = viewHeightAtPivotMeters / viewportHeight
    // The scene follows the cursor, so the camera moves the other way; window y runs
    // down while screenUp runs up.
    pivot += (-right * delta.x + screenUp * delta.y) * metersPerPixel
  }

  /// Zooms by `steps` (positive zooms in; each step scales the distance by 0.85)
  /// towards the point under the cursor.
  ///
  /// The point under `cursor` (NDC, −1…1, y up) on the plane through the pivot
  /// perpendicular to the view stays under the cursor: the pivot moves towards it by
  /// the fraction the distance shrinks.
  public mutating func zoom(
    steps: Float, towardNormalizedCursor cursor: SIMD2<Float>, aspect: Float
  ) {
    let before = distanceMeters
    let halfHeight = viewHeightAtPivotMeters / 2
    let target =
      pivot + right * (cursor.x * halfHeight * aspect) + screenUp * (cursor.y * halfHeight)
    distanceMeters = before * pow(Self.zoomFactorPerStep, steps)
    // The clamp may have changed the factor; use the one actually applied.
    let scale = distanceMeters / before
    pivot += (target - pivot) * (1 - scale)
  }

  /// Centres the pivot on `bounds` and sets the distance so that the bounding sphere
  /// fits the narrower field of view with a 10 % margin; the angles stay.
  public mutating func fit(bounds: Bounds3, aspect: Float = 1) {
    let lo = SIMD3(bounds.min.x, bounds.min.y, bounds.min.z)
    let hi = SIMD3(bounds.max.x, bounds.max.y, bounds.max.z)
    pivot = (lo + hi) / 2
    let radius = ViewerMath.length(hi - lo) / 2
    sceneRadiusMeters = radius
    let halfVertical = verticalFieldOfViewRadians / 2
    let halfHorizontal = atan(tan(halfVertical) * max(aspect, 1e-6))
    let halfAngle = min(halfVertical, halfHorizontal)
    // A sphere of radius r seen from distance d spans a half-angle asin(r / d).
    distanceMeters = radius > 0 ? 1.1 * radius / sin(halfAngle) : 1
  }

  // MARK: - Clamping

  static func clampElevation(_ e: Float) -> Float {
    guard e.isFinite else { return 0 }
    return min(max(e, -elevationLimitRadians), elevationLimitRadians)
  }

  static func clampDistance(_ d: Float) -> Float {
    guard d.isFinite else { return d > 0 ? maximumDistanceMeters : minimumDistanceMeters }
    return min(max(d, minimumDistanceMeters), maximumDistanceMeters)
  }
}
