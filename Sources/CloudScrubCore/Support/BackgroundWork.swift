import Foundation

/// The background job: one piece of work at a time on a thread of its own, whose
/// result the frame loop picks up when it is ready. Each start takes a generation
/// number; `invalidate()` begins a new generation, so the result of work started
/// before (for a document since closed) never lands, and that work can ask whether it
/// is stale and stop early.
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

  public init() {}

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
    startStoppable { _ in work() }
  }

  /// Starts `work` unless work is already running, handing it a question that turns
  /// true once its generation is over (`invalidate()`), for work long enough to stop
  /// part-way.
  ///
  /// - Returns: whether it started; `work`'s nil result is dropped.
  @discardableResult
  public func startStoppable(
    _ work: @escaping @Sendable (_ isStale: @escaping @Sendable () -> Bool) -> Value?
  ) -> Bool {
    lock.lock()
    guard !busy else {
      lock.unlock()
      return false
    }
    busy = true
    let ticket = generation
    lock.unlock()
    Thread.detachNewThread { [self] in
      let value = work { [self] in isStale(ticket) }
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

  private func isStale(_ ticket: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return ticket != generation
  }
}
