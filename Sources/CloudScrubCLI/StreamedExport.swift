import CloudScrubCore
import CloudScrubSession
import Foundation

/// The export of a recording, with memory bounded by what it writes rather than by the
/// capture's length: frames stream through the crop straight into the file, or into a
/// voxel merge; only outlier removal and normals without voxel merging hold every point.
/// Every format streams: its records are spooled beside the target until the count
/// (and for LAS the bounds) that its header needs is known.
struct StreamedExport {
  /// A cloud that still has cleaning steps to run before it is written.
  struct Merged {
    var cloud: PointCloud
    var stages: [StageCount]
    /// The cleaning steps that did not run while the frames streamed in.
    var remaining: CleaningOptions
    /// The recording's frames the points came from.
    var frameIndices: [Int]
  }

  var path: String
  var loader: RecordingLoader
  /// The export; its `recordedFrames` describe what `loader` loads.
  var job: ExportJob
  var writer: any CloudFormatWriter
  /// Asked before each frame, and before each write of the file (`WriteCancellation`);
  /// nil for the command line, which Ctrl-C stops instead.
  var stop: StopCheck? = nil

  /// Runs the part of the export that streams.
  ///
  /// - Returns: the merged cloud with the steps still to run (for `CloudExport.finish`),
  ///   or `nil` when the export is complete (written, or printed for a dry run).
  /// - Throws: the loader's, the cleaning's and the writer's errors; `CleaningCancelled`
  ///   once `stop` says to stop, the temporary files removed and the target as it was.
  func run() throws -> Merged? {
    try WriteCancellation.stopping(when: stop) { try streamed() }
  }

  private func streamed() throws -> Merged? {
    let cleaning = job.cleaning
    let crop = StreamingCrop(cleaning)
    let progressLine = Terminal.progress("loading \(path)")
    defer { progressLine?.finish() }
    let progress: (LoadProgress) -> Void = { progressLine?.update($0.fraction) }
    if let size = cleaning.voxelSizeMeters {
      let (cloud, summary) = try loader.voxelMerged(
        voxelSizeMeters: size, crop: crop, progress: progress, stop: stop)
      var remaining = cleaning
      remaining.crop = nil
      remaining.heightBandMeters = nil
      remaining.voxelSizeMeters = nil
      return Merged(
        cloud: cloud,
        stages: stages(summary, crop: crop) + [StageCount(stage: "voxel", points: cloud.count)],
        remaining: remaining, frameIndices: summary.frameIndices)
    }
    if cleaning.statistical != nil || cleaning.radius != nil || cleaning.normalNeighbours != nil {
      // Outlier removal and normals look at every point's neighbours: hold them all.
      var stopped = false
      let store = try loader.load(progress: progress) { _ in
        stopped = stop?() == true
        return !stopped
      }
      if stopped { throw CleaningCancelled(step: "frames") }
      var summary = FrameStreamSummary()
      summary.frameIndices = store.frameIndices
      summary.framePoints = store.count
      return Merged(
        cloud: store.cloud(), stages: stages(summary, crop: StreamingCrop()), remaining: cleaning,
        frameIndices: store.frameIndices)
    }
    let stream =
      job.dryRun
      ? nil
      : try writer.streamWriter(
        path: job.outputPath, fields: FramePoints().cloud(frameIndex: 0),
        options: job.effectiveWriteOptions, inputs: job.inputPaths)
    // An error (a cancel among them) removes the spool and the temporary file at once.
    do {
      let summary = try loader.streamFrames(crop: crop, progress: progress, stop: stop) {
        points, frameIndex, keep in
        try stream?.append(points.cloud(frameIndex: frameIndex, keeping: keep))
      }
      progressLine?.finish()
      guard let stream else {
        ExportCommand.printDryRun(
          stages(summary, crop: crop), points: summary.keptPoints, output: job.outputPath)
        return nil
      }
      let writing = Terminal.progress("writing \(job.outputPath)")
      defer { writing?.finish() }
      try stream.finish(
        provenance: job.provenance(frameIndices: summary.frameIndices), progress: writing.handler)
      return nil
    } catch {
      stream?.abandon()
      throw error
    }
  }

  private func stages(_ summary: FrameStreamSummary, crop: StreamingCrop) -> [StageCount] {
    var stages = [
      StageCount(stage: "frames (\(summary.frameIndices.count))", points: summary.framePoints)
    ]
    if crop.isActive { stages.append(StageCount(stage: "crop", points: summary.keptPoints)) }
    return stages
  }
}
