import Foundation

/// Refinement's prior on a frame's up direction: the app's world is gravity-aligned
/// (ARKit's tracking measures gravity with the accelerometer), so the correction
/// refinement makes should turn the camera about the vertical, not tilt it.
///
/// The tilt is the angle between `up` and the correction's image of it, v = R · up
/// (R the rotation of `pose · recordedWorldFromCamera⁻¹`). A step's small rotation ω
/// (world axes, left-multiplied) moves v to v + ω × v, so the residual v − up has the
/// Jacobian −[v]× in ω: the prior adds information (I − v vᵀ) / σ² to the rotation's
/// 3 × 3 block and (up × v) / σ² to its gradient. With σ nil the tilt is held exactly:
/// the step's rotation is restricted to the axis v (a yaw and translation registration,
/// four degrees of freedom).
struct GravityPrior {
  /// The world's up direction, unit.
  var up: SIMD3<Double>
  /// The frame's recorded pose, against which the tilt is measured.
  var recordedWorldFromCamera: Transform3D
  /// 1 / σ² of the tilt, per radian²; nil: the tilt is held exactly (4 DoF).
  var information: Double?

  /// The correction's image of `up` under `pose`.
  func correctedUp(under pose: Transform3D) -> SIMD3<Double> {
    let v = (pose * recordedWorldFromCamera.rigidInverse).rotate(up)
    let length = (v * v).sum().squareRoot()
    return length > 0 ? v / length : up
  }

  /// Adds the soft prior's terms to `h` (row-major 6 × 6, upper triangle used) and `g`,
  /// for the current `pose`; nothing for the exact one (see `restrict`).
  func add(to h: inout [Double], _ g: inout [Double], under pose: Transform3D) {
    guard let information else { return }
    let v = correctedUp(under: pose)
    let gradient = Self.cross(up, v)
    let vs = [v.x, v.y, v.z]
    let gs = [gradient.x, gradient.y, gradient.z]
    for row in 0..<3 {
      g[row] += information * gs[row]
      for column in row..<3 {
        let identity = row == column ? 1.0 : 0.0
        h[row * 6 + column] += information * (identity - vs[row] * vs[column])
      }
    }
  }

  /// For the exact prior, the system (full, symmetric 6 × 6) in a basis whose rotation
  /// axes are two horizontal directions and v, with the horizontal ones taken out, and
  /// the basis to map its step back with; nil for the soft prior.
  func restrict(_ h: [Double], _ g: [Double], under pose: Transform3D) -> (
    h: [Double], g: [Double], basis: [Double]
  )? {
    guard information == nil else { return nil }
    let v = correctedUp(under: pose)
    // Any unit vector not along v, then two perpendiculars.
    let helper = abs(v.x) < 0.9 ? SIMD3<Double>(1, 0, 0) : SIMD3<Double>(0, 1, 0)
    var a = Self.cross(v, helper)
    a /= (a * a).sum().squareRoot()
    let b = Self.cross(v, a)
    // Row-major 6 × 6 M = diag(B, I), B's columns a, b, v.
    var m = [Double](repeating: 0, count: 36)
    for i in 0..<3 {
      m[i * 6 + 0] = a[i]
      m[i * 6 + 1] = b[i]
      m[i * 6 + 2] = v[i]
      m[(i + 3) * 6 + i + 3] = 1
    }
    var restricted = [Double](repeating: 0, count: 36)
    var gradient = [Double](repeating: 0, count: 6)
    for row in 2..<6 {
      for k in 0..<6 { gradient[row] += m[k * 6 + row] * g[k] }
      for column in 2..<6 {
        var sum = 0.0
        for k in 0..<6 {
          guard m[k * 6 + row] != 0 else { continue }
          for l in 0..<6 { sum += m[k * 6 + row] * h[k * 6 + l] * m[l * 6 + column] }
        }
        restricted[row * 6 + column] = sum
      }
    }
    return (restricted, gradient, m)
  }

  /// `basis · step`: a step solved in `restrict`'s basis, in world axes.
  static func unrestrict(_ step: [Double], basis: [Double]) -> [Double] {
    (0..<6).map { row in (0..<6).reduce(0) { $0 + basis[row * 6 + $1] * step[$1] } }
  }

  static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }
}

extension WorldUp {
  /// How far `correctedWorldFromWorld` (a refinement's world-space correction) tilts
  /// this up direction, radians: the angle between up and its image.
  public func tiltRadians(of correctedWorldFromWorld: Transform3D) -> Double {
    let up = SIMD3<Double>(vector)
    let v = correctedWorldFromWorld.rotate(up)
    let length = (v * v).sum().squareRoot()
    guard length > 0 else { return 0 }
    return acos(min(max((v * up).sum() / length, -1), 1))
  }
}
