import CloudScrubCore
import Foundation
import TestSupport
import Testing

/// The scene's cameras follow the poses shown: a frame's shown pose is its correction
/// times its recorded pose, worked out here by hand, and the recorded poses come back
/// when the corrections are taken away.
@Suite struct ShownPosesTests {
  static let intrinsics = CameraIntrinsics(
    fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)

  /// Frame 0 at the origin, frame 1 at (1, 0, 0), both with OpenCV axes as the world's.
  static func state() -> ViewerState {
    var state = ViewerState(viewportWidth: 640, viewportHeight: 480)
    state.apply(.playback(.framesLoaded(timestampsSeconds: [0, 0.1])))
    var scene = ViewerScene(bounds: Bounds3(min: Point3(-1, -1, 1), max: Point3(2, 1, 3)))
    for x in [0.0, 1.0] {
      scene.appendFrame(
        pose: CameraPose(
          worldFromCamera: Transform3D(axisAngle: .zero, translation: SIMD3(x, 0, 0)),
          axes: .openCV),
        intrinsics: intrinsics)
    }
    state.apply(.sceneGrew(scene))
    return state
  }

  /// Frame 1's correction: a quarter turn about z (x to y), then up 0.5 m along z.
  /// Its camera centre (1, 0, 0) goes to (0, 1, 0.5); its forward +z stays +z and its
  /// right +x turns to +y. Frame 0 keeps its pose.
  static let corrections = [
    Transform3D.identity,
    Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(0, 0, 0.5)),
  ]

  static func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
    let d = a - b
    return (d * d).sum().squareRoot() < 1e-12
  }

  @Test func theShownCamerasAreTheCorrectedOnesAndTheRecordedComeBack() {
    var state = Self.state()
    state.apply(Refinements.apply(Self.corrections))
    let scene = state.scene
    #expect(Self.close(scene.worldFromCamera[0].translation, SIMD3(0, 0, 0)))
    #expect(Self.close(scene.worldFromCamera[1].translation, SIMD3(0, 1, 0.5)))
    #expect(Self.close(scene.worldFromCamera[1].rotate(SIMD3(1, 0, 0)), SIMD3(0, 1, 0)))
    #expect(Self.close(scene.worldFromCamera[1].rotate(SIMD3(0, 0, 1)), SIMD3(0, 0, 1)))
    #expect(Self.close(scene.worldFromRecordedCamera[1].translation, SIMD3(1, 0, 0)))
    #expect(scene.poseCorrections == Self.corrections)
    state.apply(.edit(.showRefinedPoses(false)))
    #expect(state.scene.worldFromCamera == state.scene.worldFromRecordedCamera)
    #expect(Self.close(state.scene.worldFromCamera[1].translation, SIMD3(1, 0, 0)))
  }

  @Test func theCaptureCameraLooksFromTheShownPose() {
    var state = Self.state()
    state.apply(.playback(.seek(frame: 1)))
    state.apply(.camera(.lookThroughCaptureCamera))
    #expect(state.eyeInWorld == SIMD3(1, 0, 0))
    state.apply(Refinements.apply(Self.corrections))
    #expect(abs(state.eyeInWorld.x) < 1e-6)
    #expect(abs(state.eyeInWorld.y - 1) < 1e-6 && abs(state.eyeInWorld.z - 0.5) < 1e-6)
    // A point 2 m ahead of the corrected camera is at the image centre.
    let ahead = (state.projectionMatrix * state.viewMatrix).transform(point: SIMD3(0, 1, 2.5))
    #expect(abs(ahead.x) < 1e-5 && abs(ahead.y) < 1e-5)
  }

  @Test func framesAppendedOrRegrownKeepTheCorrections() {
    var state = Self.state()
    state.apply(Refinements.apply(Self.corrections + [Self.corrections[1]]))
    var more = ViewerScene()
    more.appendFrame(
      pose: CameraPose(
        worldFromCamera: Transform3D(axisAngle: .zero, translation: SIMD3(2, 0, 0)),
        axes: .openCV),
      intrinsics: Self.intrinsics)
    state.apply(.sceneAppended(more))
    // Frame 2 at (2, 0, 0) turned a quarter about z: (0, 2, 0), up 0.5: (0, 2, 0.5).
    #expect(Self.close(state.scene.worldFromCamera[2].translation, SIMD3(0, 2, 0.5)))
    // A scene the loader regrows whole keeps showing the corrections.
    var regrown = ViewerScene(bounds: state.scene.bounds)
    regrown.worldFromCamera = state.scene.worldFromRecordedCamera
    regrown.intrinsics = state.scene.intrinsics
    state.apply(.sceneGrew(regrown))
    #expect(Self.close(state.scene.worldFromCamera[1].translation, SIMD3(0, 1, 0.5)))
    // Corrections for fewer frames than loaded leave the rest recorded.
    state.apply(Refinements.apply([Self.corrections[1]]))
    #expect(Self.close(state.scene.worldFromCamera[0].translation, SIMD3(0, 0, 0.5)))
    #expect(Self.close(state.scene.worldFromCamera[2].translation, SIMD3(2, 0, 0)))
  }
}
