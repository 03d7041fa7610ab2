import CloudScrubCore
import Foundation

/// The export of a recording, with memory bounded by what it writes rather than by the
/// capture's length: frames stream through the crop straight into the file, or into a
/// voxel merge; only outlier removal and normals without voxel merging hold every point.
/// Every format streams: its records are spooled beside the target until the count
/// (and for LAS the bounds) that its header needs is known.
public struct StreamedExport {
  /// A cloud that still has cleaning steps to run before it is written.
  public struct Merged {
    public var cloud: PointCloud
    public var stages: [StageCount]
    /// The cleaning steps that did not run while the frames streamed in.
    public var remaining: CleaningOptions
    /// The recording's frames the points came from.
    public var frameIndices: [Int]
  }

  /// How the streaming part ended.
  public enum Outcome {
    /// The points are merged and have cleaning steps left (for `CloudExport.finish`).
    case merged(Merged)
    /// The file is written.
    case written
    /// A dry run: the points each stage kept, and the points that would be written.
    case dryRun(stages: [StageCount], points: Int)
  }

  public var path: String
  public var loader: RecordingLoader
  /// The export; its `recordedFrames` describe what `loader` loads.
  public var job: ExportJob
  public var writer: any CloudFormatWriter
  /// Asked before each frame, and before each write of the file (`WriteCancellation`);
  /// nil for the command line, which Ctrl-C stops instead.
  public var stop: StopCheck?
  /// Told what runs ("loading PATH", then "writing OUT") and the fraction of it done.
  public typealias StageProgress = (_ stage: String, _ fraction: Double) -> Void
  public var progress: StageProgress?

  public init(
    path: String, loader: RecordingLoader, job: ExportJob, writer: any CloudFormatWriter,
    stop: StopCheck? = nil, progress: StageProgress? = nil
  ) {
    self.path = path
    self.loader = loader
    self.job = job
    self.writer = writer
    self.stop = stop
    self.progress = progress
  }

  /// Runs the part of the export that streams.
  ///
  /// - Returns: the merged cloud with the steps still to run, or how the export ended
  ///   when it is complete (written, or counted for a dry run).
  /// - Throws: the loader's, the cleaning's and the writer's errors; `CleaningCancelled`
  ///   once `stop` says to stop, the temporary files removed and the target as it was.
  public func run() throws -> Outcome {
    try WriteCancellation.stopping(when: stop) { try streamed() }
  }

  private func streamed() throws -> Outcome {
    let cleaning = job.cleaning
    let crop = StreamingCrop(cleaning)
    let loading = "loading \(path)"
    let progress: (LoadProgress) -> Void = { self.progress?(loading, $0.fraction) }
    if let size = cleaning.voxelSizeMeters {
      let (cloud, summary) = try loader.voxelMerged(
        voxelSizeMeters: size, crop: crop, progress: progress, stop: stop)
      var remaining = cleaning
      remaining.crop = nil
      remaining.heightBandMeters = nil
      remaining.voxelSizeMeters = nil
      return .merged(
        Merged(
          cloud: cloud,
          stages: stages(summary, crop: crop) + [StageCount(stage: "voxel", points: cloud.count)],
          remaining: remaining, frameIndices: summary.frameIndices))
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
      return .merged(
        Merged(
          cloud: store.cloud(), stages: stages(summary, crop: StreamingCrop()),
          remaining: cleaning, frameIndices: store.frameIndices))
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
      guard let stream else {
        return .dryRun(stages: stages(summary, crop: crop), points: summary.keptPoints)
      }
      let writing = "writing \(job.outputPath)"
      try stream.finish(
        provenance: job.provenance(frameIndices: summary.frameIndices),
        progress: self.progress.map { report in { report(writing, $0) } })
      return .written
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
