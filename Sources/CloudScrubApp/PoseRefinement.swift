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
    trajectory = Trajectory(timestampsSeconds: result.timestampsSeconds, poses: result.poses)
    corrections = FramePoseCorrections(
      original: result.originalPoses, refined: result.poses, frames: frames)
    matrices = corrections.matrices
    errors = FrameAlignmentErrors(
      residualsMeters: frames.map { result.errors.residualMeters(at: $0) })
    largestCameraShiftMeters =
      zip(result.poses, result.originalPoses).map { refined, original in
        let shift = refined.position - original.position
        return (shift * shift).sum().squareRoot()
      }.max() ?? 0
  }
}

/// Runs `DriftAlignment`'s refinement of the open recording on a thread of its own
/// (`BackgroundWork`), with its progress and a cancel the pass polls between batches.
/// Opening another document invalidates a pass under way, so its result never lands.
final class BackgroundRefinement: @unchecked Sendable {
  enum Outcome: Sendable {
    case refined(PoseRefinement)
    case failed(String)
    case cancelled
  }

  private let work = BackgroundWork<Outcome>()
  private let lock = NSLock()
  private var fraction = 0.0
  private var cancelRequested = false
  private let options: CloudScrubCore.AlignmentOptions

  init(options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()) {
    self.options = options
  }

  var isRunning: Bool { work.isBusy }

  /// The fraction of frames the running pass has done.
  var fractionDone: Double {
    lock.lock()
    defer { lock.unlock() }
    return fraction
  }

  /// Starts refining `source`'s poses for the loaded frames `frames` (recording frame
  /// indices); false when a pass is already running.
  @discardableResult
  func start(_ source: any RecordingSource, frames: [Int]) -> Bool {
    guard !work.isBusy else { return false }
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

  /// Asks the running pass to stop; it ends at its next batch with `.cancelled`.
  func cancel() {
    lock.lock()
    cancelRequested = true
    lock.unlock()
  }

  /// Drops the result of a pass under way (another document opened) and stops it.
  func invalidate() {
    cancel()
    work.invalidate()
  }

  /// The outcome of the pass that ended, handed out once.
  func take() -> Outcome? { work.take() }
}
