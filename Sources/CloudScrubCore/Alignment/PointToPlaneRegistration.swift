import Foundation

/// One frame registered to the model: frame-to-model point-to-plane ICP.
///
/// Each Gauss–Newton step moves the frame's points p (in the world, under the current
/// pose) by a small rotation ω about their centroid c and a translation t, and
/// minimises Σ w · (n · (p + ω × (p − c) + t − q))² over the points whose voxel in the
/// model has a plane (q, n) and whose distance to it is under
/// `tukeyMeters`, with Tukey biweights w = (1 − (r / c)²)² and a depth weight 1 / max(z², 0.25) (depth noise grows with depth).
///
/// Directions the scene leaves free or nearly so (sliding along a single wall, or
/// along the line where a desk meets a monitor) would otherwise be moved by noise: the
/// step is solved in the eigenbasis of the 6 × 6 system, rotations scaled by the
/// points' spread so that both compare as lengths, and only along eigenvectors whose
/// eigenvalue is at least `weakDirectionRatio` of the largest; the others stay where
/// they started.
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
  ///
  /// - Parameters:
  ///   - prior: how far the pose may stray from `initial` (see `MotionPrior`); nil: as
  ///     far as the points say.
  ///   - gravity: how far the pose may tilt from the recorded one (see `GravityPrior`);
  ///     nil: as far as the points say.
  func register(
    _ frame: AlignmentFrame, to model: inout SurfelVoxelMap, from initial: Transform3D,
    prior: MotionPrior? = nil, gravity: GravityPrior? = nil
  ) -> Result {
    var pose = initial
    var matches = 0
    var iterations = 0
    let points = frame.pointsInCamera
    guard !points.isEmpty else {
      return Result(worldFromCamera: initial, matches: 0, iterations: 0)
    }
    var centroidInCamera = SIMD3<Double>.zero
    for p in points { centroidInCamera += SIMD3<Double>(p) }
    centroidInCamera /= Double(points.count)
    var spread = 0.0
    for p in points {
      let d = SIMD3<Double>(p) - centroidInCamera
      spread += (d * d).sum()
    }
    // The points' RMS distance from their centroid: rotations times it are lengths, so
    // rotation and translation compare in one unit when weak directions are found.
    let spreadMeters = max((spread / Double(points.count)).squareRoot(), 0.05)
    let tukey = options.tukeyMeters
    // Point weights as information (1 / m²): depth noise σ · max(z, 0.5) at depth z.
    let noise = Double(max(options.depthNoiseMeters, 1e-6))
    let information = 1 / (noise * noise)
    let startCentroid = initial.apply(to: centroidInCamera)
    // Each point's voxel and plane in the last step: after the first steps most points
    // stay in their voxel, and the model does not change during a registration.
    var voxelKeys = [Int64](repeating: SurfelVoxelMap.empty, count: points.count)
    var voxelPlanes = [SurfelVoxelMap.Plane?](repeating: nil, count: points.count)
    while iterations < options.maxIterations {
      iterations += 1
      let transform = FloatRigid(pose)
      let c = SIMD3<Float>(pose.apply(to: centroidInCamera))
      var h = [Double](repeating: 0, count: 36)
      var g = [Double](repeating: 0, count: 6)
      var found = 0
      h.withUnsafeMutableBufferPointer { h in
        g.withUnsafeMutableBufferPointer { g in
          for (index, p) in points.enumerated() {
            let world = transform.apply(p)
            let key = model.voxelKey(world)
            if key != voxelKeys[index] {
              voxelKeys[index] = key
              voxelPlanes[index] = model.plane(key: key)
            }
            guard let plane = voxelPlanes[index] else { continue }
            let n = plane.normal
            let r = (n * (world - plane.point)).sum()
            guard abs(r) < tukey else { continue }
            // Depth noise grows with depth²: nearer points say more.
            let depthWeight = 1 / max(p.z * p.z, 0.25)
            let u = 1 - (r / tukey) * (r / tukey)
            let w = Double(depthWeight * u * u)
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
      for i in 0..<36 { h[i] *= information }
      for i in 0..<6 { g[i] *= information }
      if let prior {
        // The prior's own term: its information times the deviation from `initial`,
        // the rotation of pose · initial⁻¹ and the shift of the points' centroid.
        let rotation = (pose * initial.rigidInverse).rotationVector
        let shift = pose.apply(to: centroidInCamera) - startCentroid
        let deviation = [rotation.x, rotation.y, rotation.z, shift.x, shift.y, shift.z]
        for i in 0..<6 {
          let weight = i < 3 ? prior.rotationInformation : prior.translationInformation
          h[i * 6 + i] += weight
          g[i] += weight * deviation[i]
        }
      }
      gravity?.add(to: &h, &g, under: pose)
      for row in 0..<6 { for column in 0..<row { h[row * 6 + column] = h[column * 6 + row] } }
      var basis: [Double]?
      if let restricted = gravity?.restrict(h, g, under: pose) {
        (h, g, basis) = (restricted.h, restricted.g, restricted.basis)
      }
      guard var step = Self.constrainedStep(h, g, lengthMeters: spreadMeters) else { break }
      if let basis { step = GravityPrior.unrestrict(step, basis: basis) }
      let omega = SIMD3(step[0], step[1], step[2])
      let shift = SIMD3(step[3], step[4], step[5])
      let rotation = Transform3D(axisAngle: omega)
      let pivot = SIMD3<Double>(c)
      let translation = pivot - rotation.apply(to: pivot) + shift
      let update = Transform3D(axisAngle: omega, translation: translation)
      pose = update * pose
      let angle = (omega * omega).sum().squareRoot()
      let distance = (shift * shift).sum().squareRoot()
      if angle < options.convergenceRadians && distance < options.convergenceMeters { break }
    }
    return Result(worldFromCamera: pose, matches: matches, iterations: iterations)
  }

  /// Eigenvalues below this fraction of the largest count as directions the scene does
  /// not constrain.
  static let weakDirectionRatio = 0.02

  /// The Gauss–Newton step −H⁻¹ g restricted to the well-constrained directions of H
  /// (upper triangle filled, row-major 6 × 6); nil when H has no such direction.
  static func constrainedStep(_ h: [Double], _ g: [Double], lengthMeters: Double) -> [Double]? {
    let scale = [lengthMeters, lengthMeters, lengthMeters, 1, 1, 1].map { 1 / $0 }
    var a = [Double](repeating: 0, count: 36)
    for row in 0..<6 {
      for column in row..<6 {
        let value = h[row * 6 + column] * scale[row] * scale[column]
        a[row * 6 + column] = value
        a[column * 6 + row] = value
      }
    }
    let (values, vectors) = jacobiEigen(a)
    guard let largest = values.max(), largest > 0, largest.isFinite else { return nil }
    var step = [Double](repeating: 0, count: 6)
    for k in 0..<6 where values[k] >= weakDirectionRatio * largest {
      var projection = 0.0
      for i in 0..<6 { projection += vectors[i * 6 + k] * (-g[i] * scale[i]) }
      let amount = projection / values[k]
      for i in 0..<6 { step[i] += amount * vectors[i * 6 + k] }
    }
    for i in 0..<6 { step[i] *= scale[i] }
    return step
  }

  /// Eigenvalues and eigenvectors (column k of the row-major result belongs to value k)
  /// of a symmetric 6 × 6 matrix, by cyclic Jacobi rotations.
  static func jacobiEigen(_ matrix: [Double]) -> (values: [Double], vectors: [Double]) {
    var a = matrix
    var v = [Double](repeating: 0, count: 36)
    for i in 0..<6 { v[i * 6 + i] = 1 }
    for _ in 0..<30 {
      var off = 0.0
      var total = 0.0
      for i in 0..<6 {
        for j in 0..<6 {
          total += a[i * 6 + j] * a[i * 6 + j]
          if i != j { off += a[i * 6 + j] * a[i * 6 + j] }
        }
      }
      if off <= 1e-24 * total { break }
      for p in 0..<5 {
        for q in (p + 1)..<6 {
          let apq = a[p * 6 + q]
          guard abs(apq) > 1e-300 else { continue }
          let theta = (a[q * 6 + q] - a[p * 6 + p]) / (2 * apq)
          let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
          let c = 1 / (t * t + 1).squareRoot()
          let s = t * c
          for k in 0..<6 {
            let akp = a[k * 6 + p]
            let akq = a[k * 6 + q]
            a[k * 6 + p] = c * akp - s * akq
            a[k * 6 + q] = s * akp + c * akq
          }
          for k in 0..<6 {
            let apk = a[p * 6 + k]
            let aqk = a[q * 6 + k]
            a[p * 6 + k] = c * apk - s * aqk
            a[q * 6 + k] = s * apk + c * aqk
          }
          for k in 0..<6 {
            let vkp = v[k * 6 + p]
            let vkq = v[k * 6 + q]
            v[k * 6 + p] = c * vkp - s * vkq
            v[k * 6 + q] = s * vkp + c * vkq
          }
        }
      }
    }
    return ((0..<6).map { a[$0 * 6 + $0] }, v)
  }
}

/// A Gaussian prior on a registration's deviation from its starting pose: information
/// (1 / σ²) on the rotation, per radian², and on the shift of the frame's points, per
/// metre². Refinement ties each frame's correction to the previous frame's with it, as
/// the app's motion between neighbouring frames is accurate (`AlignmentOptions`).
struct MotionPrior {
  var rotationInformation: Double
  var translationInformation: Double

  /// The prior of a correction that changes at about `radiansPerSecond` and
  /// `metersPerSecond` (σ) over `seconds`: σ grows with the time, as the app's motion
  /// between frames is off mostly by an error in its velocity.
  init(radiansPerSecond: Double, metersPerSecond: Double, seconds: Double) {
    let rotation = radiansPerSecond * max(seconds, 1e-3)
    let shift = metersPerSecond * max(seconds, 1e-3)
    rotationInformation = 1 / (rotation * rotation)
    translationInformation = 1 / (shift * shift)
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
