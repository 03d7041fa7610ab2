import Foundation
import Testing

@testable import CloudScrubCore

/// `VideoDirector`: which moment and which camera each video frame shows, against
/// counts and poses worked out by hand.
@Suite struct VideoDirectorTests {
  /// A loaded state: `count` frames at `times`, cameras at x = 0.1 m a frame looking
  /// along +z (OpenCV axes), bounds a 2 m cube about the origin.
  static func state(times: [Double]) -> ViewerState {
    let poses = times.indices.map {
      Transform3D(axisAngle: .zero, translation: SIMD3(0.1 * Double($0), 0, 0))
    }
    let k = CameraIntrinsics(fx: 100, fy: 100, cx: 50, cy: 40, width: 100, height: 80)
    let scene = ViewerScene(
      bounds: Bounds3(min: Point3(-1, -1, -1), max: Point3(1, 1, 1)), worldFromCamera: poses,
      intrinsics: Array(repeating: k, count: times.count))
    var state = ViewerState(scene: scene)
    state.apply(.playback(.framesLoaded(timestampsSeconds: times)))
    return state
  }

  @Test func aTimelineLastsAsLongAsTheCaptureAtItsSpeed() {
    // Ten frames 0.1 s apart: 0.9 s, 27 video frames at 30 a second, and the first.
    let times = (0..<10).map { 5 + 0.1 * Double($0) }
    let director = VideoDirector(
      shot: VideoShot(motion: .timeline(speed: 1), framesPerSecond: 30),
      state: Self.state(times: times))
    #expect(director.frameCount == 28)
    // Video frame 4 is at 0.1333 s: frame 1's time (0.1) has come, frame 2's (0.2) not.
    #expect(director.timelinePosition(ofFrame: 0) == 0)
    #expect(director.timelinePosition(ofFrame: 3) == 1)
    #expect(director.timelinePosition(ofFrame: 4) == 1)
    #expect(director.timelinePosition(ofFrame: 6) == 2)
    #expect(director.timelinePosition(ofFrame: 27) == 9)
    let twice = VideoDirector(
      shot: VideoShot(motion: .timeline(speed: 2), framesPerSecond: 30),
      state: Self.state(times: times))
    // 0.45 s at 30 a second is 13.5 frame intervals: 14, and the first, so the last
    // video frame reaches the last capture frame.
    #expect(twice.frameCount == 15)
    #expect(twice.timelinePosition(ofFrame: 14) == 9)
    #expect(twice.timelinePosition(ofFrame: 3) == 2)
  }

  @Test func timestampsThatDoNotIncreaseFallBackToTheFrameRate() {
    // Every timestamp equal: frames at the 30 a second fallback, 9 frames = 0.3 s.
    let director = VideoDirector(
      shot: VideoShot(motion: .timeline(speed: 1), framesPerSecond: 10),
      state: Self.state(times: Array(repeating: 2, count: 10)))
    #expect(director.frameCount == 4)
    #expect(director.timelinePosition(ofFrame: 1) == 3)
  }

  @Test func aTimelineFrameSeeksAndLooksAsAsked() {
    let state = Self.state(times: (0..<10).map { 0.1 * Double($0) })
    var orbit = VideoDirector(
      shot: VideoShot(motion: .timeline(speed: 1), camera: .orbit, framesPerSecond: 10),
      state: state)
    #expect(orbit.commands(forFrame: 5) == [.playback(.pause), .playback(.seek(frame: 5))])
    var capture = VideoDirector(
      shot: VideoShot(motion: .timeline(speed: 1), camera: .capture, framesPerSecond: 10),
      state: state)
    #expect(capture.commands(forFrame: 2).last == .camera(.lookThroughCaptureCamera))
  }

  @Test func aTurntableTurnsOnceAndEndsWhereItBegan() {
    let state = Self.state(times: [0, 1])
    var director = VideoDirector(
      shot: VideoShot(motion: .turntable(seconds: 2), framesPerSecond: 4), state: state)
    #expect(director.frameCount == 9)
    let first = director.commands(forFrame: 0)
    let quarter = director.commands(forFrame: 2)
    let last = director.commands(forFrame: 8)
    #expect(first == last)
    let start = state.camera.azimuthRadians
    guard case .camera(.orbit(let azimuth, let elevation, let distance)) = quarter.last else {
      Issue.record("no orbit: \(quarter)")
      return
    }
    #expect(abs(azimuth - (start + .pi / 2)) < 1e-5)
    #expect(elevation == state.camera.elevationRadians)
    #expect(distance == state.camera.distanceMeters)
  }

  @Test func aPathIsInterpolatedBetweenItsPoses() throws {
    // From the origin looking along +z to (2, 0, 0) turned 90° about +y, 1 s apart.
    let a = CameraPose(worldFromCamera: .identity, axes: .openCV)
    let b = CameraPose(
      worldFromCamera: Transform3D(axisAngle: SIMD3(0, .pi / 2, 0), translation: SIMD3(2, 0, 0)),
      axes: .openCV)
    let path = Trajectory(timestampsSeconds: [10, 11], poses: [a, b])
    let half = try #require(VideoDirector.pose(of: path, at: 10.5))
    #expect(abs(half.position.x - 1) < 1e-12)
    let turned = half.worldFromCamera.rotationVector
    #expect(abs(turned.y - .pi / 4) < 1e-9 && abs(turned.x) < 1e-12 && abs(turned.z) < 1e-12)
    #expect(VideoDirector.pose(of: path, at: 9) == a)
    #expect(VideoDirector.pose(of: path, at: 12) == b)
    // 1 s at 10 frames a second: 11 frames; the middle one's eye is at x = 1.
    var director = VideoDirector(
      shot: VideoShot(motion: .path(path, speed: 1), framesPerSecond: 10),
      state: Self.state(times: [0, 1]))
    #expect(director.frameCount == 11)
    guard case .camera(.place(let camera)) = director.commands(forFrame: 5).last else {
      Issue.record("no placed camera")
      return
    }
    #expect(abs(camera.eye.x - 1) < 1e-4 && abs(camera.eye.y) < 1e-4 && abs(camera.eye.z) < 1e-4)
  }

  @Test func theFollowCameraLagsBehindTheCaptureCameraAndCatchesUp() {
    // The capture camera jumps from x = 0 to x = 0.9 at frame 9 and stays.
    let times = (0..<10).map { 0.1 * Double($0) }
    let state = Self.state(times: times)
    var follow = VideoFollowCamera(scene: state.scene, framesPerSecond: 30)
    let first = follow.camera(atFrame: 0, startingAt: state.camera)
    let look = VideoFollowCamera.lookDistance(sceneRadius: state.camera.sceneRadiusMeters)
    // Looking along +z from the origin: the pivot is the look distance ahead.
    #expect(abs((first?.pivot.z ?? 0) - look) < 1e-4)
    #expect(abs((first?.pivot.x ?? 1)) < 1e-5)
    let next = follow.camera(atFrame: 9, startingAt: state.camera)
    // One frame at a 0.6 s lag at 30 a second moves 1 − e^(−1/18) of the way.
    let share = Float(1 - exp(-1 / 18.0))
    #expect(abs((next?.pivot.x ?? 0) - 0.9 * share) < 1e-4)
    var caught = next
    for _ in 0..<300 { caught = follow.camera(atFrame: 9, startingAt: state.camera) }
    #expect(abs((caught?.pivot.x ?? 0) - 0.9) < 1e-3)
  }

  @Test func aSideBySideFrameHoldsTheViewAndTheScaledImage() {
    // A 4:3 image beside a 40×12 frame: 16 wide (12 × 4/3), view 24 wide.
    let layout = VideoLayout(width: 40, height: 12, imageAspect: 4.0 / 3)
    #expect(layout.imageWidth == 16 && layout.viewWidth == 24)
    let view = RGBImage(width: 24, height: 12, pixels: Array(repeating: 7, count: 24 * 12 * 3))
    // An 8×6 image whose left half is red, right half blue: doubled each way.
    var pixels: [UInt8] = []
    for _ in 0..<6 {
      for x in 0..<8 { pixels += x < 4 ? [255, 0, 0] : [0, 0, 255] }
    }
    let frame = layout.compose(view: view, image: RGBImage(width: 8, height: 6, pixels: pixels))
    #expect(frame.pixel(x: 23, y: 5) == RGB8(7, 7, 7))
    #expect(frame.pixel(x: 24, y: 0) == RGB8(255, 0, 0))
    #expect(frame.pixel(x: 31, y: 11) == RGB8(255, 0, 0))
    #expect(frame.pixel(x: 32, y: 11) == RGB8(0, 0, 255))
    #expect(
      VideoLayout(width: 40, height: 12, imageAspect: nil).compose(view: view, image: nil) == view)
  }
}
