import Foundation
import Testing

@testable import CloudScrubCore

/// The one background job: a result per generation, one piece of work at a time, and
/// waits for the work's end. Each test holds the work at a known place with a
/// semaphore and waits for events, with a generous timeout as a guard.
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
    work.startStoppable { isStale in
      let before = isStale()
      reached.signal()
      release.wait()
      sawStale.set(!before && isStale())
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
