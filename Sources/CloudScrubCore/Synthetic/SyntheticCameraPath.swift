import Foundation

/// The path a synthetic capture's camera follows: an arc around the room's objects,
/// always looking at one point, like a person walking around them with a phone.
///
/// With the defaults (`SyntheticCameraPath.standard`) the camera moves on a circle of
/// radius 2.2 m about the vertical line through (x, z) = (−0.3, −0.6), from −40° to
/// +40° (angles from +z towards +x; 0° puts it at (−0.3, 1.4, 1.6)), easing in and out
/// (angle = start + (end − start) · (1 − cos πs) / 2 at fraction s of the recording).
/// Its height is 1.4 m + 0.05 m · sin 2πs, and it looks at (−0.5, 0.35, −0.7), between
/// the box and the sphere, with a small roll of 0.04 rad · sin πs about its viewing
/// axis. At s = 0 the camera is at (−1.714, 1.4, 1.085), upright, with no roll.
///
/// A path that `returnsToStart` goes out along the arc and comes back: angle = start +
/// (end − start) · (1 − cos 2πs) / 2, so the camera reaches the arc's end halfway and is
/// back where it started, looking the same way, at s = 1 (a loop).
public struct SyntheticCameraPath: Equatable, Sendable {
  /// The arc's centre, (x, z) in the world.
  public var arcCenterXZ: SIMD2<Double>
  public var radiusMeters: Double
  public var startAngleRadians: Double
  public var endAngleRadians: Double
  public var heightMeters: Double
  public var heightWobbleMeters: Double
  public var rollAmplitudeRadians: Double
  /// The world point the camera looks at all along.
  public var target: SIMD3<Double>
  public var returnsToStart: Bool

  public init(
    arcCenterXZ: SIMD2<Double> = SIMD2(-0.3, -0.6), radiusMeters: Double = 2.2,
    startAngleRadians: Double = -40 * Double.pi / 180,
    endAngleRadians: Double = 40 * Double.pi / 180, heightMeters: Double = 1.4,
    heightWobbleMeters: Double = 0.05, rollAmplitudeRadians: Double = 0.04,
    target: SIMD3<Double> = SIMD3(-0.5, 0.35, -0.7), returnsToStart: Bool = false
  ) {
    self.arcCenterXZ = arcCenterXZ
    self.radiusMeters = radiusMeters
    self.startAngleRadians = startAngleRadians
    self.endAngleRadians = endAngleRadians
    self.heightMeters = heightMeters
    self.heightWobbleMeters = heightWobbleMeters
    self.rollAmplitudeRadians = rollAmplitudeRadians
    self.target = target
    self.returnsToStart = returnsToStart
  }

  /// The arc described above.
  public static let standard = SyntheticCameraPath()
  /// The same arc out and back.
  public static let loop = SyntheticCameraPath(returnsToStart: true)

  /// The camera's position at fraction `s` (0…1) of the path.
  public func position(atFraction s: Double) -> SIMD3<Double> {
    let eased = (1 - cos((returnsToStart ? 2 : 1) * Double.pi * s)) / 2
    let angle = startAngleRadians + (endAngleRadians - startAngleRadians) * eased
    return SIMD3(
      arcCenterXZ.x + radiusMeters * sin(angle),
      heightMeters + heightWobbleMeters * sin(2 * Double.pi * s),
      arcCenterXZ.y + radiusMeters * cos(angle))
  }

  /// The camera-to-world transform at fraction `s` (0…1) of the path, in ARKit camera
  /// axes (x right, y up, z backward: the camera looks along its −z).
  public func worldFromCamera(atFraction s: Double) -> Transform3D {
    let upright = Self.worldFromCameraLooking(from: position(atFraction: s), at: target)
    let roll = Transform3D(axisAngle: SIMD3(0, 0, rollAmplitudeRadians * sin(Double.pi * s)))
    return upright * roll
  }

  /// The camera-to-world transform of an upright camera (no roll) at `eye` looking at
  /// `target`, in ARKit camera axes, world y up.
  ///
  /// The view direction must not be vertical.
  public static func worldFromCameraLooking(
    from eye: SIMD3<Double>, at target: SIMD3<Double>
  ) -> Transform3D {
    let forward = normalized(target - eye)
    let right = normalized(cross(forward, SIMD3(0, 1, 0)))
    let up = cross(right, forward)
    let back = -forward
    return Transform3D(
      columns: (
        SIMD4(right.x, right.y, right.z, 0), SIMD4(up.x, up.y, up.z, 0),
        SIMD4(back.x, back.y, back.z, 0), SIMD4(eye.x, eye.y, eye.z, 1)
      ))
  }

  private static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let length = (v * v).sum().squareRoot()
    precondition(length > 0, "a direction needs a length")
    return v / length
  }

  private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }
}
