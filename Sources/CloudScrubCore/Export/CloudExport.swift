import Foundation

/// The export steps that the command line and the window share, so that the same
/// `ExportJob` writes the same bytes from either: the cleaning, the provenance, the
/// attribute list, and the write in the job's format.
///
/// Which writer the format names is the registry's business (`ExportFormats` in
/// CloudScrubFormats, which the caller asks); everything after that lives here.
public enum CloudExport {
  /// What an export did: how many points each stage kept, and how many it wrote (or
  /// would have, on a dry run).
  public struct Outcome: Equatable, Sendable {
    public var stages: [StageCount]
    public var points: Int
    public var written: Bool
  }

  /// Cleans `loaded` and writes it as `job` says.
  ///
  /// - Parameters:
  ///   - stages: what the load kept so far ("frames (N)", "read").
  ///   - frameIndices: the recording's frames the points came from (empty for a cloud).
  ///   - running: the cleaning steps still to run, when some of `job.cleaning` ran
  ///     while the frames streamed in (nil: all of them); the provenance describes
  ///     `job.cleaning` whole.
  ///   - viewpoint: the capture camera's position by frame, for the normals; its error
  ///     ends the export before anything is written.
  ///   - monitor: told of each stage; a cancel stops the cleaning or the write within
  ///     about a second (the write between chunks of about a megabyte, through
  ///     `WriteCancellation`), removing the temporary file.
  /// - Throws: the cleaning's errors (`CleaningSizeError`, `CleaningCancelled`), the
  ///   writer's; nothing is written then and an existing output stays as it was.
  public static func finish(
    _ loaded: PointCloud, stages loadStages: [StageCount], frameIndices: [Int],
    job: ExportJob, writer: any CloudFormatWriter, running: CleaningOptions? = nil,
    viewpoint: (UInt32) throws -> SIMD3<Float>?, monitor: (any ExportMonitor)? = nil
  ) throws -> Outcome {
    let progress = monitor.map { monitor in
      CleaningProgress(
        stepStarted: { step, index, count in
          monitor.stageStarted(.cleaning(step: step, index: index, count: count))
        },
        shouldStop: { monitor.isCancelled })
    }
    let cleaned = try CleaningPipeline.run(
      loaded, options: running ?? job.cleaning, viewpoint: viewpoint, progress: progress)
    let stages = loadStages + cleaned.stages
    guard !job.dryRun else {
      return Outcome(stages: stages, points: cleaned.cloud.count, written: false)
    }
    if monitor?.isCancelled == true { throw CleaningCancelled(step: "writing") }
    monitor?.stageStarted(.writing(path: job.outputPath))
    let stop: StopCheck? = monitor.map { monitor in { @Sendable in monitor.isCancelled } }
    try WriteCancellation.stopping(when: stop) {
      try writer.write(
        cleaned.cloud, provenance: job.provenance(frameIndices: frameIndices),
        options: job.effectiveWriteOptions, to: job.outputPath, inputs: job.inputPaths,
        progress: monitor.map { monitor in { monitor.progressed($0) } })
    }
    return Outcome(stages: stages, points: cleaned.cloud.count, written: true)
  }
}
