import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubApp

/// "Refine poses" while a cancelled pass is still winding down: the new pass waits for
/// it and starts when its outcome is taken, instead of being dropped.
@Suite struct RefinementQueueTests {
  /// A synthetic recording whose frames are handed out only once the gate opens, so the
  /// test holds a pass in its first read for as long as it needs.
  final class GatedRecording: RecordingSource, @unchecked Sendable {
    let base = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(frameCount: 12, colorWidth: 64, colorHeight: 48))
    private let condition = NSCondition()
    private var open = false

    var description: RecordingDescription { base.description }
    var frameCount: Int { base.frameCount }

    func frame(at index: Int) throws -> CapturedFrame {
      condition.lock()
      while !open { condition.wait() }
      condition.unlock()
      return try base.frame(at: index)
    }

    func frameInfo(at index: Int) throws -> FrameInfo { try base.frameInfo(at: index) }

    func openGate() {
      condition.lock()
      open = true
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Takes the refinement's next outcome, waiting (on its signal) at most two minutes.
  static func nextOutcome(_ refiner: BackgroundRefinement) -> BackgroundRefinement.Outcome? {
    refiner.take(waitingUpTo: 120)
  }

  @Test func aRefinementAskedForWhileOneIsCancellingStartsAfterIt() throws {
    let source = GatedRecording()
    let refiner = BackgroundRefinement()
    let frames = Array(0..<12)
    #expect(refiner.start(source, frames: frames) == .started)
    #expect(refiner.isRunning && !refiner.isCancelling)
    // Running and not cancelled: a second start is refused, and says so.
    #expect(refiner.start(source, frames: frames) == .refused)
    refiner.cancel()
    #expect(refiner.isCancelling)
    #expect(refiner.start(source, frames: frames) == .queued)
    #expect(refiner.isQueued)
    source.openGate()
    // The cancelled pass ends first; taking its outcome starts the queued one.
    guard case .cancelled? = Self.nextOutcome(refiner) else {
      Issue.record("the first pass did not end cancelled")
      return
    }
    #expect(!refiner.isQueued)
    #expect(refiner.isRunning && !refiner.isCancelling)
    guard case .refined(let refinement)? = Self.nextOutcome(refiner) else {
      Issue.record("the queued pass did not refine")
      return
    }
    #expect(refinement.trajectory.count == 12)
    #expect(!refiner.isRunning)
  }

  @Test func cancellingAQueuedRefinementDropsIt() throws {
    let source = GatedRecording()
    let refiner = BackgroundRefinement()
    #expect(refiner.start(source, frames: [0]) == .started)
    refiner.cancel()
    #expect(refiner.start(source, frames: [0]) == .queued)
    refiner.cancel()
    #expect(!refiner.isQueued)
    source.openGate()
    guard case .cancelled? = Self.nextOutcome(refiner) else {
      Issue.record("the pass did not end cancelled")
      return
    }
    #expect(!refiner.isRunning)
  }
}
