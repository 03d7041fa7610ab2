import Foundation

/// A 4×4 affine transform in double precision, column-major.
///
/// Name values by what they map between, `targetFromSource`:
/// `let pointInWorld = worldFromCamera.apply(to: pointInCamera)`.
public struct Transform3D: Equatable, Sendable {
  /// Columns 0…3; column 3 holds the translation.
  public var columns: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)

  public init(columns: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)) {
    self.columns = columns
  }

  public static let identity = Transform3D(
    columns: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)))

  /// A transform from 16 numbers in row-major order (`m00 m01 m02 m03 m10 …`).
  public init(rowMajor m: [Double]) {
    precondition(m.count == 16, "a 4×4 matrix has 16 numbers")
    columns = (
      SIMD4(m[0], m[4], m[8], m[12]), SIMD4(m[1], m[5], m[9], m[13]),
      SIMD4(m[2], m[6], m[10], m[14]), SIMD4(m[3], m[7], m[11], m[15])
    )
  }

  /// A rotation by the unit quaternion (x, y, z, w) followed by a translation.
  public init(quaternion q: SIMD4<Double>, translation t: SIMD3<Double>) {
    let length = (q * q).sum().squareRoot()
    let n = length > 0 ? q / length : SIMD4(0, 0, 0, 1)
    let (x, y, z, w) = (n.x, n.y, n.z, n.w)
    columns = (
      SIMD4(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0),
      SIMD4(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0),
      SIMD4(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0),
      SIMD4(t.x, t.y, t.z, 1)
    )
  }

  /// A rotation of `angle` radians about the unit `axis`.
  public init(axisAngle rotation: SIMD3<Double>, translation t: SIMD3<Double> = .zero) {
    let angle = (rotation * rotation).sum().squareRoot()
    guard angle > 0 else {
      self = .identity
      columns.3 = SIMD4(t.x, t.y, t.z, 1)
      return
    }
    let axis = rotation / angle
    let half = angle / 2
    let s = sin(half)
    self.init(quaternion: SIMD4(axis.x * s, axis.y * s, axis.z * s, cos(half)), translation: t)
  }

  /// A pure scaling of each axis (used for flipping camera axes).
  public static func scale(_ s: SIMD3<Double>) -> Transform3D {
    Transform3D(
      columns: (SIMD4(s.x, 0, 0, 0), SIMD4(0, s.y, 0, 0), SIMD4(0, 0, s.z, 0), SIMD4(0, 0, 0, 1)))
  }

  public subscript(row: Int, column: Int) -> Double {
    switch column {
    case 0: columns.0[row]
    case 1: columns.1[row]
    case 2: columns.2[row]
    default: columns.3[row]
    }
  }

  public var translation: SIMD3<Double> { SIMD3(columns.3.x, columns.3.y, columns.3.z) }

  /// `self * other`: first `other`, then `self`.
  public static func * (lhs: Transform3D, rhs: Transform3D) -> Transform3D {
    func apply(_ c: SIMD4<Double>) -> SIMD4<Double> {
      lhs.columns.0 * c.x + lhs.columns.1 * c.y + lhs.columns.2 * c.z + lhs.columns.3 * c.w
    }
    return Transform3D(
      columns: (
        apply(rhs.columns.0), apply(rhs.columns.1), apply(rhs.columns.2), apply(rhs.columns.3)
      ))
  }

  /// The transform of a point.
  public func apply(to p: SIMD3<Double>) -> SIMD3<Double> {
    let r = columns.0 * p.x + columns.1 * p.y + columns.2 * p.z + columns.3
    return SIMD3(r.x, r.y, r.z)
  }

  /// The transform of a direction (no translation).
  public func rotate(_ v: SIMD3<Double>) -> SIMD3<Double> {
    let r = columns.0 * v.x + columns.1 * v.y + columns.2 * v.z
    return SIMD3(r.x, r.y, r.z)
  }

  /// The inverse of a rigid transform (rotation and translation only): rotation Rᵀ,
  /// translation −Rᵀ·t.
  public var rigidInverse: Transform3D {
    let c0 = SIMD3(columns.0.x, columns.0.y, columns.0.z)
    let c1 = SIMD3(columns.1.x, columns.1.y, columns.1.z)
    let c2 = SIMD3(columns.2.x, columns.2.y, columns.2.z)
    let t = translation
    // Column i of Rᵀ is row i of R; entry i of Rᵀ·t is column i of R dotted with t.
    return Transform3D(
      columns: (
        SIMD4(c0.x, c1.x, c2.x, 0), SIMD4(c0.y, c1.y, c2.y, 0), SIMD4(c0.z, c1.z, c2.z, 0),
        SIMD4(-(c0 * t).sum(), -(c1 * t).sum(), -(c2 * t).sum(), 1)
      ))
  }

  public static func == (lhs: Transform3D, rhs: Transform3D) -> Bool {
    lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1
      && lhs.columns.2 == rhs.columns.2 && lhs.columns.3 == rhs.columns.3
  }

  /// The 16 numbers in row-major order.
  public var rowMajor: [Double] {
    (0..<4).flatMap { row in (0..<4).map { self[row, $0] } }
  }
}
