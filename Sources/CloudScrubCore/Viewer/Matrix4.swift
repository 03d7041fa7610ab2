/// A 4×4 single-precision matrix, column-major, as the GPU takes it.
///
/// Element (row r, column c) is `columnMajor[c * 4 + r]`, so the storage can be
/// uploaded as a GLSL `mat4` unchanged. It is a plain value: no heap storage.
public struct Matrix4: Equatable, Sendable {
  /// The 16 numbers, column after column.
  public var columnMajor: SIMD16<Float>

  /// A matrix from its 16 numbers in column-major order.
  public init(columnMajor: SIMD16<Float>) {
    self.columnMajor = columnMajor
  }

  /// A matrix from four columns.
  public init(columns c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ c3: SIMD4<Float>)
  {
    columnMajor = SIMD16(
      lowHalf: SIMD8(lowHalf: c0, highHalf: c1), highHalf: SIMD8(lowHalf: c2, highHalf: c3))
  }

  /// A matrix from 16 numbers in row-major order (`m00 m01 m02 m03 m10 …`), the way
  /// matrices are written on paper.
  public init(rowMajor m: [Float]) {
    precondition(m.count == 16, "a 4×4 matrix has 16 numbers")
    var storage = SIMD16<Float>()
    for row in 0..<4 {
      for column in 0..<4 { storage[column * 4 + row] = m[row * 4 + column] }
    }
    columnMajor = storage
  }

  /// The same transform in single precision.
  ///
  /// World coordinates far from the origin lose precision in `Float`; compose in
  /// `Transform3D` (double) first and convert the final matrix.
  public init(_ t: Transform3D) {
    self.init(
      columns: SIMD4<Float>(t.columns.0), SIMD4<Float>(t.columns.1), SIMD4<Float>(t.columns.2),
      SIMD4<Float>(t.columns.3))
  }

  /// The matrix that changes nothing.
  public static let identity = Matrix4(
    columns: SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

  /// Element at `row`, `column` (both 0…3).
  public subscript(row: Int, column: Int) -> Float {
    get { columnMajor[column * 4 + row] }
    set { columnMajor[column * 4 + row] = newValue }
  }

  /// Column 0…3.
  public func column(_ index: Int) -> SIMD4<Float> {
    switch index {
    case 0: columnMajor.lowHalf.lowHalf
    case 1: columnMajor.lowHalf.highHalf
    case 2: columnMajor.highHalf.lowHalf
    default: columnMajor.highHalf.highHalf
    }
  }

  /// The 16 numbers in row-major order.
  public var rowMajor: [Float] {
    (0..<4).flatMap { row in (0..<4).map { self[row, $0] } }
  }

  // MARK: - Products

  /// `lhs * rhs`: first `rhs`, then `lhs`.
  public static func * (lhs: Matrix4, rhs: Matrix4) -> Matrix4 {
    Matrix4(
      columns: lhs.transform(rhs.column(0)), lhs.transform(rhs.column(1)),
      lhs.transform(rhs.column(2)), lhs.transform(rhs.column(3)))
  }

  /// The matrix times a homogeneous vector.
  public func transform(_ v: SIMD4<Float>) -> SIMD4<Float> {
    column(0) * v.x + column(1) * v.y + column(2) * v.z + column(3) * v.w
  }

  /// The matrix times the point (x, y, z, 1), divided by the resulting w (the
  /// perspective divide; skipped when w is zero, where the point has no image).
  public func transform(point p: SIMD3<Float>) -> SIMD3<Float> {
    let r = transform(SIMD4(p.x, p.y, p.z, 1))
    let w = r.w == 0 ? 1 : r.w
    return SIMD3(r.x, r.y, r.z) / w
  }

  // MARK: - Inverse

  /// The inverse, or nil when the matrix is singular.
  ///
  /// Works for any invertible matrix (projections included), by cofactors in double
  /// precision so that near-singular view-projection products keep their digits.
  /// "Singular" means a determinant that is zero, not finite, or below 1e-12 of the
  /// largest element to the fourth power (what rounding alone can leave).
  public var inverse: Matrix4? {
    let a = (0..<4).map { row in (0..<4).map { Double(self[row, $0]) } }
    let s0 = a[0][0] * a[1][1] - a[1][0] * a[0][1]
    let s1 = a[0][0] * a[1][2] - a[1][0] * a[0][2]
    let s2 = a[0][0] * a[1][3] - a[1][0] * a[0][3]
    let s3 = a[0][1] * a[1][2] - a[1][1] * a[0][2]
    let s4 = a[0][1] * a[1][3] - a[1][1] * a[0][3]
    let s5 = a[0][2] * a[1][3] - a[1][2] * a[0][3]
    let c5 = a[2][2] * a[3][3] - a[3][2] * a[2][3]
    let c4 = a[2][1] * a[3][3] - a[3][1] * a[2][3]
    let c3 = a[2][1] * a[3][2] - a[3][1] * a[2][2]
    let c2 = a[2][0] * a[3][3] - a[3][0] * a[2][3]
    let c1 = a[2][0] * a[3][2] - a[3][0] * a[2][2]
    let c0 = a[2][0] * a[3][1] - a[3][0] * a[2][1]
    let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    let largest = a.joined().map(abs).max() ?? 0
    guard det.isFinite, det != 0, abs(det) > 1e-12 * largest * largest * largest * largest else {
      return nil
    }
    let b: [[Double]] = [
      [
        a[1][1] * c5 - a[1][2] * c4 + a[1][3] * c3, -a[0][1] * c5 + a[0][2] * c4 - a[0][3] * c3,
        a[3][1] * s5 - a[3][2] * s4 + a[3][3] * s3, -a[2][1] * s5 + a[2][2] * s4 - a[2][3] * s3,
      ],
      [
        -a[1][0] * c5 + a[1][2] * c2 - a[1][3] * c1, a[0][0] * c5 - a[0][2] * c2 + a[0][3] * c1,
        -a[3][0] * s5 + a[3][2] * s2 - a[3][3] * s1, a[2][0] * s5 - a[2][2] * s2 + a[2][3] * s1,
      ],
      [
        a[1][0] * c4 - a[1][1] * c2 + a[1][3] * c0, -a[0][0] * c4 + a[0][1] * c2 - a[0][3] * c0,
        a[3][0] * s4 - a[3][1] * s2 + a[3][3] * s0, -a[2][0] * s4 + a[2][1] * s2 - a[2][3] * s0,
      ],
      [
        -a[1][0] * c3 + a[1][1] * c1 - a[1][2] * c0, a[0][0] * c3 - a[0][1] * c1 + a[0][2] * c0,
        -a[3][0] * s3 + a[3][1] * s1 - a[3][2] * s0, a[2][0] * s3 - a[2][1] * s1 + a[2][2] * s0,
      ],
    ]
    var result = Matrix4.identity
    for row in 0..<4 {
      for column in 0..<4 { result[row, column] = Float(b[row][column] / det) }
    }
    return result
  }
}
