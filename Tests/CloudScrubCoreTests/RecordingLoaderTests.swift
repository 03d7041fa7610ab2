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

@Suite struct BackgroundLoadTests {
  @Test func startReturnsAtOnceAndTheFirstFrameArrivesBeforeTheEnd() async throws {
    let recording = RecordingLoaderTests.recording(frames: 40)
    let events = EventLog()
    let finished: PointStore = try await withCheckedThrowingContinuation { continuation in
      _ = RecordingLoader(source: recording).start(
        onFrame: { store in
          events.record(store.frameCount)
          return true
        },
        completion: { continuation.resume(with: $0) })
      events.record(0)  // start returned: the caller goes on
    }
    #expect(finished.frameCount == 40)
    let seen = events.values
    #expect(seen.contains(0))
    #expect(seen.filter { $0 > 0 } == Array(1...40))
  }

  @Test func cancelStopsEarly() async throws {
    let recording = RecordingLoaderTests.recording(frames: 200)
    // Stopping from the callback needs no handle, so it cannot race the start.
    let stopped: PointStore = try await withCheckedThrowingContinuation { continuation in
      _ = RecordingLoader(source: recording).start(
        onFrame: { store in store.frameCount < 5 },
        completion: { continuation.resume(with: $0) })
    }
    #expect(stopped.frameCount == 5)
  }

  @Test func cancelThroughTheHandleStopsAfterTheFrameInHand() async throws {
    let recording = RecordingLoaderTests.recording(frames: 200)
    let reached = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let stopped: PointStore = try await withCheckedThrowingContinuation { continuation in
      let box = HandleBox()
      // The load waits at frame 3 until the handle has been cancelled.
      box.handle = RecordingLoader(source: recording).start(
        onFrame: { store in
          if store.frameCount == 3 {
            reached.signal()
            proceed.wait()
          }
          return true
        },
        completion: { continuation.resume(with: $0) })
      reached.wait()
      box.handle?.cancel()
      proceed.signal()
    }
    #expect(stopped.frameCount == 3)
  }
}

private final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var log: [Int] = []
  func record(_ value: Int) {
    lock.lock()
    log.append(value)
    lock.unlock()
  }
  var values: [Int] {
    lock.lock()
    defer { lock.unlock() }
    return log
  }
}

private final class HandleBox: @unchecked Sendable {
  var handle: BackgroundLoad?
}
