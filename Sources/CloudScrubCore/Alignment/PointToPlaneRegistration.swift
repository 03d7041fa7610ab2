import Foundation

/// One frame registered to the model: frame-to-model point-to-plane ICP.
///
/// Each Gauss–Newton step moves the frame's points p (in the world, under the current
/// pose) by a small rotation ω about their centroid c and a translation t, and
/// minimises Σ w · (n · (p + ω × (p − c) + t − q))² over the points whose voxel in the
/// model has a plane (q, n) and whose distance to it is under
/// `maxCorrespondenceMeters`, with Huber weights w (1 within `huberMeters`, δ / |r|
/// past it). The 6 × 6 system is damped by 10⁻⁶ of its mean diagonal so that directions
/// the scene leaves free (sliding along a single wall) stay where they started.
struct PointToPlaneRegistration {
  var options: AlignmentOptions

  /// What one registration found.
  struct Result {
    var worldFromCamera: Transform3D
    /// Points on model planes in the last step; 0 when too few found one (and the pose
    /// was left where it started).
    var matches: Int
    var iterations: Int
  }

  /// `frame`'s pose refined against `model`, starting from `initial`; `initial` itself
  /// when fewer than `minMatches` points find a plane.
  func register(
    _ frame: AlignmentFrame, to model: SurfelVoxelMap, from initial: Transform3D
  ) -> Result {
    var pose = initial
    var matches = 0
    var iterations = 0
    let points = frame.pointsInCamera
    guard !points.isEmpty else { return Result(worldFromCamera: initial, matches: 0, iterations: 0) }
    var centroidInCamera = SIMD3<Double>.zero
    for p in points { centroidInCamera += SIMD3<Double>(p) }
    centroidInCamera /= Double(points.count)
    let maxDistance = options.maxCorrespondenceMeters
    let huber = options.huberMeters
    while iterations < options.maxIterations {
      iterations += 1
      let transform = FloatRigid(pose)
      let c = SIMD3<Float>(pose.apply(to: centroidInCamera))
      var h = [Double](repeating: 0, count: 36)
      var g = [Double](repeating: 0, count: 6)
      var found = 0
      h.withUnsafeMutableBufferPointer { h in
        g.withUnsafeMutableBufferPointer { g in
          for p in points {
            let world = transform.apply(p)
            guard let plane = model.plane(containing: world) else { continue }
            let n = plane.normal
            let r = (n * (world - plane.point)).sum()
            guard abs(r) < maxDistance else { continue }
            // Depth noise grows with depth²: nearer points say more.
            let depthWeight = 1 / max(p.z * p.z, 0.25)
            let w = Double(depthWeight * (abs(r) <= huber ? 1 : huber / abs(r)))
            let arm = world - c
            let j = SIMD8<Double>(
              Double(arm.y * n.z - arm.z * n.y), Double(arm.z * n.x - arm.x * n.z),
              Double(arm.x * n.y - arm.y * n.x), Double(n.x), Double(n.y), Double(n.z), 0, 0)
            let wj = w * j
            let wr = w * Double(r)
            for row in 0..<6 {
              g[row] += j[row] * wr
              for column in row..<6 { h[row * 6 + column] += wj[row] * j[column] }
            }
            found += 1
          }
        }
      }
      matches = found
      guard found >= options.minMatches else {
        return Result(worldFromCamera: initial, matches: 0, iterations: iterations)
      }
      for row in 0..<6 { for column in 0..<row { h[row * 6 + column] = h[column * 6 + row] } }
      var diagonal = 0.0
      for i in 0..<6 { diagonal += h[i * 6 + i] }
      let damping = 1e-6 * diagonal / 6
      for i in 0..<6 { h[i * 6 + i] += damping }
      guard let step = Self.solve(h, g.map { -$0 }) else { break }
      let omega = SIMD3(step[0], step[1], step[2])
      let shift = SIMD3(step[3], step[4], step[5])
      let rotation = Transform3D(axisAngle: omega)
      let pivot = SIMD3<Double>(c)
      let translation = pivot - rotation.apply(to: pivot) + shift
      let update = Transform3D(axisAngle: omega, translation: translation)
      pose = update * pose
      let angle = (omega * omega).sum().squareRoot()
      let distance = (shift * shift).sum().squareRoot()
      if angle < 1e-5 && distance < 1e-5 { break }
    }
    return Result(worldFromCamera: pose, matches: matches, iterations: iterations)
  }

  /// Solves the symmetric positive definite 6 × 6 system `a x = b` by Cholesky; nil when
  /// it is not positive definite.
  static func solve(_ a: [Double], _ b: [Double]) -> [Double]? {
    var l = [Double](repeating: 0, count: 36)
    for i in 0..<6 {
      for j in 0...i {
        var sum = a[i * 6 + j]
        for k in 0..<j { sum -= l[i * 6 + k] * l[j * 6 + k] }
        if i == j {
          guard sum > 0, sum.isFinite else { return nil }
          l[i * 6 + i] = sum.squareRoot()
        } else {
          l[i * 6 + j] = sum / l[j * 6 + j]
        }
      }
    }
    var y = [Double](repeating: 0, count: 6)
    for i in 0..<6 {
      var sum = b[i]
      for k in 0..<i { sum -= l[i * 6 + k] * y[k] }
      y[i] = sum / l[i * 6 + i]
    }
    var x = [Double](repeating: 0, count: 6)
    for i in (0..<6).reversed() {
      var sum = y[i]
      for k in (i + 1)..<6 { sum -= l[k * 6 + i] * x[k] }
      x[i] = sum / l[i * 6 + i]
    }
    return x
  }
}

/// A rigid transform in single precision, for moving many points.
struct FloatRigid {
  var c0: SIMD3<Float>
  var c1: SIMD3<Float>
  var c2: SIMD3<Float>
  var t: SIMD3<Float>

  init(_ transform: Transform3D) {
    let c = transform.columns
    c0 = SIMD3(Float(c.0.x), Float(c.0.y), Float(c.0.z))
    c1 = SIMD3(Float(c.1.x), Float(c.1.y), Float(c.1.z))
    c2 = SIMD3(Float(c.2.x), Float(c.2.y), Float(c.2.z))
    t = SIMD3(Float(c.3.x), Float(c.3.y), Float(c.3.z))
  }

  func apply(_ p: SIMD3<Float>) -> SIMD3<Float> { c0 * p.x + c1 * p.y + c2 * p.z + t }
  func rotate(_ v: SIMD3<Float>) -> SIMD3<Float> { c0 * v.x + c1 * v.y + c2 * v.z }
}
