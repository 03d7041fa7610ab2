/// A symmetric 3×3 matrix in `Double` (covariances), with a Jacobi eigen-solver.
struct SymmetricMatrix3: Equatable {
  var xx = 0.0
  var xy = 0.0
  var xz = 0.0
  var yy = 0.0
  var yz = 0.0
  var zz = 0.0

  init(xx: Double, xy: Double, xz: Double, yy: Double, yz: Double, zz: Double) {
    self.xx = xx
    self.xy = xy
    self.xz = xz
    self.yy = yy
    self.yz = yz
    self.zz = zz
  }

  /// `v vᵀ`.
  init(outerProductOf v: SIMD3<Double>) {
    addOuterProduct(of: v)
  }

  /// Adds `v vᵀ`.
  mutating func addOuterProduct(of v: SIMD3<Double>) {
    xx += v.x * v.x
    xy += v.x * v.y
    xz += v.x * v.z
    yy += v.y * v.y
    yz += v.y * v.z
    zz += v.z * v.z
  }

  var trace: Double { xx + yy + zz }

  /// Eigenvalues and unit eigenvectors (`vectors[i]` belongs to `values[i]`), in no
  /// particular order, by cyclic Jacobi rotations.
  ///
  /// Jacobi is slower than the closed-form cubic but stays accurate when eigenvalues
  /// nearly coincide (a line, or a sphere's neighbourhood), where the closed form's
  /// eigenvectors lose most of their digits.
  func eigen() -> (values: SIMD3<Double>, vectors: [SIMD3<Double>]) {
    // Row-major full matrices; entry (i, j) at 3i + j. Lanes past 8 are unused.
    var a = SIMD16<Double>(repeating: 0)
    a[0] = xx
    a[1] = xy
    a[2] = xz
    a[3] = xy
    a[4] = yy
    a[5] = yz
    a[6] = xz
    a[7] = yz
    a[8] = zz
    var v = SIMD16<Double>(repeating: 0)
    v[0] = 1
    v[4] = 1
    v[8] = 1
    let pairs = [(0, 1), (0, 2), (1, 2)]
    for _ in 0..<32 {
      let offDiagonal = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
      let diagonal = a[0] * a[0] + a[4] * a[4] + a[8] * a[8]
      if offDiagonal <= 1e-30 * diagonal || offDiagonal == 0 { break }
      for (p, q) in pairs {
        let apq = a[3 * p + q]
        if apq == 0 { continue }
        let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
        // The smaller rotation angle, tan θ, written to avoid overflow for large θ.
        let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
        let c = 1 / (t * t + 1).squareRoot()
        let s = t * c
        for k in 0..<3 {
          let akp = a[3 * k + p]
          let akq = a[3 * k + q]
          a[3 * k + p] = c * akp - s * akq
          a[3 * k + q] = s * akp + c * akq
        }
        for k in 0..<3 {
          let apk = a[3 * p + k]
          let aqk = a[3 * q + k]
          a[3 * p + k] = c * apk - s * aqk
          a[3 * q + k] = s * apk + c * aqk
        }
        a[3 * p + q] = 0
        a[3 * q + p] = 0
        for k in 0..<3 {
          let vkp = v[3 * k + p]
          let vkq = v[3 * k + q]
          v[3 * k + p] = c * vkp - s * vkq
          v[3 * k + q] = s * vkp + c * vkq
        }
      }
    }
    let vectors = (0..<3).map { j -> SIMD3<Double> in
      let column = SIMD3(v[j], v[3 + j], v[6 + j])
      let length = (column * column).sum().squareRoot()
      return length > 0 ? column / length : column
    }
    return (SIMD3(a[0], a[4], a[8]), vectors)
  }

  /// The unit eigenvector of the smallest eigenvalue (the normal of a covariance).
  func eigenvectorOfSmallestEigenvalue() -> SIMD3<Double> {
    let (values, vectors) = eigen()
    var smallest = 0
    if values[1] < values[smallest] { smallest = 1 }
    if values[2] < values[smallest] { smallest = 2 }
    return vectors[smallest]
  }
}
