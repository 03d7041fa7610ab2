import CloudScrubCore
import CloudScrubFormats
import Foundation

extension DocumentOpener {
  public func export(_ request: WindowExportRequest, progress: ExportProgress) throws -> String {
    let job = try Self.job(for: request, loadedWith: loadChoices(for: request.document.path))
    let writer = try ExportSteps.writer(for: job)
    let source: any RecordingSource
    switch request.document.kind {
    case .cloud(let opened):
      // A point cloud: the points read when it opened, with every property they have.
      let cloud = Self.shownFrames(of: try opened.wholeCloud(), request)
      _ = try CloudExport.finish(
        cloud, stages: [StageCount(stage: "read", points: cloud.count)], frameIndices: [],
        job: job, writer: writer, viewpoint: { _ in nil }, monitor: progress)
      return "wrote \(job.outputPath)"
    case .recording(let recording):
      source = recording.source
    }
    if let refined = request.refinedPoses {
      return try Self.exportRefined(
        request, poses: refined, source: source, job: job, writer: writer, progress: progress)
    }
    // A recording: the window's own copy of the frames shown, filtered by the minimum
    // confidence shown; the same points 'export --frames A-B --min-confidence C' loads.
    let store = request.content.store
    let frames = Self.shownPositions(request)
    let range = store.frameRanges[frames.lowerBound]..<store.frameRanges[frames.upperBound + 1]
    let minimum = request.minConfidence.rawValue
    // Selected and gathered with the cancel asked every few thousand points, as every
    // step after it is.
    var shown: [Int] = []
    shown.reserveCapacity(range.count)
    for index in range {
      if index & 4095 == 0, progress.isCancelled { throw CleaningCancelled(step: "frames") }
      if store.confidence[index] >= minimum { shown.append(index) }
    }
    guard let cloud = store.cloud(of: shown, stop: { progress.isCancelled }) else {
      throw CleaningCancelled(step: "frames")
    }
    return try Self.finishShown(
      cloud, frameIndices: Array(request.content.frameIndices[frames]), source: source,
      job: job, writer: writer, progress: progress)
  }

  /// Cleans and writes the shown frames' points, `cloud`, from `source` (whose cameras
  /// the normals face), and says what was written: the last step of both window
  /// exports of a recording.
  public static func finishShown(
    _ cloud: PointCloud, frameIndices: [Int], source: any RecordingSource, job: ExportJob,
    writer: any CloudFormatWriter, progress: ExportProgress, posesNote: String = ""
  ) throws -> String {
    _ = try CloudExport.finish(
      cloud, stages: [StageCount(stage: "frames (\(frameIndices.count))", points: cloud.count)],
      frameIndices: frameIndices, job: job, writer: writer,
      viewpoint: ExportSteps.viewpoint(source), monitor: progress)
    return "wrote the shown points of frames \(frameIndices.first ?? 0)–\(frameIndices.last ?? 0)"
      + "\(posesNote) to \(job.outputPath)"
  }

  /// The export job for what the window shows, from its state: the same job that
  /// `cloudscrub export` builds from flags naming the same settings (`--frames` for the
  /// frames shown, `--min-confidence` for the minimum confidence shown, the cleaning
  /// panel's steps as the cleaning flags).
  ///
  /// - Parameter loaded: the recording options the document was opened with.
  /// - Throws: `UsageError` for an empty output name or one naming no format.
  public static func job(for request: WindowExportRequest, loadedWith loaded: LoadChoices) throws
    -> ExportJob
  {
    let path = request.document.path
    guard !request.outputPath.isEmpty else { throw UsageError("give a file name to export to") }
    var job = ExportJob(
      sourcePath: path, cleaning: request.cleaning, outputPath: request.outputPath)
    guard let source = request.document.recording else { return job }
    try ExportSteps.exporting(&job, recording: source, at: path)
    job.recordedFrames = ExportJob.RecordedFrames.shown(
      request.content.frameIndices[shownPositions(request)], loadedWith: loaded.selection,
      unprojection: loaded.unprojection, minConfidence: request.minConfidence)
    return job
  }

  /// The shown frames, as positions among the loaded ones, within what is loaded.
  public static func shownPositions(_ request: WindowExportRequest) -> ClosedRange<Int> {
    request.visibleFrames.clamped(to: 0...max(0, request.content.frameCount - 1))
  }

  /// A PLY timeline's points of the frames the window shows (all of a plain cloud).
  public static func shownFrames(of cloud: PointCloud, _ request: WindowExportRequest) -> PointCloud
  {
    guard let values = CloudTimeline.frameValues(of: cloud), request.content.frameCount > 0
    else { return cloud }
    let frames = request.visibleFrames.clamped(to: 0...(request.content.frameCount - 1))
    let shown = Set(request.content.frameIndices[frames])
    return cloud.subset(keeping: values.map { shown.contains($0) })
  }
}
