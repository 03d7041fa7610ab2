import Foundation

/// The background job: one piece of work at a time on a thread of its own, whose
/// result the frame loop picks up when it is ready. Each start takes a generation
/// number; `invalidate()` begins a new generation, so the result of work started
/// before (for a document since closed) never lands. Work started with `run` gets a
/// `Job`: it reports its progress (a fraction and a stage in words) there, which
/// `progress` shows, and learns there that `cancel()` or `invalidate()` asked it to stop.
///
/// It is the one place that starts a thread. The window's export, frame images,
/// cleaning preview, whole-frame points, pose refinement and alignment errors each keep
/// one; so do a streaming load (`StreamingLoad`), the level of detail's worker
/// (`LevelOfDetailBuilder`), each of a recording loader's decoding workers, the
/// alignment pass's batch reader, the segmented error pass's helpers and the cancel
/// benchmark's canceller. Work whose result goes elsewhere (an inbox, a tree) is a
/// `BackgroundWork<Never>`.
public final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
  /// Guards the fields; broadcast when work ends.
  private let lock = NSCondition()
  private var ready: Value?
  private var busy = false
  private var generation = 0
  private var reported = JobProgress(fraction: 0, stage: "")
  private var cancelRequested = false

  public init() {}

  /// A running job's side of its `BackgroundWork`: where it reports its progress and
  /// learns that it should stop.
  public struct Job: Sendable {
    fileprivate let owner: BackgroundWork<Value>
    fileprivate let ticket: Int

    /// Reports the fraction done (clamped to 0…1) and, when given, the stage.
    public func report(_ fraction: Double, stage: String? = nil) {
      owner.report(ticket, fraction: min(max(fraction, 0), 1), stage: stage)
    }

    /// Whether the job should stop: `cancel()` was asked, or its generation is over.
    public var isCancelled: Bool { owner.isCancelled(ticket) }

    /// - Throws: `JobCancelled` once the job should stop.
    public func checkCancelled() throws(JobCancelled) {
      if isCancelled { throw JobCancelled() }
    }
  }

  /// The running job's progress, or the last job's once it ended (zero before any).
  public var progress: JobProgress {
    lock.lock()
    defer { lock.unlock() }
    return reported
  }

  /// Whether a cancel was asked of the running job and it is still winding down.
  public var isCancelling: Bool {
    lock.lock()
    defer { lock.unlock() }
    return busy && cancelRequested
  }

  /// Asks the running job to stop: its `Job.isCancelled` turns true. Its result, if it
  /// returns one, is still handed out.
  public func cancel() {
    lock.lock()
    if busy { cancelRequested = true }
    lock.unlock()
  }

  /// Starts `work` unless work is already running, with a `Job` to report progress to
  /// and to ask whether to stop.
  ///
  /// - Returns: whether it started; `work`'s nil result is dropped.
  @discardableResult
  public func run(_ work: @escaping @Sendable (Job) -> Value?) -> Bool {
    startTicket { [self] ticket in work(Job(owner: self, ticket: ticket)) }
  }

  /// Whether work is running.
  public var isBusy: Bool {
    lock.lock()
    defer { lock.unlock() }
    return busy
  }

  /// Starts `work` unless work is already running.
  ///
  /// - Returns: whether it started; `work`'s nil result is dropped.
  @discardableResult
  public func start(_ work: @escaping @Sendable () -> Value?) -> Bool {
    startTicket { _ in work() }
  }

  private func startTicket(_ work: @escaping @Sendable (Int) -> Value?) -> Bool {
    lock.lock()
    guard !busy else {
      lock.unlock()
      return false
    }
    busy = true
    cancelRequested = false
    reported = JobProgress(fraction: 0, stage: "")
    let ticket = generation
    lock.unlock()
    Thread.detachNewThread { [self] in
      let value = work(ticket)
      lock.lock()
      if ticket == generation, let value { ready = value }
      busy = false
      lock.broadcast()
      lock.unlock()
    }
    return true
  }

  /// The finished result, handed out once; with `seconds`, waits up to that long for
  /// one to be ready (the tests' way of waiting for the event, not for a time).
  public func take(waitingUpTo seconds: TimeInterval = 0) -> Value? {
    let deadline = Date().addingTimeInterval(seconds)
    lock.lock()
    defer { lock.unlock() }
    while ready == nil, seconds > 0, lock.wait(until: deadline) {}
    defer { ready = nil }
    return ready
  }

  /// Waits however long the running work takes to end: for an owner that must not
  /// outlive its work, where the work itself is bounded.
  public func waitUntilIdle() {
    lock.lock()
    defer { lock.unlock() }
    while busy { lock.wait() }
  }

  /// Waits up to `seconds` for the running work to end.
  ///
  /// - Returns: whether no work runs now.
  public func waitUntilIdle(seconds: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    lock.lock()
    defer { lock.unlock() }
    while busy, lock.wait(until: deadline) {}
    return !busy
  }

  /// Drops the result of work started so far, and tells that work it is stale.
  public func invalidate() {
    lock.lock()
    generation += 1
    ready = nil
    lock.unlock()
  }

  private func isCancelled(_ ticket: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return ticket != generation || cancelRequested
  }

  private func report(_ ticket: Int, fraction: Double, stage: String?) {
    lock.lock()
    defer { lock.unlock() }
    guard ticket == generation else { return }
    reported.fraction = fraction
    if let stage { reported.stage = stage }
  }
}

/// What a background job last reported: the fraction done, 0…1, and its stage in words.
public struct JobProgress: Equatable, Sendable {
  public var fraction: Double
  public var stage: String

  public init(fraction: Double, stage: String) {
    self.fraction = fraction
    self.stage = stage
  }
}

/// A background job stopped because it was asked to (`BackgroundWork.cancel()`, or a
/// new generation), not because something failed.
public struct JobCancelled: Error, CustomStringConvertible, Sendable {
  public init() {}
  public var description: String { "cancelled" }
}
