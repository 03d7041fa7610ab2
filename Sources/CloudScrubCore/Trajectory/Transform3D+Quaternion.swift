import Foundation

extension Transform3D {
  /// Whether a stored quaternion can be a rotation once normalised: its squared length
  /// is positive and finite. `init(quaternion:translation:)` makes the zero quaternion
  /// the identity and one of infinite length too, which a reader must not do silently.
  public static func isRotation(quaternion q: SIMD4<Double>) -> Bool {
    let squared = (q * q).sum()
    return squared > 0 && squared.isFinite
  }

  /// The rotation part as a unit quaternion (x, y, z, w) with w ≥ 0 (Shepperd's method:
  /// the largest of the four squared components is taken from the diagonal, the others
  /// from it, which keeps every rotation accurate).
  public var rotationQuaternion: SIMD4<Double> {
    let (m00, m11, m22) = (self[0, 0], self[1, 1], self[2, 2])
    let trace = m00 + m11 + m22
    var q: SIMD4<Double>
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      q = SIMD4(
        (self[2, 1] - self[1, 2]) / s, (self[0, 2] - self[2, 0]) / s,
        (self[1, 0] - self[0, 1]) / s, s / 4)
    } else if m00 > m11 && m00 > m22 {
      let s = (1 + m00 - m11 - m22).squareRoot() * 2
      q = SIMD4(
        s / 4, (self[0, 1] + self[1, 0]) / s, (self[0, 2] + self[2, 0]) / s,
        (self[2, 1] - self[1, 2]) / s)
    } else if m11 > m22 {
      let s = (1 + m11 - m00 - m22).squareRoot() * 2
      q = SIMD4(
        (self[0, 1] + self[1, 0]) / s, s / 4, (self[1, 2] + self[2, 1]) / s,
        (self[0, 2] - self[2, 0]) / s)
    } else {
      let s = (1 + m22 - m00 - m11).squareRoot() * 2
      q = SIMD4(
        (self[0, 2] + self[2, 0]) / s, (self[1, 2] + self[2, 1]) / s, s / 4,
        (self[1, 0] - self[0, 1]) / s)
    }
    if q.w < 0 { q = -q }
    return q / (q * q).sum().squareRoot()
  }

  /// The rotation part as a rotation vector: the axis times the angle in radians
  /// (0…π), the inverse of `init(axisAngle:)`.
  public var rotationVector: SIMD3<Double> {
    let q = rotationQuaternion
    let v = SIMD3(q.x, q.y, q.z)
    let sine = (v * v).sum().squareRoot()
    guard sine > 1e-12 else { return 2 * v }
    return v * (2 * atan2(sine, q.w) / sine)
  }
}
