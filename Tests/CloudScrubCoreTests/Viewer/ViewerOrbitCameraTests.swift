import Foundation
import Testing

@testable import CloudScrubCore

@Suite struct ViewerOrbitCameraTests {
  /// Looking at the origin from (0, 0, 2) with a 90° field of view: the view at the
  /// pivot is 4 m tall.
  private func frontCamera() -> OrbitCamera {
    OrbitCamera(
      azimuthRadians: 0, elevationRadians: 0, distanceMeters: 2,
      verticalFieldOfViewRadians: .pi / 2)
  }

  @Test func defaultIsAThreeQuarterView() {
    let camera = OrbitCamera()
    #expect(ViewerApprox.close(camera.azimuthRadians, .pi / 4))
    #expect(ViewerApprox.close(camera.elevationRadians, .pi / 6))
    #expect(ViewerApprox.close(camera.verticalFieldOfViewRadians, 50 * .pi / 180))
    #expect(camera.up == .y)
    // From above, in front and to the right of the pivot.
    #expect(camera.eye.x > 0 && camera.eye.y > 0 && camera.eye.z > 0)
  }

  @Test func frontCameraLooksDownMinusZ() {
    let camera = frontCamera()
    #expect(ViewerApprox.close(camera.eye, SIMD3(0, 0, 2)))
    let expected = Matrix4.lookAt(eye: SIMD3(0, 0, 2), target: .zero, up: SIMD3(0, 1, 0))
    #expect(ViewerApprox.close(camera.viewMatrix, expected))
    #expect(ViewerApprox.close(camera.right, SIMD3(1, 0, 0)))
    #expect(ViewerApprox.close(camera.screenUp, SIMD3(0, 1, 0)))
  }

  @Test func zUpFrontCameraLooksAlongPlusY() {
    var camera = frontCamera()
    camera.up = .z
    #expect(ViewerApprox.close(camera.eye, SIMD3(0, -2, 0)))
    #expect(ViewerApprox.close(camera.right, SIMD3(1, 0, 0)))
    #expect(ViewerApprox.close(camera.screenUp, SIMD3(0, 0, 1)))
  }

  @Test func rotatingByAFullViewportHeightTurnsHalfAround() {
    var camera = frontCamera()
    camera.rotate(byPixels: SIMD2(720, 0), viewportHeight: 720)
    #expect(ViewerApprox.close(abs(camera.azimuthRadians), .pi))
    #expect(ViewerApprox.close(camera.eye, SIMD3(0, 0, -2)))
    #expect(camera.pivot == .zero)
    // A tenth of the height vertically: π/10 of elevation, the eye rises.
    camera.rotate(byPixels: SIMD2(0, 72), viewportHeight: 720)
    #expect(ViewerApprox.close(camera.elevationRadians, .pi / 10))
    #expect(ViewerApprox.close(camera.eye.y, 2 * sin(.pi / 10)))
    #expect(ViewerApprox.close(ViewerMath.length(camera.eye - camera.pivot), 2))
  }

  @Test func elevationStopsShortOfThePoles() {
    var camera = frontCamera()
    camera.rotate(byPixels: SIMD2(0, 5000), viewportHeight: 720)
    #expect(camera.elevationRadians == OrbitCamera.elevationLimitRadians)
    camera.rotate(byPixels: SIMD2(0, -20000), viewportHeight: 720)
    #expect(camera.elevationRadians == -OrbitCamera.elevationLimitRadians)
    camera.distanceMeters = -3
    #expect(camera.distanceMeters == OrbitCamera.minimumDistanceMeters)
  }

  @Test func panByAQuarterHeightMovesThePivotOneMetre() {
    // 600 px cover 4 m at the pivot; 150 px right drags the scene 1 m right.
    var camera = frontCamera()
    camera.pan(byPixels: SIMD2(150, 0), viewportHeight: 600)
    #expect(ViewerApprox.close(camera.pivot, SIMD3(-1, 0, 0)))
    #expect(ViewerApprox.close(camera.eye, SIMD3(-1, 0, 2)))
    camera.pan(byPixels: SIMD2(0, 300), viewportHeight: 600)
    #expect(ViewerApprox.close(camera.pivot, SIMD3(-1, 2, 0)))
  }

  @Test func panKeepsThePointAtPivotDepthUnderTheCursor() {
    var camera = OrbitCamera(
      pivot: SIMD3(1, 0.5, -2), azimuthRadians: 0.7, elevationRadians: 0.4, distanceMeters: 3.5)
    let (width, height): (Float, Float) = (900, 600)
    let aspect = width / height
    // A point in the plane through the pivot facing the camera, off centre.
    let point = camera.pivot + camera.right * 0.4 - camera.screenUp * 0.3
    let before = ViewerApprox.ndc(point, camera: camera, aspect: aspect)
    let delta = SIMD2<Float>(30, -45)
    camera.pan(byPixels: delta, viewportHeight: height)
    let after = ViewerApprox.ndc(point, camera: camera, aspect: aspect)
    // Window pixels run down, NDC up.
    let expected = before + SIMD2(2 * delta.x / width, -2 * delta.y / height)
    #expect(ViewerApprox.close(after, expected))
  }

  @Test func zoomOneStepTowardTheRightEdge() {
    // The cursor at the right edge points at (2, 0, 0) on the pivot plane; one step
    // scales the distance to 1.7 and moves the pivot 15 % of the way there.
    var camera = frontCamera()
    camera.zoom(steps: 1, towardNormalizedCursor: SIMD2(1, 0), aspect: 1)
    #expect(ViewerApprox.close(camera.distanceMeters, 1.7))
    #expect(ViewerApprox.close(camera.pivot, SIMD3(0.3, 0, 0)))
    #expect(
      ViewerApprox.close(ViewerApprox.ndc(SIMD3(2, 0, 0), camera: camera, aspect: 1), SIMD2(1, 0)))
  }

  @Test func zoomKeepsThePointUnderTheCursorFixed() {
    var camera = OrbitCamera(
      pivot: SIMD3(-0.5, 1, 2), azimuthRadians: -1.2, elevationRadians: 0.3, distanceMeters: 6)
    let aspect: Float = 1.5
    let cursor = SIMD2<Float>(0.5, -0.25)
    let halfHeight = camera.viewHeightAtPivotMeters / 2
    let point =
      camera.pivot + camera.right * (cursor.x * halfHeight * aspect) + camera.screenUp
      * (cursor.y * halfHeight)
    #expect(ViewerApprox.close(ViewerApprox.ndc(point, camera: camera, aspect: aspect), cursor))
    camera.zoom(steps: 2, towardNormalizedCursor: cursor, aspect: aspect)
    #expect(ViewerApprox.close(camera.distanceMeters, 6 * 0.85 * 0.85))
    #expect(ViewerApprox.close(ViewerApprox.ndc(point, camera: camera, aspect: aspect), cursor))
    camera.zoom(steps: -3, towardNormalizedCursor: cursor, aspect: aspect)
    #expect(ViewerApprox.close(ViewerApprox.ndc(point, camera: camera, aspect: aspect), cursor))
  }

  @Test func fitPutsAllEightCornersInsideTheFrustum() {
    let bounds = Bounds3(min: Point3(-1, -2, 0), max: Point3(3, 1, 2))
    for aspect: Float in [0.5, 1, 2.5] {
      for (azimuth, elevation): (Float, Float) in [(0, 0), (0.8, 0.5), (-2, -1.2)] {
        var camera = OrbitCamera(azimuthRadians: azimuth, elevationRadians: elevation)
        camera.fit(bounds: bounds, aspect: aspect)
        #expect(ViewerApprox.close(camera.pivot, SIMD3(1, -0.5, 1)))
        #expect(camera.azimuthRadians == azimuth && camera.elevationRadians == elevation)
        let view = camera.viewMatrix
        let projection = camera.projectionMatrix(aspect: aspect)
        for corner in 0..<8 {
          let p = SIMD3<Float>(
            corner & 1 == 0 ? -1 : 3, corner & 2 == 0 ? -2 : 1, corner & 4 == 0 ? 0 : 2)
          let clip = (projection * view).transform(SIMD4(p.x, p.y, p.z, 1))
          #expect(clip.w > 0)
          let ndc = SIMD3(clip.x, clip.y, clip.z) / clip.w
          #expect(abs(ndc.x) < 1 && abs(ndc.y) < 1 && abs(ndc.z) < 1)
        }
      }
    }
  }

  @Test func fitDistanceMatchesTheBoundingSphere() {
    // Radius √29 / 2 in a 90° view: d = 1.1 · r / sin 45°.
    var camera = frontCamera()
    camera.fit(bounds: Bounds3(min: Point3(-1, -2, 0), max: Point3(3, 1, 2)), aspect: 2)
    let radius = Float(29).squareRoot() / 2
    #expect(ViewerApprox.close(camera.distanceMeters, 1.1 * radius / sin(.pi / 4)))
  }

  @Test func lookingLikeAnOpenGLCameraKeepsEyeAndDirection() {
    // An identity-rotation OpenGL camera at (1, 2, 3) looks down −z.
    let pose = Transform3D(axisAngle: .zero, translation: SIMD3(1, 2, 3))
    let camera = OrbitCamera(lookingLike: pose, axes: .openGL, pivotDistanceMeters: 2)
    #expect(ViewerApprox.close(camera.eye, SIMD3(1, 2, 3)))
    #expect(ViewerApprox.close(camera.pivot, SIMD3(1, 2, 1)))
    #expect(ViewerApprox.close(camera.azimuthRadians, 0))
    #expect(ViewerApprox.close(camera.elevationRadians, 0))
  }

  @Test func lookingLikeAnOpenCVCameraAlongPlusX() {
    // OpenCV axes: forward (z) → +x, down (y) → −y, right (x) → +z.
    let pose = Transform3D(rowMajor: [0, 0, 1, 0, 0, -1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1])
    let camera = OrbitCamera(lookingLike: pose, axes: .openCV, pivotDistanceMeters: 4)
    #expect(ViewerApprox.close(camera.eye, SIMD3(0, 1, 0)))
    #expect(ViewerApprox.close(camera.forward, SIMD3(1, 0, 0)))
    #expect(ViewerApprox.close(camera.right, SIMD3(0, 0, 1)))
    #expect(ViewerApprox.close(camera.azimuthRadians, -.pi / 2))
  }

  @Test func lookingLikeARolledCameraDropsTheRollOnly() {
    let rolled =
      Transform3D(axisAngle: SIMD3(0, 0.4, 0), translation: SIMD3(0.5, -1, 2))
      * Transform3D(axisAngle: SIMD3(-0.3, 0, 0)) * Transform3D(axisAngle: SIMD3(0, 0, 0.6))
    let camera = OrbitCamera(lookingLike: rolled, axes: .openGL, pivotDistanceMeters: 3, up: .y)
    let forward = SIMD3<Float>(rolled.rotate(SIMD3(0, 0, -1)))
    #expect(ViewerApprox.close(camera.eye, SIMD3(0.5, -1, 2)))
    #expect(ViewerApprox.close(camera.forward, forward))
    #expect(abs(camera.right.y) < 1e-6)
  }
}
