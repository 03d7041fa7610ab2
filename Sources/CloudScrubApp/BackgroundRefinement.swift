import CloudScrubCore
import Foundation

/// Runs `DriftAlignment`'s refinement of the open recording as a background job
/// (`BackgroundWork`), with the job's progress and a cancel the pass polls between
/// batches.
/// Opening another document invalidates a pass under way, so its result never lands.
/// A pass asked for while a cancelled one winds down waits for it and starts when its
/// outcome is taken.
final class BackgroundRefinement: @unchecked Sendable {
  enum Outcome: Sendable {
    case refined(PoseRefinement)
    case failed(String)
    case cancelled
  }

  /// What `start` did.
  enum Start: Equatable {
    case started
    /// A cancelled pass is still winding down: this one starts when it ends.
    case queued
    /// A pass runs and was not cancelled: nothing started.
    case refused
  }

  private let work = BackgroundWork<Outcome>()
  /// Guards `queued`.
  private let lock = NSLock()
  private var queued: (source: any RecordingSource, frames: [Int])?
  private let options: CloudScrubCore.AlignmentOptions

  init(options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()) {
    self.options = options
  }

  var isRunning: Bool { work.isBusy }

  /// Whether the running pass was cancelled and is winding down.
  var isCancelling: Bool { work.isCancelling }

  /// Whether a pass waits for a cancelled one to end.
  var isQueued: Bool {
    lock.lock()
    defer { lock.unlock() }
    return queued != nil
  }

  /// The fraction of frames the running pass has done.
  var fractionDone: Double { work.progress.fraction }

  /// Starts refining `source`'s poses for the loaded frames `frames` (recording frame
  /// indices), or queues it behind a cancelled pass that is winding down.
  @discardableResult
  func start(_ source: any RecordingSource, frames: [Int]) -> Start {
    lock.lock()
    if work.isBusy {
      defer { lock.unlock() }
      guard work.isCancelling else { return .refused }
      queued = (source, frames)
      return .queued
    }
    lock.unlock()
    return begin(source, frames: frames) ? .started : .refused
  }

  private func begin(_ source: any RecordingSource, frames: [Int]) -> Bool {
    let options = options
    return work.run { job in
      do {
        let result = try DriftAlignment.run(
          source, options: options, refine: true, progress: { job.report($0) },
          isCancelled: { job.isCancelled })
        return .refined(PoseRefinement(result, frames: frames))
      } catch is CancellationError {
        return .cancelled
      } catch {
        return .failed("\(error)")
      }
    }
  }

  /// Asks the running pass to stop; it ends at its next batch with `.cancelled`. A
  /// queued pass is dropped too.
  func cancel() {
    work.cancel()
    lock.lock()
    queued = nil
    lock.unlock()
  }

  /// Drops the result of a pass under way (another document opened) and stops it.
  func invalidate() {
    cancel()
    work.invalidate()
  }

  /// The outcome of the pass that ended, handed out once; a queued pass starts then.
  /// With `seconds`, waits up to that long for a pass to end.
  func take(waitingUpTo seconds: TimeInterval = 0) -> Outcome? {
    guard let outcome = work.take(waitingUpTo: seconds) else { return nil }
    lock.lock()
    let next = queued
    queued = nil
    lock.unlock()
    if let next { _ = begin(next.source, frames: next.frames) }
    return outcome
  }
}
