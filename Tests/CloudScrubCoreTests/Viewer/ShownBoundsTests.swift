import CloudScrubCore
import Foundation
import TestSupport
import Testing

/// The scene's bounds (which the camera fits, and the grid and the height and depth
/// ramps span) follow the poses shown: each frame's box moves with its correction,
/// worked out here by hand, and the recorded bounds come back without corrections.
@Suite struct ShownBoundsTests {
  static let intrinsics = CameraIntrinsics(
    fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)

  /// Two frames at the origin; frame 0's points fill x, y, z ∈ [0, 1], frame 1's
  /// x ∈ [2, 3], y ∈ [0, 1], z ∈ [0, 2].
  static func scene() -> ViewerScene {
    var scene = ViewerScene()
    let boxes = [
      Bounds3(min: Point3(0, 0, 0), max: Point3(1, 1, 1)),
      Bounds3(min: Point3(2, 0, 0), max: Point3(3, 1, 2)),
    ]
    for box in boxes {
      scene.appendFrame(
        pose: CameraPose(worldFromCamera: .identity, axes: .openCV), intrinsics: intrinsics,
        bounds: box)
    }
    return scene
  }

  /// Frame 1's correction: a quarter turn about z (x to y, y to −x), then 0.5 m up z.
  /// Its box's corners (2…3, 0…1, 0…2) go to (−1…0, 2…3, 0.5…2.5).
  static let corrections = [
    Transform3D.identity,
    Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(0, 0, 0.5)),
  ]

  static func close(_ a: Bounds3?, _ b: Bounds3) -> Bool {
    guard let a else { return false }
    let d = [
      a.min.x - b.min.x, a.min.y - b.min.y, a.min.z - b.min.z, a.max.x - b.max.x,
      a.max.y - b.max.y, a.max.z - b.max.z,
    ]
    return d.allSatisfy { abs($0) < 1e-6 }
  }

  @Test func theBoundsFollowTheShownPosesAndComeBack() {
    var scene = Self.scene()
    let recorded = Bounds3(min: Point3(0, 0, 0), max: Point3(3, 1, 2))
    #expect(Self.close(scene.bounds, recorded), "\(String(describing: scene.bounds))")
    scene.showPoseCorrections(Self.corrections)
    // Frame 0's [0, 1]³ and frame 1's moved box (−1…0, 2…3, 0.5…2.5).
    let shown = Bounds3(min: Point3(-1, 0, 0), max: Point3(1, 3, 2.5))
    #expect(Self.close(scene.bounds, shown), "\(String(describing: scene.bounds))")
    scene.showPoseCorrections(nil)
    #expect(Self.close(scene.bounds, recorded))
  }

  @Test func theStateFitsTheCameraToTheShownBounds() {
    var state = ViewerState(viewportWidth: 640, viewportHeight: 480)
    state.apply(.sceneGrew(Self.scene()))
    state.apply(Refinements.apply(Self.corrections))
    #expect(Self.close(state.scene.bounds, Bounds3(min: Point3(-1, 0, 0), max: Point3(1, 3, 2.5))))
    state.apply(.camera(.fit))
    // The orbit pivot is the shown box's centre (0, 1.5, 1.25).
    let pivot = state.camera.pivot
    #expect(abs(pivot.x) < 1e-5 && abs(pivot.y - 1.5) < 1e-5 && abs(pivot.z - 1.25) < 1e-5)
  }

  @Test func framesThatJoinWhileCorrectedMoveToo() {
    // Frame 1 joins (as the loader appends it) after the corrections are shown.
    var state = ViewerState(viewportWidth: 640, viewportHeight: 480)
    var first = ViewerScene()
    first.appendFrame(
      pose: CameraPose(worldFromCamera: .identity, axes: .openCV), intrinsics: Self.intrinsics,
      bounds: Bounds3(min: Point3(0, 0, 0), max: Point3(1, 1, 1)))
    state.apply(.sceneAppended(first))
    state.apply(Refinements.apply(Self.corrections))
    var more = ViewerScene()
    more.appendFrame(
      pose: CameraPose(worldFromCamera: .identity, axes: .openCV), intrinsics: Self.intrinsics,
      bounds: Bounds3(min: Point3(2, 0, 0), max: Point3(3, 1, 2)))
    state.apply(.sceneAppended(more))
    #expect(Self.close(state.scene.bounds, Bounds3(min: Point3(-1, 0, 0), max: Point3(1, 3, 2.5))))
  }

  @Test func boundsOfNoFrameDoNotMove() {
    var scene = ViewerScene(bounds: Bounds3(min: Point3(5, 5, 5), max: Point3(6, 6, 6)))
    scene.appendFrame(
      pose: CameraPose(worldFromCamera: .identity, axes: .openCV), intrinsics: Self.intrinsics,
      bounds: Bounds3(min: Point3(0, 0, 0), max: Point3(1, 1, 1)))
    scene.showPoseCorrections([Transform3D(axisAngle: .zero, translation: SIMD3(1, 0, 0))])
    #expect(Self.close(scene.bounds, Bounds3(min: Point3(1, 0, 0), max: Point3(6, 6, 6))))
  }
}
