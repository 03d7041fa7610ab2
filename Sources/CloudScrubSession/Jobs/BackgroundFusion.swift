import CloudScrubCore
import Foundation

/// The window's model: the shown frames fused in the background (`RecordingFusion`),
/// with the job's progress and a cancel it polls before each frame, and the fused
/// mesh's export, in a job of its own so that the loop never waits for a file. Opening
/// another document invalidates both, so a stale model never lands.
public final class BackgroundFusion: Sendable {
  /// How a fusion ended.
  public enum Outcome: Sendable {
    case fused(RecordingFusion.Result, ModelInputs)
    case failed(String)
    case cancelled
  }

  private let fusing = BackgroundWork<Outcome>()
  private let saving = BackgroundWork<Result<String, SaveError>>()

  public init() {}

  /// A mesh export that failed, in words.
  public struct SaveError: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  public var isRunning: Bool { fusing.isBusy }
  public var isSaving: Bool { saving.isBusy }

  /// The share of the frames fused, and the stage ("fusing 3/40 frames"), of the
  /// fusion under way or the last one.
  public var progress: JobProgress { fusing.progress }

  /// Whether the running fusion was asked to stop and is winding down.
  public var isCancelling: Bool { fusing.isCancelling }

  /// The loader that fuses the shown recording frames `frames` of `document` (a
  /// recording), selected and filtered as the window's export selects them
  /// (`ExportJob.RecordedFrames.shown`), under `poses` when given (the refined poses of
  /// every recording frame).
  ///
  /// - Throws: `UsageError` for a document that is not a recording, `TrajectoryError`
  ///   for poses that do not fit the recording.
  public static func loader(
    for document: ViewerDocument, frames: some Collection<Int>, minConfidence: ConfidenceLevel,
    poses: [CameraPose]?
  ) throws -> RecordingLoader {
    guard let loader = document.loader else {
      throw UsageError("only a recording's frames can be fused into a model")
    }
    return try InputLoader.shownFrames(
      of: loader, frames: frames, minConfidence: minConfidence, poses: poses,
      naming: document.path)
  }

  /// Starts fusing `loader`'s frames at `voxelMeters` (nil: the automatic size), for a
  /// model of `inputs`.
  ///
  /// - Returns: false when a fusion already runs.
  @discardableResult
  public func start(_ loader: RecordingLoader, inputs: ModelInputs, voxelMeters: Float? = nil)
    -> Bool
  {
    var options = FusionOptions()
    options.voxelSizeMeters = voxelMeters
    let fusion = RecordingFusion(loader: loader, options: options)
    let total = loader.selection.indices(frameCount: loader.source.frameCount).count
    return fusing.run { job in
      job.report(0, stage: Self.stage(done: 0, total: total))
      do {
        let result = try fusion.run(
          progress: { done, total in
            job.report(
              Double(done) / Double(max(total, 1)), stage: Self.stage(done: done, total: total))
          },
          stop: { job.isCancelled })
        return .fused(result, inputs)
      } catch is CleaningCancelled {
        return .cancelled
      } catch {
        return .failed("\(error)")
      }
    }
  }

  /// The stage a fusion reports: frames fused of the frames to fuse.
  public static func stage(done: Int, total: Int) -> String {
    "fusing \(done)/\(total) frames"
  }

  /// Asks the running fusion to stop before its next frame; it ends with `.cancelled`.
  public func cancel() {
    fusing.cancel()
  }

  /// Drops what the fusion and the export under way would hand out (another document
  /// opened) and stops the fusion.
  public func invalidate() {
    cancel()
    fusing.invalidate()
    saving.invalidate()
  }

  /// How the fusion that ended did, once; with `seconds`, waits up to that long.
  public func take(waitingUpTo seconds: TimeInterval = 0) -> Outcome? {
    fusing.take(waitingUpTo: seconds)
  }

  /// Starts writing `result`'s mesh to `path` (PLY, OBJ or glTF by its extension),
  /// atomically and never over the recording's files.
  ///
  /// - Returns: false when an export already runs.
  /// - Throws: `UsageError` for an extension no mesh format has, before anything starts.
  @discardableResult
  public func save(_ result: RecordingFusion.Result, to path: String, recordingPath: String)
    throws -> Bool
  {
    let writer = try MeshExport.writer(for: path, formatName: nil)
    return saving.start {
      do {
        try MeshExport.write(result, to: path, writer: writer, recordingPath: recordingPath)
        return .success(
          "wrote \(result.mesh.vertexCount) vertices, \(result.mesh.triangles.count) triangles "
            + "to \(path)")
      } catch {
        return .failure(SaveError(description: "\(error)"))
      }
    }
  }

  /// How the export that ended did, once; with `seconds`, waits up to that long.
  public func takeSaved(waitingUpTo seconds: TimeInterval = 0) -> Result<String, SaveError>? {
    saving.take(waitingUpTo: seconds)
  }
}
