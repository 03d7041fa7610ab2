import CloudScrubCore
import Foundation

/// A stop check for cancel tests: counts the questions it is asked and says to stop
/// from its `k`-th question on (never, without a `k`), from any thread. No clock is
/// involved: where the stop lands depends only on how often the code asks.
public final class CountingStop: @unchecked Sendable {
  private let lock = NSLock()
  private var questions = 0
  private let stopsAt: Int?

  /// - Parameter stopsAt: the question (from 1) from which the answer is yes.
  public init(stopsAt: Int? = nil) {
    self.stopsAt = stopsAt
  }

  /// The questions asked so far.
  public var asked: Int {
    lock.lock()
    defer { lock.unlock() }
    return questions
  }

  /// Questions asked after the one that first said yes (0 when none said yes).
  public var askedAfterStop: Int {
    guard let stopsAt else { return 0 }
    return max(0, asked - stopsAt)
  }

  /// Whether an answer so far was yes (without asking again).
  public var saidStop: Bool {
    guard let stopsAt else { return false }
    return asked >= stopsAt
  }

  /// Asks once.
  public func shouldStop() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    questions += 1
    return stopsAt.map { questions >= $0 } ?? false
  }

  /// The check to hand to the code under test.
  public var check: StopCheck { { [self] in shouldStop() } }

  /// How many questions a loop that has stopped may still ask: one for each piece of
  /// work that was running or not yet started (`piecesPerCore` a core: 8 for the
  /// builds, the crop and the voxel merge, 64 for the neighbour searches), and a few
  /// sequential ones on the way out. Past this, a loop did not stop when it was told.
  public static func questionsAfterStopBound(piecesPerCore: Int = 8) -> Int {
    piecesPerCore * ProcessInfo.processInfo.activeProcessorCount + 16
  }
}

/// An `ExportMonitor` that cancels from its `k`-th question on, counting them; it
/// records the stages it is told of.
public final class CountingExportMonitor: ExportMonitor, @unchecked Sendable {
  public let stop: CountingStop
  private let lock = NSLock()
  private var started: [ExportStage] = []
  /// Questions asked when each stage started.
  private var askedAtStart: [Int] = []

  public init(stopsAt: Int? = nil) {
    stop = CountingStop(stopsAt: stopsAt)
  }

  public func stageStarted(_ stage: ExportStage) {
    let asked = stop.asked
    lock.lock()
    started.append(stage)
    askedAtStart.append(asked)
    lock.unlock()
  }

  public func progressed(_ fraction: Double) {}

  public var isCancelled: Bool { stop.shouldStop() }

  /// The stages told so far, with the questions asked before each started.
  public var stages: [(stage: ExportStage, askedBefore: Int)] {
    lock.lock()
    defer { lock.unlock() }
    return Array(zip(started, askedAtStart))
  }
}
