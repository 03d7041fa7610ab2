import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

@Suite struct RecordingLoaderTests {
  /// Frame k: a 2×2 frame at depth k + 1 everywhere, so each point's z names its frame.
  static func recording(frames: Int, failing: Int? = nil) -> InMemoryRecording {
    InMemoryRecording(
      frames: (0..<frames).map { k in
        Frames.depthFrame(
          width: 2, height: 2, meters: [Float](repeating: Float(k + 1), count: 4),
          timestampSeconds: Double(k) / 30)
      }, failingFrame: failing)
  }

  @Test func framesAreAppendedInTimelineOrderWithPrefixSumRanges() throws {
    let store = try RecordingLoader(source: Self.recording(frames: 25)).load()
    #expect(store.frameIndices == Array(0..<25))
    #expect(store.frameRanges == (0...25).map { $0 * 4 })
    #expect(
      store.positions.map(\.z)
        == (0..<25).flatMap { k in [Float](repeating: Float(k + 1), count: 4) })
    #expect(store.pointRange(ofAppendedFrames: 3...5) == 12..<24)
    #expect(store.storageByteCount == 100 * 16)
  }

  @Test func rangeAndEverySelectFrames() throws {
    let loader = RecordingLoader(
      source: Self.recording(frames: 25), selection: FrameSelection(range: 4...14, every: 5))
    let store = try loader.load()
    #expect(store.frameIndices == [4, 9, 14])
    #expect(store.positions.map(\.z) == [5, 5, 5, 5, 10, 10, 10, 10, 15, 15, 15, 15])
    #expect(FrameSelection(range: 20...90).indices(frameCount: 25) == [20, 21, 22, 23, 24])
    #expect(FrameSelection(range: 30...40).indices(frameCount: 25) == [])
  }

  @Test func theFirstFrameArrivesAloneAndEveryFrameIsReported() throws {
    var seen: [Int] = []
    var reported: [LoadProgress] = []
    _ = try RecordingLoader(source: Self.recording(frames: 10)).load(
      progress: { reported.append($0) },
      onFrame: { store in
        seen.append(store.frameCount)
        return true
      })
    #expect(seen == Array(1...10))
    #expect(reported.last == LoadProgress(framesDone: 10, framesTotal: 10, points: 40))
  }

  @Test func returningFalseStopsTheLoad() throws {
    let store = try RecordingLoader(source: Self.recording(frames: 30)).load(
      onFrame: { $0.frameCount < 3 })
    #expect(store.frameCount == 3)
  }

  @Test func aFailingFrameIsReportedByIndex() {
    do {
      _ = try RecordingLoader(source: Self.recording(frames: 12, failing: 7)).load()
      Issue.record("expected an error")
    } catch let error as FrameLoadError {
      #expect(error.frameIndex == 7)
      #expect(error.underlying is InMemoryRecording.Failure)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func cloudCarriesConfidenceAndFrameAttributes() throws {
    let store = try RecordingLoader(
      source: Self.recording(frames: 3), selection: FrameSelection(every: 2)
    ).load()
    let cloud = store.cloud()
    #expect(cloud.attribute(named: "frame")?.values == .uint32([0, 0, 0, 0, 2, 2, 2, 2]))
    #expect(
      cloud.attribute(named: "confidence")?.values == .uint8([UInt8](repeating: 255, count: 8)))
  }
}

/// The recording loaded in the background as the window loads it (`StreamingLoad`) and
/// streamed frame by frame (`RecordingLoader.stream`). Each test waits for the load's
/// state, with a generous timeout as a guard; a recording that holds one frame back
/// until the test lets it go decides where the load stands.
@Suite struct RecordingLoaderInTheBackgroundTests {
  @Test func aStreamingLoadReturnsAtOnceAndTheFirstFramesArriveBeforeTheEnd() {
    let source = HeldRecording(inner: RecordingLoaderTests.recording(frames: 40), heldFrame: 3)
    defer { source.release() }
    // Frame 3 is held back, so the load cannot end before the test looks.
    let load = StreamingLoad(recording: RecordingLoader(source: source))
    let first = Self.take(3, from: load)
    #expect(first.map(\.frameIndex) == [0, 1, 2])
    #expect(load.status == .loading(framesDone: 3, framesTotal: 40))
    source.release()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .finished(frames: 40))
    #expect(load.take().map(\.frameIndex) == Array(3..<40))
  }

  @Test func streamStopsWhenItsBodySaysSo() throws {
    var positions: [Int] = []
    try RecordingLoader(source: RecordingLoaderTests.recording(frames: 200)).stream {
      position, total, frameIndex, points in
      #expect(total == 200 && frameIndex == position && points.count == 4)
      positions.append(position)
      return position < 4
    }
    #expect(positions == Array(0..<5))
  }

  @Test func cancellingAStreamingLoadStopsItAfterTheFrameInHand() {
    let source = HeldRecording(inner: RecordingLoaderTests.recording(frames: 200), heldFrame: 3)
    defer { source.release() }
    let load = StreamingLoad(recording: RecordingLoader(source: source))
    #expect(Self.take(3, from: load).count == 3)
    // Frame 3 is in hand (held) when the load is cancelled.
    load.cancel()
    source.release()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .cancelled)
    #expect(load.take().isEmpty)
  }

  /// Takes `count` frames from `load` as they arrive, waiting for each delivery (fewer
  /// when the load ends first, or when none arrives within 60 s).
  static func take(_ count: Int, from load: StreamingLoad) -> [LoadedFrame] {
    var frames: [LoadedFrame] = []
    while frames.count < count, load.waitForFrames(timeout: 60) {
      let taken = load.take(maxFrames: count - frames.count)
      if taken.isEmpty { break }  // the load ended
      frames += taken
    }
    return frames
  }
}

/// A recording that holds `heldFrame` back until `release()`.
private struct HeldRecording: RecordingSource {
  var inner: InMemoryRecording
  var heldFrame: Int
  private let gate = DispatchSemaphore(value: 0)

  init(inner: InMemoryRecording, heldFrame: Int) {
    self.inner = inner
    self.heldFrame = heldFrame
  }

  var description: RecordingDescription { inner.description }
  var frameCount: Int { inner.frameCount }

  func frame(at index: Int) throws -> CapturedFrame {
    if index == heldFrame {
      gate.wait()
      gate.signal()  // a second read of the frame passes too
    }
    return try inner.frame(at: index)
  }

  func frameInfo(at index: Int) throws -> FrameInfo { try inner.frameInfo(at: index) }

  func release() { gate.signal() }
}
