import Foundation

/// What an export is doing, for a progress display.
public enum ExportStage: Equatable, Sendable {
  /// A cleaning step: its name, its position among the steps (from 0), how many run.
  case cleaning(step: String, index: Int, count: Int)
  /// Writing the file.
  case writing(path: String)

  /// In words, for a panel ("statistical outliers (2/3)", "writing scan.las").
  public var label: String {
    switch self {
    case .cleaning(let step, let index, let count): "\(step) (\(index + 1)/\(count))"
    case .writing(let path): "writing \(URL(fileURLWithPath: path).lastPathComponent)"
    }
  }
}

/// Watches an export: told of each stage and of the fraction done, asked whether to
/// stop. Called from the exporting thread, and `isCancelled` from the cleaning's worker
/// threads too, so implementations are thread-safe.
public protocol ExportMonitor: AnyObject, Sendable {
  func stageStarted(_ stage: ExportStage)
  /// The fraction of the current stage done, 0…1.
  func progressed(_ fraction: Double)
  /// Whether the export should stop as soon as it can.
  var isCancelled: Bool { get }
}

/// An `ExportMonitor` whose state another thread reads (the window's frame loop) and
/// whose `cancel()` any thread calls.
public final class ExportProgress: ExportMonitor, @unchecked Sendable {
  /// What a display shows: the stage, the fraction of the whole export done, and
  /// whether a cancel was asked for.
  public struct Snapshot: Equatable, Sendable {
    public var stage: ExportStage?
    /// The whole export's fraction done: cleaning steps share the first part, the
    /// write the rest.
    public var fraction: Double
    public var cancelled: Bool
  }

  private let lock = NSLock()
  private var stage: ExportStage?
  private var stageFraction = 0.0
  private var cancelled = false
  private let onStageStarted: (@Sendable (ExportStage) -> Void)?

  /// - Parameter onStageStarted: called on the exporting thread as each stage starts,
  ///   after the snapshot shows it (tests cancel from there, at a known point).
  public init(onStageStarted: (@Sendable (ExportStage) -> Void)? = nil) {
    self.onStageStarted = onStageStarted
  }

  public func stageStarted(_ stage: ExportStage) {
    lock.lock()
    self.stage = stage
    stageFraction = 0
    lock.unlock()
    onStageStarted?(stage)
  }

  public func progressed(_ fraction: Double) {
    lock.lock()
    stageFraction = min(max(fraction, 0), 1)
    lock.unlock()
  }

  public var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  /// Asks the export to stop; it throws `CleaningCancelled` within about a second and
  /// writes nothing.
  public func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
  }

  public var snapshot: Snapshot {
    lock.lock()
    defer { lock.unlock() }
    // Cleaning takes the first 80 % of the bar, in equal parts a step; writing the rest.
    let fraction: Double
    switch stage {
    case nil: fraction = 0
    case .cleaning(_, let index, let count):
      fraction = 0.8 * (Double(index) + stageFraction) / Double(max(count, 1))
    case .writing: fraction = 0.8 + 0.2 * stageFraction
    }
    return Snapshot(stage: stage, fraction: fraction, cancelled: cancelled)
  }
}
