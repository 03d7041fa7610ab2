import Testing

@testable import CloudScrubCore

@Suite struct ViewerStateTests {
  /// A 640×480 camera with an off-centre principal point.
  private let intrinsics = CameraIntrinsics(
    fx: 500, fy: 510, cx: 330, cy: 250, width: 640, height: 480)

  /// An OpenCV-axes capture camera at (0.5, 1.2, -0.3), turned and tilted.
  private let worldFromCamera =
    Transform3D(axisAngle: SIMD3(0, 0.7, 0), translation: SIMD3(0.5, 1.2, -0.3))
    * Transform3D(axisAngle: SIMD3(0.25, 0, 0.1))

  private func captureState(viewportWidth: Int = 640, viewportHeight: Int = 480) -> ViewerState {
    var state = ViewerState(viewportWidth: viewportWidth, viewportHeight: viewportHeight)
    state.apply(.playback(.framesLoaded(timestampsSeconds: [0])))
    var scene = ViewerScene()
    scene.worldFromCamera = [worldFromCamera]
    scene.intrinsics = [intrinsics]
    scene.bounds = Bounds3(min: Point3(-2, -1, -3), max: Point3(2, 2, 3))
    state.apply(.sceneGrew(scene))
    state.apply(.camera(.lookThroughCaptureCamera))
    return state
  }

  private func ndc(of cameraPoint: SIMD3<Double>, in state: ViewerState) -> SIMD3<Float> {
    let world = SIMD3<Float>(worldFromCamera.apply(to: cameraPoint))
    return ViewerApprox.ndc(world, view: state.viewMatrix, projection: state.projectionMatrix)
  }

  // MARK: - Scene and camera

  @Test func cameraFollowsTheGrowingSceneUntilTheUserMovesIt() {
    var state = ViewerState()
    state.apply(
      .sceneGrew(ViewerScene(bounds: Bounds3(min: Point3(0, 0, 0), max: Point3(2, 4, 6)))))
    #expect(state.cameraFollowsScene)
    #expect(ViewerApprox.close(state.camera.pivot, SIMD3(1, 2, 3)))
    // More frames arrive: the untouched camera frames the grown bounds.
    state.apply(
      .sceneAppended(ViewerScene(bounds: Bounds3(min: Point3(0, 0, 0), max: Point3(4, 4, 6)))))
    #expect(ViewerApprox.close(state.camera.pivot, SIMD3(2, 2, 3)))
    state.apply(.camera(.pan(pixels: SIMD2(10, 0))))
    #expect(!state.cameraFollowsScene)
    let moved = state.camera
    state.apply(
      .sceneAppended(ViewerScene(bounds: Bounds3(min: Point3(-5, 0, 0), max: Point3(1, 1, 1)))))
    #expect(
      state.camera.pivot == moved.pivot && state.camera.distanceMeters == moved.distanceMeters)
    #expect(state.scene.bounds == Bounds3(min: Point3(-5, 0, 0), max: Point3(4, 4, 6)))
    // Asking for it fits the grown bounds.
    state.apply(.camera(.fit))
    #expect(ViewerApprox.close(state.camera.pivot, SIMD3(-0.5, 2, 3)))
  }

  @Test func orbitViewUsesTheOrbitCamera() {
    var state = ViewerState(viewportWidth: 800, viewportHeight: 400)
    state.apply(.camera(.rotate(pixels: SIMD2(40, 10))))
    #expect(state.viewMatrix == state.camera.viewMatrix)
    #expect(state.projectionMatrix == state.camera.projectionMatrix(aspect: 2))
    state.apply(.camera(.setViewport(width: 300, height: 0)))
    #expect(state.viewportWidth == 300 && state.viewportHeight == 1)
  }

  @Test func drawRangeFollowsThePlayhead() {
    var state = ViewerState()
    state.apply(.playback(.framesLoaded(timestampsSeconds: [0, 0.1, 0.2, 0.3])))
    state.apply(.playback(.seek(frame: 2)))
    #expect(state.drawRange(frameRanges: [0, 3, 7, 12, 20]) == 0..<12)
    state.apply(.display(.cycleColorMode))
    #expect(state.display.colorMode == .height)
  }

  // MARK: - Capture camera

  @Test func capturePointOnTheOpticalAxisProjectsToThePrincipalPoint() {
    let state = captureState()
    #expect(state.viewMode == .captureCamera)
    let p = ndc(of: SIMD3(0, 0, 2), in: state)
    // (2·330/640 − 1, 1 − 2·250/480)
    #expect(ViewerApprox.close(SIMD2(p.x, p.y), SIMD2(0.03125, -0.041_666_67)))
    #expect(p.z > -1 && p.z < 1)
  }

  @Test func capturePointAtAPixelProjectsToThatPixelsNDC() {
    let state = captureState()
    // Pixel (100, 50): its centre (100.5, 50.5) back-projected to depth 3.
    let (u, v, depth) = (100.5, 50.5, 3.0)
    let cameraPoint = SIMD3((u - 330) / 500 * depth, (v - 250) / 510 * depth, depth)
    let p = ndc(of: cameraPoint, in: state)
    #expect(
      ViewerApprox.close(SIMD2(p.x, p.y), SIMD2(Float(2 * u / 640 - 1), Float(1 - 2 * v / 480))))
  }

  @Test func intrinsicsProjectionMapsImageCornersToNDCCorners() {
    // In OpenGL view axes a point at depth 2 is at z = −2, and image y runs down.
    let projection = Matrix4.projection(intrinsics: intrinsics, nearMeters: 0.1, farMeters: 10)
    let topLeft = SIMD3<Float>(Float(-330.0 / 500 * 2), Float(250.0 / 510 * 2), -2)
    #expect(
      ViewerApprox.close(
        projection.transform(point: topLeft), SIMD3(-1, 1, projection.transform(point: topLeft).z)))
    let bottomRight = SIMD3<Float>(Float(310.0 / 500 * 2), Float(-230.0 / 510 * 2), -2)
    let q = projection.transform(point: bottomRight)
    #expect(ViewerApprox.close(SIMD2(q.x, q.y), SIMD2(1, -1)))
    #expect(ViewerApprox.close(projection.transform(point: SIMD3(0, 0, -0.1)).z, -1))
    #expect(ViewerApprox.close(projection.transform(point: SIMD3(0, 0, -10)).z, 1))
  }

  @Test func wideViewportLetterboxesTheCaptureImage() {
    // Twice as wide as the image's 4:3: the image fills the height, half the width.
    let state = captureState(viewportWidth: 1280, viewportHeight: 480)
    let p = ndc(of: SIMD3(0, 0, 2), in: state)
    #expect(
      ViewerApprox.close(SIMD2(p.x, p.y), SIMD2(0.03125 * (4.0 / 3) / (8.0 / 3), -0.041_666_67)))
  }

  @Test func captureViewFollowsThePlayhead() {
    var state = captureState()
    state.apply(.playback(.framesLoaded(timestampsSeconds: [0.1])))
    var more = ViewerScene()
    more.appendFrame(
      pose: CameraPose(
        worldFromCamera: Transform3D(axisAngle: .zero, translation: SIMD3(4, 5, 6)), axes: .openGL),
      intrinsics: intrinsics)
    state.apply(.sceneAppended(more))
    #expect(state.playback.currentFrame == 1)
    #expect(ViewerApprox.close(state.eyeInWorld, SIMD3(4, 5, 6)))
    state.apply(.playback(.step(-1)))
    #expect(ViewerApprox.close(state.eyeInWorld, SIMD3(0.5, 1.2, -0.3)))
    // The appended OpenGL pose was stored in OpenCV axes: its forward is world −z.
    #expect(state.scene.worldFromCamera[1].rotate(SIMD3(0, 0, 1)) == SIMD3(0, 0, -1))
  }

  @Test func leavingTheCaptureViewKeepsTheEye() {
    var state = captureState()
    let forward = SIMD3<Float>(worldFromCamera.rotate(SIMD3(0, 0, 1)))
    state.apply(.camera(.rotate(pixels: .zero)))
    #expect(state.viewMode == .orbit)
    #expect(ViewerApprox.close(state.camera.eye, SIMD3(0.5, 1.2, -0.3)))
    #expect(ViewerApprox.close(state.camera.forward, forward))
    // Zooming or panning from the capture view also leaves it.
    state.apply(.camera(.lookThroughCaptureCamera))
    state.apply(.camera(.zoom(steps: 1, cursorNDC: .zero)))
    #expect(state.viewMode == .orbit)
  }

  @Test func noCaptureCameraKeepsTheOrbitView() {
    var state = ViewerState()
    state.apply(.camera(.lookThroughCaptureCamera))
    #expect(state.viewMode == .orbit)
  }
}

@Suite struct ViewerFirstViewTests {
  @Test func aRecordingFirstAppearsFromItsFirstCameraSide() {
    // A capture camera (OpenCV axes) looking along world −x, level.
    let worldFromCamera = Transform3D(
      rowMajor: [0, 0, -1, 0, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, 0, 1])
    var state = ViewerState()
    state.apply(
      .sceneAppended(
        ViewerScene(
          bounds: Bounds3(min: Point3(-1, -1, -1), max: Point3(1, 1, 1)),
          worldFromCamera: [worldFromCamera],
          intrinsics: [CameraIntrinsics(fx: 100, fy: 100, cx: 50, cy: 50, width: 100, height: 100)])
      ))
    // The orbit camera looks along −x too (from above), so its eye is on the +x side.
    #expect(state.camera.forward.x < -0.5)
    #expect(abs(state.camera.forward.z) < 1e-4)
    #expect(state.camera.eye.x > 0)
  }
}
