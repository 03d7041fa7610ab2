import CloudScrubCore
import Foundation

/// A pose refinement of the open recording, as the window applies it: the refined
/// trajectory (every frame of the recording, for "Save poses…"), each loaded frame's
/// correction (drawn as a model transform, applied on export) and the loaded frames'
/// alignment errors under the refined poses (the timeline's curve while "after" shows).
struct PoseRefinement: Equatable, Sendable {
  var trajectory: Trajectory
  var corrections: FramePoseCorrections
  /// The corrections in single precision, one a loaded frame, for the renderers.
  var matrices: [Matrix4]
  var errors: FrameAlignmentErrors
  /// How far the refinement moved the camera centre that moved most.
  var largestCameraShiftMeters: Double

  /// The refinement of the loaded frames `frames` (recording frame indices) from a
  /// refining pass over the whole recording.
  init(_ result: DriftAlignment.Result, frames: [Int]) {
    trajectory = Self.asSaved(
      Trajectory(timestampsSeconds: result.timestampsSeconds, poses: result.poses))
    corrections = FramePoseCorrections(
      original: result.originalPoses, refined: trajectory.poses, frames: frames)
    matrices = corrections.matrices
    errors = FrameAlignmentErrors(
      residualsMeters: frames.map { result.errors.residualMeters(at: $0) })
    largestCameraShiftMeters =
      zip(trajectory.poses, result.originalPoses).map { refined, original in
        let shift = refined.position - original.position
        return (shift * shift).sum().squareRoot()
      }.max() ?? 0
  }

  /// `trajectory` as "Save poses" writes it and `--poses` reads it back (nine decimals):
  /// the window draws and exports exactly the poses a saved file holds, so its export
  /// equals `cloudscrub export --poses` with that file byte for byte. The rounding
  /// moves a camera by under a nanometre. One round trip is not always enough: a
  /// quaternion component whose tenth decimal sits at a rounding boundary can round the
  /// other way once it is worked out again from the parsed rotation, so the text is
  /// read and written until it no longer changes (the second pass, in practice).
  static func asSaved(_ trajectory: Trajectory) -> Trajectory {
    var current = trajectory
    var text = TUMTrajectory.text(trajectory)
    for _ in 0..<4 {
      do {
        current = try TUMTrajectory.parse(text)
      } catch {
        // Our own text always parses; were it not to, the poses stay as they are.
        return current
      }
      let again = TUMTrajectory.text(current)
      if again == text { break }
      text = again
    }
    return current
  }
}

/// Runs `DriftAlignment`'s refinement of the open recording on a thread of its own
/// (`BackgroundWork`), with its progress and a cancel the pass polls between batches.
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
  private let lock = NSLock()
  private var fraction = 0.0
  private var cancelRequested = false
  private var queued: (source: any RecordingSource, frames: [Int])?
  private let options: CloudScrubCore.AlignmentOptions

  init(options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()) {
    self.options = options
  }

  var isRunning: Bool { work.isBusy }

  /// Whether the running pass was cancelled and is winding down.
  var isCancelling: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelRequested && work.isBusy
  }

  /// Whether a pass waits for a cancelled one to end.
  var isQueued: Bool {
    lock.lock()
    defer { lock.unlock() }
    return queued != nil
  }

  /// The fraction of frames the running pass has done.
  var fractionDone: Double {
    lock.lock()
    defer { lock.unlock() }
    return fraction
  }

  /// Starts refining `source`'s poses for the loaded frames `frames` (recording frame
  /// indices), or queues it behind a cancelled pass that is winding down.
  @discardableResult
  func start(_ source: any RecordingSource, frames: [Int]) -> Start {
    lock.lock()
    if work.isBusy {
      defer { lock.unlock() }
      guard cancelRequested else { return .refused }
      queued = (source, frames)
      return .queued
    }
    lock.unlock()
    return begin(source, frames: frames) ? .started : .refused
  }

  private func begin(_ source: any RecordingSource, frames: [Int]) -> Bool {
    lock.lock()
    fraction = 0
    cancelRequested = false
    lock.unlock()
    let options = options
    return work.start { [self] in
      do {
        let result = try DriftAlignment.run(
          source, options: options, refine: true,
          progress: { [self] done in
            lock.lock()
            fraction = done
            lock.unlock()
          },
          isCancelled: { [self] in
            lock.lock()
            defer { lock.unlock() }
            return cancelRequested
          })
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
    lock.lock()
    cancelRequested = true
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
