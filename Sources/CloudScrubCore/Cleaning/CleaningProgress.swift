/// Asked between pieces of work whether to stop: `true` stops. Called from several
/// threads at once, so it must be cheap and thread-safe (a flag under a lock), and once
/// it has said `true` it keeps saying so: a loop that stops early leaves a partial
/// result that its caller drops after asking once more.
public typealias StopCheck = @Sendable () -> Bool

/// How often the long loops of an export ask their `StopCheck`.
enum StopChecks {
  /// Items (points, voxels, records) between two questions in a loop over cheap items:
  /// one closure call and a lock per 4,096 items, which does not show beside the work.
  static let interval = 4096

  /// Whether `stop` says to stop, asked only at every `interval`-th `index` (so
  /// a loop calls this for each item and pays a mask and a branch).
  @inline(__always)
  static func due(_ stop: StopCheck?, at index: Int) -> Bool {
    index & (interval - 1) == 0 && stop?() == true
  }

  /// Whether `stop` says to stop now.
  @inline(__always)
  static func now(_ stop: StopCheck?) -> Bool { stop?() == true }
}

/// How a cleaning run reports the step it is on, and learns that it should stop.
///
/// `CleaningPipeline.run` calls `stepStarted` on the calling thread as each step starts,
/// and `shouldStop` before each step and inside every long loop of every step: the
/// neighbour searches every 1,024 queries on each core, the tree and grid builds, the
/// crop, the voxel merge, the normals' orientation and the gathering of the kept points
/// every 4,096 items, so that a stop is seen within milliseconds.
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
