import Foundation

/// A known tracking drift added to a synthetic capture's poses, as a phone's tracking
/// would add it: the frames are rendered from the true camera placements and carry
/// drifted poses.
///
/// The drift is a world-space rigid transform `driftedFromTrue(s)` at fraction `s` of
/// the recording (frame i at s = i / (frameCount − 1)). It grows with the smoothstep
/// w(s) = 3s² − 2s³ (0 at the first frame, 1 at the last, flat at both ends): a
/// translation of w · `translationMeters` along world +x, after a rotation of
/// w · `rotationRadians` about the vertical (world +y) line through the first frame's
/// camera centre (yaw, the drift ARKit's gravity-aligned tracking is prone to), then,
/// when `tiltRadians` is not 0, of w · `tiltRadians` about the horizontal world +z line
/// through it (a tilt off gravity, which ARKit's accelerometer keeps small; for
/// testing what refinement's gravity prior gives up). A frame's stored pose is
/// `driftedFromTrue(s) * worldFromCamera(s)`.
public struct SyntheticDrift: Equatable, Sendable {
  /// The translation at the last frame, along world +x.
  public var translationMeters: Double
  /// The rotation at the last frame, about world +y through the first camera centre.
  public var rotationRadians: Double
  /// The tilt at the last frame, about world +z through the first camera centre.
  public var tiltRadians: Double

  public init(translationMeters: Double, rotationRadians: Double, tiltRadians: Double = 0) {
    self.translationMeters = translationMeters
    self.rotationRadians = rotationRadians
    self.tiltRadians = tiltRadians
  }

  /// The smoothstep weight at fraction `s` (clamped to 0…1).
  public static func weight(atFraction s: Double) -> Double {
    let t = min(max(s, 0), 1)
    return t * t * (3 - 2 * t)
  }

  /// The drift at fraction `s`, pivoting about `pivot` (the first camera centre).
  public func driftedFromTrue(atFraction s: Double, pivot: SIMD3<Double>) -> Transform3D {
    let w = Self.weight(atFraction: s)
    let rotation =
      Transform3D(axisAngle: SIMD3(0, 0, w * tiltRadians))
      * Transform3D(axisAngle: SIMD3(0, w * rotationRadians, 0))
    let rotatedPivot = rotation.apply(to: pivot)
    let shift = pivot - rotatedPivot + SIMD3(w * translationMeters, 0, 0)
    var drift = rotation
    drift.columns.3 = SIMD4(shift.x, shift.y, shift.z, 1)
    return drift
  }
}
