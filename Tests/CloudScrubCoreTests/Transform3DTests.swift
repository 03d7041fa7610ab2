import Testing

@testable import CloudScrubCore

@Suite struct Transform3DTests {
  private func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
    let d = a - b
    return (d * d).sum() < 1e-20
  }

  @Test func quarterTurnAboutZMapsXToY() {
    let turn = Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2))
    #expect(close(turn.apply(to: SIMD3(1, 0, 0)), SIMD3(0, 1, 0)))
    // The quaternion (0, 0, sin 45°, cos 45°) is the same turn.
    let q = Transform3D(
      quaternion: SIMD4(0, 0, 0.5.squareRoot(), 0.5.squareRoot()), translation: .zero)
    #expect(close(q.apply(to: SIMD3(1, 0, 0)), SIMD3(0, 1, 0)))
  }

  @Test func rigidInverseUndoesRotationAndTranslation() {
    let transform = Transform3D(
      axisAngle: SIMD3(0.3, -1.1, 0.7), translation: SIMD3(1.5, -2, 0.25))
    let inverse = transform.rigidInverse
    for p in [SIMD3(0.0, 0, 0), SIMD3(1.0, 2, 3), SIMD3(-4.0, 0.5, 9)] {
      #expect(close(inverse.apply(to: transform.apply(to: p)), p))
      #expect(close(transform.apply(to: inverse.apply(to: p)), p))
    }
    // A quarter turn about z with translation (1, 0, 0): the inverse turns back and
    // takes (1, 0, 0) to the origin.
    let quarter = Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(1, 0, 0))
    #expect(close(quarter.rigidInverse.apply(to: SIMD3(1, 0, 0)), .zero))
    #expect(close(quarter.rigidInverse.apply(to: SIMD3(1, 1, 0)), SIMD3(1, 0, 0)))
  }

  @Test func rowMajorRoundTripAndComposition() {
    let values: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 1]
    let m = Transform3D(rowMajor: values)
    #expect(m.rowMajor == values)
    #expect(m[0, 3] == 4 && m[2, 1] == 10)
    let shift = Transform3D(rowMajor: [1, 0, 0, 5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    // (shift * m) applies m first: m·(0,0,0) = (4, 8, 12), then + (5, 0, 0).
    #expect((shift * m).apply(to: .zero) == SIMD3(9, 8, 12))
  }

  @Test func openGLPoseSeenInOpenCVAxes() {
    // A camera at (0, 0, 2) with identity rotation in OpenGL axes looks along −z; the
    // OpenCV-axes point (0, 0, 1) (one metre ahead) is at world (0, 0, 1).
    let pose = CameraPose(
      worldFromCamera: Transform3D(axisAngle: .zero, translation: SIMD3(0, 0, 2)), axes: .openGL)
    #expect(close(pose.worldFromOpenCVCamera.apply(to: SIMD3(0, 0, 1)), SIMD3(0, 0, 1)))
    #expect(close(pose.worldFromOpenCVCamera.apply(to: SIMD3(0, 1, 1)), SIMD3(0, -1, 1)))
  }
}
