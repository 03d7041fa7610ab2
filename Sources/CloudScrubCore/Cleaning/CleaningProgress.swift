/// Asked between pieces of work whether to stop: `true` stops. Called from several
/// threads at once, so it must be cheap and thread-safe (a flag under a lock).
public typealias StopCheck = @Sendable () -> Bool

/// How a cleaning run reports the step it is on, and learns that it should stop.
///
/// `CleaningPipeline.run` calls `stepStarted` on the calling thread as each step starts,
/// and `shouldStop` before each step and, inside the neighbour searches, every
/// thousand or so points on each core, so that a stop is seen within milliseconds.
public struct CleaningProgress: Sendable {
  /// Called with the step's name ("statistical outliers"), its position among the
  /// steps that run (from 0) and how many run.
  public var stepStarted: @Sendable (_ step: String, _ index: Int, _ count: Int) -> Void
  public var shouldStop: StopCheck

  public init(
    stepStarted: @escaping @Sendable (_ step: String, _ index: Int, _ count: Int) -> Void = {
      _, _, _ in
    },
    shouldStop: @escaping StopCheck = { false }
  ) {
    self.stepStarted = stepStarted
    self.shouldStop = shouldStop
  }
}

/// A cleaning run (or an export) stopped because it was asked to.
public struct CleaningCancelled: Error, Equatable, CustomStringConvertible {
  /// The step that was running, or about to.
  public var step: String

  public init(step: String) { self.step = step }

  public var description: String { "cancelled during \(step)" }
}
