import Testing

@testable import CloudScrubCore

@Suite struct ViewerMatrix4Tests {
  @Test func storageIsColumnMajor() {
    let m = Matrix4(rowMajor: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
    // Column 0 is (1, 5, 9, 13); element (row 0, column 3) is the x translation slot.
    #expect(m.columnMajor[0] == 1 && m.columnMajor[1] == 5 && m.columnMajor[3] == 13)
    #expect(m[0, 3] == 4 && m.columnMajor[12] == 4)
    #expect(m.column(2) == SIMD4(3, 7, 11, 15))
  }

  @Test func productAppliesRightHandSideFirst() {
    let a = Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(1, 0, 0))
    let b = Transform3D(axisAngle: SIMD3(0.3, 0.2, -0.1), translation: SIMD3(0, 2, -1))
    #expect(ViewerApprox.close(Matrix4(a) * Matrix4(b), Matrix4(a * b)))
    // A quarter turn about z then a shift by x: (1, 0, 0) → (0, 1, 0) → (1, 1, 0).
    #expect(ViewerApprox.close(Matrix4(a).transform(point: SIMD3(1, 0, 0)), SIMD3(1, 1, 0)))
    #expect(Matrix4.identity * Matrix4(a) == Matrix4(a))
  }

  @Test func transformOfVectorKeepsW() {
    let shift = Matrix4(rowMajor: [1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    #expect(shift.transform(SIMD4(1, 2, 3, 0)) == SIMD4(1, 2, 3, 0))
    #expect(shift.transform(SIMD4(1, 2, 3, 1)) == SIMD4(6, 2, 3, 1))
  }

  @Test func lookAtFromPlusZIsATranslation() {
    let view = Matrix4.lookAt(eye: SIMD3(0, 0, 5), target: .zero, up: SIMD3(0, 1, 0))
    let expected = Matrix4(rowMajor: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -5, 0, 0, 0, 1])
    #expect(ViewerApprox.close(view, expected))
  }

  @Test func lookAtFromPlusXTurnsMinusZToTheRight() {
    // Looking from (3, 0, 0) at the origin with y up: right is −z, forward −x.
    let view = Matrix4.lookAt(eye: SIMD3(3, 0, 0), target: .zero, up: SIMD3(0, 1, 0))
    let expected = Matrix4(rowMajor: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, -3, 0, 0, 0, 1])
    #expect(ViewerApprox.close(view, expected))
    #expect(ViewerApprox.close(view.transform(point: .zero), SIMD3(0, 0, -3)))
    #expect(ViewerApprox.close(view.transform(point: SIMD3(0, 0, -1)), SIMD3(1, 0, -3)))
  }

  @Test func perspectiveMapsNearAndFarToMinusOneAndOne() {
    // 90° vertical: f = 1; aspect 2 halves x; near 1, far 3:
    // z row (−2, −3): (n+f)/(n−f) = −2, 2fn/(n−f) = −3.
    let p = Matrix4.perspective(
      verticalFieldOfViewRadians: .pi / 2, aspect: 2, nearMeters: 1, farMeters: 3)
    let expected = Matrix4(rowMajor: [0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, -2, -3, 0, 0, -1, 0])
    #expect(ViewerApprox.close(p, expected))
    #expect(ViewerApprox.close(p.transform(point: SIMD3(0, 0, -1)).z, -1))
    #expect(ViewerApprox.close(p.transform(point: SIMD3(0, 0, -3)).z, 1))
    // At depth 2 the top of the frustum is y = 2 (45° up), its right edge x = 4, and
    // z = (−2·−2 − 3) / 2 = 0.5.
    #expect(ViewerApprox.close(p.transform(point: SIMD3(4, 2, -2)), SIMD3(1, 1, 0.5)))
  }

  @Test func inverseRoundTripsAViewProjection() throws {
    let view = Matrix4.lookAt(eye: SIMD3(1, 2, 3), target: SIMD3(-1, 0, 0.5), up: SIMD3(0, 1, 0))
    let projection = Matrix4.perspective(
      verticalFieldOfViewRadians: 0.9, aspect: 1.6, nearMeters: 0.05, farMeters: 50)
    let m = projection * view
    let inverse = try #require(m.inverse)
    #expect(ViewerApprox.close(m * inverse, .identity, tolerance: 1e-4))
    #expect(ViewerApprox.close(inverse * m, .identity, tolerance: 1e-4))
    let p = SIMD3<Float>(0.2, -0.3, 0.7)
    #expect(ViewerApprox.close(inverse.transform(point: m.transform(point: p)), p, tolerance: 1e-3))
  }

  @Test func inverseOfATranslationNegatesIt() throws {
    let shift = Matrix4(rowMajor: [1, 0, 0, 2, 0, 1, 0, -3, 0, 0, 1, 4, 0, 0, 0, 1])
    let expected = Matrix4(rowMajor: [1, 0, 0, -2, 0, 1, 0, 3, 0, 0, 1, -4, 0, 0, 0, 1])
    #expect(try #require(shift.inverse) == expected)
  }

  @Test func singularMatrixHasNoInverse() {
    // Row 2 is twice row 0.
    let m = Matrix4(rowMajor: [1, 2, 3, 4, 0, 1, 0, 0, 2, 4, 6, 8, 0, 0, 0, 1])
    #expect(m.inverse == nil)
    #expect(Matrix4(columnMajor: SIMD16()).inverse == nil)
  }
}
