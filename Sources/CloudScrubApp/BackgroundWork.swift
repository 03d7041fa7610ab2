import Foundation

/// One piece of work at a time on a thread of its own, whose result the frame loop
/// picks up when it is ready. `invalidate()` drops the result of work already started
/// (a new document opened), so a stale result never lands.
///
/// The window's frame images, cleaning preview and whole-frame points each keep one.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
  /// Guards the fields; signalled when a result is ready.
  private let lock = NSCondition()
  private var ready: Value?
  private var busy = false
  private var generation = 0

  /// Whether work is running.
  var isBusy: Bool {
    lock.lock()
    defer { lock.unlock() }
    return busy
  }

  /// Starts `work` unless work is already running.
  ///
  /// - Returns: whether it started; `work`'s nil result is dropped.
  @discardableResult
  func start(_ work: @escaping @Sendable () -> Value?) -> Bool {
    lock.lock()
    guard !busy else {
      lock.unlock()
      return false
    }
    busy = true
    let ticket = generation
    lock.unlock()
    Thread.detachNewThread { [self] in
      let value = work()
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
  func take(waitingUpTo seconds: TimeInterval = 0) -> Value? {
    let deadline = Date().addingTimeInterval(seconds)
    lock.lock()
    defer { lock.unlock() }
    while ready == nil, seconds > 0, lock.wait(until: deadline) {}
    defer { ready = nil }
    return ready
  }

  /// Drops the result of work started so far.
  func invalidate() {
    lock.lock()
    generation += 1
    ready = nil
    lock.unlock()
  }
}
