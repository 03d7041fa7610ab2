import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

@Suite struct StreamingLoadTests {
  /// Three 2×2 frames at depth 1, 2 and 3 m, 0.5 s apart, each camera 1 m further along x.
  static func recording(failingFrame: Int? = nil) -> InMemoryRecording {
    InMemoryRecording(
      frames: (0..<3).map { i in
        Frames.depthFrame(
          width: 2, height: 2, meters: Array(repeating: Float(i + 1), count: 4),
          pose: CameraPose(
            worldFromCamera: Transform3D(
              quaternion: SIMD4(0, 0, 0, 1), translation: SIMD3(Double(i), 0, 0)),
            axes: .openCV),
          timestampSeconds: 10 + Double(i) * 0.5)
      }, failingFrame: failingFrame)
  }

  /// Every frame `load` delivers, taken as each arrives, until it ends (or until none
  /// arrives within 30 s).
  static func drain(_ load: StreamingLoad) -> [LoadedFrame] {
    var frames: [LoadedFrame] = []
    while load.waitForFrames(timeout: 30) {
      let taken = load.take()
      if taken.isEmpty { break }  // the load ended
      frames += taken
    }
    return frames
  }

  @Test func framesArriveInOrderWithTheirTimesAndCameras() {
    let load = StreamingLoad(recording: RecordingLoader(source: Self.recording()))
    let frames = Self.drain(load)
    #expect(load.status == .finished(frames: 3))
    #expect(frames.map(\.frameIndex) == [0, 1, 2])
    #expect(frames.map(\.timestampSeconds) == [10, 10.5, 11])
    #expect(frames.map(\.points.count) == [4, 4, 4])
    #expect(frames[2].info?.pose.position == SIMD3(2, 0, 0))
  }

  @Test func absorbingFramesGivesSceneAndTimelineCommands() {
    var content = ViewerContent()
    let frames = Self.drain(StreamingLoad(recording: RecordingLoader(source: Self.recording())))
    let first = content.absorb(Array(frames.prefix(1)))
    let rest = content.absorb(Array(frames.dropFirst()))
    #expect(content.store.frameRanges == [0, 4, 8, 12])
    #expect(content.frameIndices == [0, 1, 2])
    var state = ViewerState()
    for command in first + rest { state.apply(command) }
    #expect(state.playback.loadedFrameCount == 3)
    #expect(state.scene.frameCount == 3)
    // Frame 0's 2×2 pixels at 1 m with fx = fy = 1 and the principal point at the
    // centre lie at x, y = ±0.5 m; frame 2's at ±1.5 m (x around 2) at z = 3.
    #expect(state.scene.bounds == Bounds3(min: Point3(-0.5, -1.5, 1), max: Point3(3.5, 1.5, 3)))
    #expect(state.drawRange(frameRanges: content.store.frameRanges) == 0..<12)
  }

  @Test func aFailingFrameStopsTheLoadAfterTheFramesBeforeIt() {
    let load = StreamingLoad(recording: RecordingLoader(source: Self.recording(failingFrame: 2)))
    let frames = Self.drain(load)
    #expect(frames.map(\.frameIndex) == [0, 1])
    guard case .failed(let reason) = load.status else {
      Issue.record("the load did not fail: \(load.status)")
      return
    }
    #expect(reason.contains("frame 2"))
  }

  @Test func aCloudIsOneFrameWithUnknownConfidence() {
    let cloud = PointCloud(positions: [Point3(1, 2, 3), Point3(4, 5, 6)], colors: nil)
    let load = StreamingLoad(cloud: cloud)
    let frames = load.take()
    #expect(load.status == .finished(frames: 1))
    #expect(frames.count == 1)
    #expect(frames[0].info == nil)
    #expect(frames[0].points.confidence == [255, 255])
    #expect(frames[0].points.colors == [FramePoints.noColor, FramePoints.noColor])
    #expect(load.take().isEmpty)
  }

  /// The inbox holds at most its limit: frames of 4 points under a limit of 9 wait
  /// two at a time, and a frame larger than the limit goes alone into an empty inbox.
  @Test func theInboxHoldsNoMoreThanItsLimit() throws {
    let load = StreamingLoad(
      recording: RecordingLoader(source: Self.recording()), inboxLimitPoints: 9)
    var frames: [LoadedFrame] = []
    while load.waitForFrames(timeout: 30) {
      #expect(load.pendingPoints <= 8)
      // One frame at a time, so the load waits for room again and again.
      let taken = load.take(maxFrames: 1)
      if taken.isEmpty { break }
      frames += taken
    }
    #expect(frames.map(\.frameIndex) == [0, 1, 2])
    #expect(load.status == .finished(frames: 3))
    let tight = StreamingLoad(
      recording: RecordingLoader(source: Self.recording()), inboxLimitPoints: 3)
    let all = try #require(tight.takeUntilStopped(timeout: 60))
    #expect(all.map(\.points.count) == [4, 4, 4])
    #expect(tight.pendingPoints == 0)
  }

  @Test func cancellingStopsDelivery() {
    // The recording holds its frames back until the test has cancelled, so the load
    // cannot finish first, however the threads are scheduled.
    let gate = DispatchSemaphore(value: 0)
    let source = GatedRecording(inner: Self.recording(), gate: gate)
    let load = StreamingLoad(recording: RecordingLoader(source: source))
    load.cancel()
    #expect(load.status == .cancelled)
    for _ in 0..<3 { gate.signal() }
    // Once the loading thread has ended, nothing it decoded after the cancel came in.
    #expect(load.waitUntilStopped(timeout: 30))
    #expect(load.status == .cancelled)
    #expect(load.take().isEmpty)
  }
}

/// A recording whose frames wait for a signal each: tests decide when frames exist.
private struct GatedRecording: RecordingSource {
  var inner: InMemoryRecording
  var gate: DispatchSemaphore

  var description: RecordingDescription { inner.description }
  var frameCount: Int { inner.frameCount }

  func frame(at index: Int) throws -> CapturedFrame {
    gate.wait()
    return try inner.frame(at: index)
  }

  func frameInfo(at index: Int) throws -> FrameInfo { try inner.frameInfo(at: index) }
}
