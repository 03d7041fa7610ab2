import Foundation
import Testing

@testable import CloudScrubCore

/// The one background job: a result per generation, one piece of work at a time,
/// progress and cancel, and waits for the work's end. Each test holds the work at a
/// known place with a semaphore and waits for events, with a generous timeout as a
/// guard.
@Suite struct BackgroundWorkTests {
  @Test func aFinishedResultIsHandedOutOnce() {
    let work = BackgroundWork<Int>()
    #expect(work.start { 42 })
    #expect(work.take(waitingUpTo: 60) == 42)
    #expect(work.take() == nil)
  }

  @Test func workStartedWhileBusyIsRefused() {
    let release = DispatchSemaphore(value: 0)
    let work = BackgroundWork<Int>()
    #expect(
      work.start {
        release.wait()
        return 1
      })
    #expect(work.isBusy)
    #expect(!work.start { 2 })
    release.signal()
    work.waitUntilIdle()
    #expect(!work.isBusy)
    #expect(work.take() == 1)
  }

  @Test func workOfAnEndedGenerationIsToldSoAndItsResultNeverLands() {
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let sawStale = Flag()
    let work = BackgroundWork<Int>()
    work.run { job in
      let before = job.isCancelled
      reached.signal()
      release.wait()
      sawStale.set(!before && job.isCancelled)
      return 7
    }
    #expect(reached.wait(timeout: .now() + 60) == .success)
    work.invalidate()
    release.signal()
    #expect(work.waitUntilIdle(seconds: 60))
    #expect(sawStale.value)
    #expect(work.take() == nil)
    // The next generation's work lands.
    #expect(work.start { 8 })
    #expect(work.take(waitingUpTo: 60) == 8)
  }

  @Test func aJobReportsItsProgressAndStage() {
    let reported = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let work = BackgroundWork<Int>()
    #expect(work.progress == JobProgress(fraction: 0, stage: ""))
    work.run { job in
      job.report(0.25, stage: "reading")
      job.report(1.5)  // clamped; the stage stays
      reported.signal()
      release.wait()
      return 1
    }
    #expect(reported.wait(timeout: .now() + 60) == .success)
    #expect(work.progress == JobProgress(fraction: 1, stage: "reading"))
    release.signal()
    #expect(work.take(waitingUpTo: 60) == 1)
    // The last job's progress stays until the next starts, which begins at zero.
    #expect(work.progress == JobProgress(fraction: 1, stage: "reading"))
    #expect(work.start { 2 })
    #expect(work.progress == JobProgress(fraction: 0, stage: ""))
    #expect(work.take(waitingUpTo: 60) == 2)
  }

  @Test func aCancelIsSeenByTheJobAndItsResultStillLands() {
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let work = BackgroundWork<String>()
    #expect(!work.isCancelling)
    work.run { job in
      let before = job.isCancelled
      reached.signal()
      release.wait()
      do {
        try job.checkCancelled()
        return "finished"
      } catch {
        return before ? "cancelled early" : "\(error)"
      }
    }
    #expect(reached.wait(timeout: .now() + 60) == .success)
    work.cancel()
    #expect(work.isCancelling)
    release.signal()
    #expect(work.take(waitingUpTo: 60) == "cancelled")
    #expect(!work.isCancelling)
    // A cancel asked while nothing runs does not reach the next job.
    work.cancel()
    work.run { job in job.isCancelled ? "cancelled" : "finished" }
    #expect(work.take(waitingUpTo: 60) == "finished")
  }

  @Test func aStaleJobIsStoppedByItsGenerationAndItsReportsAreDropped() {
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let work = BackgroundWork<Int>()
    work.run { job in
      job.report(0.5, stage: "old")
      reached.signal()
      release.wait()
      job.report(0.9, stage: "stale")
      return job.isCancelled ? -1 : 1
    }
    #expect(reached.wait(timeout: .now() + 60) == .success)
    work.invalidate()
    release.signal()
    #expect(work.waitUntilIdle(seconds: 60))
    #expect(work.progress == JobProgress(fraction: 0.5, stage: "old"))
    #expect(work.take() == nil)
  }
}

private final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false
  func set(_ value: Bool) {
    lock.lock()
    stored = value
    lock.unlock()
  }
  var value: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
