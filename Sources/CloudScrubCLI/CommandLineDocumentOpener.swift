import CloudScrubApp
import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Opens files for the window with the command line's own readers, and exports from
/// the window through the same steps as `cloudscrub export`.
struct CommandLineDocumentOpener: ViewerDocumentOpener {
  /// Whether recordings are merged while they load (`view --merge`).
  var merge = ViewerMemoryPlan.Choice.automatic
  /// The recording options of `view` (frames, depth-pixel filters, `--skip-untracked`),
  /// applied to `choicesPath`, the recording given on the command line (not to files
  /// dropped on the window later).
  var choices = LoadChoices()
  var choicesPath: String?

  func open(_ path: String) throws -> ViewerDocument {
    if path == ViewCommand.samplePath {
      let source = SyntheticRecordingSource(
        options: SyntheticRecordingOptions(frameCount: 60, depthNoiseMeters: 0.002))
      let loader = RecordingLoader(source: source, decoder: TurboJPEGDecoder())
      return ViewerDocument(
        path: "sample", load: StreamingLoad(recording: loader), recording: source,
        decoder: TurboJPEGDecoder(),
        summary: "synthetic sample recording, 60 frames")
    }
    let poses = loadedWithChoices(path) ? choices.posesPath : nil
    // A binary PLY opens at once: only its header is read here, its points in the
    // background (a sample first).
    if poses == nil, case .ply = try InputDetector.resolve(path).kind,
      let sampled = try InputLoader.openSampledPLY(path, merge: merge)
    {
      if path == choicesPath, !choices.givenRecordingOptions.isEmpty {
        Terminal.error("note: the recording options do not apply to a PLY input; ignored")
      }
      var document = ViewerDocument(
        path: path, load: sampled.load.start(), recording: nil, decoder: nil,
        summary: sampled.summary)
      let file = sampled.file
      document.readWholeCloud = { try PLYReader.read(file).cloud }
      return document
    }
    switch try InputLoader.open(path, poses: poses) {
    case .cloud(let input):
      if path == choicesPath, !choices.givenRecordingOptions.isEmpty {
        Terminal.error("note: the recording options do not apply to a PLY input; ignored")
      }
      let load = StreamingLoad(cloud: input.cloud)
      let frames = CloudTimeline.frameValues(of: input.cloud).map { Set($0).count }
      var document = ViewerDocument(
        path: path, load: load, recording: nil, decoder: nil,
        summary: "\(input.format), \(input.cloud.count) points"
          + (frames.map { ", \($0) frames" } ?? ""))
      // Kept for the export, which writes every property read (normals, attributes).
      document.cloud = input.cloud
      return document
    case .recording(let recordingPath, let source):
      let choices = loadedWithChoices(recordingPath) ? self.choices : LoadChoices()
      var selection = choices.selection
      if choices.skipUntracked {
        selection = try RecordingFlags.skippingUntracked(selection, source: source)
      }
      try RecordingFlags.checkSelectsFrames(
        selection, frameCount: source.frameCount, path: recordingPath)
      let loader = RecordingLoader(
        source: source, selection: selection, unprojection: choices.unprojection,
        decoder: TurboJPEGDecoder())
      let d = source.description
      let memory = ViewerMemoryPlan(
        choice: merge, frames: selection.indices(frameCount: source.frameCount).count,
        depthWidth: d.depthWidth,
        depthHeight: d.depthHeight)
      let summary =
        "\(d.app ?? d.format), \(source.frameCount) frames, depth \(d.depthWidth)×\(d.depthHeight)"
      var document = ViewerDocument(
        path: recordingPath, load: StreamingLoad(recording: loader, memory: memory),
        recording: source,
        decoder: TurboJPEGDecoder(), summary: summary + (memory.note.map { "; " + $0 } ?? ""))
      document.loader = loader
      return document
    }
  }

  func export(_ request: WindowExportRequest, progress: ExportProgress) throws -> String {
    let job = try Self.job(for: request, loadedWith: loadChoices(for: request.document.path))
    let writer = try ExportCommand.writer(for: job)
    guard let source = request.document.recording else {
      // A point cloud: the points read when it opened, with every property they have.
      let whole: PointCloud
      if let kept = request.document.cloud {
        whole = kept
      } else if let read = request.document.readWholeCloud {
        whole = try read()
      } else {
        guard case .cloud(let input) = try InputLoader.open(job.sourcePath) else {
          throw UsageError("\(job.sourcePath) is no longer a point-cloud file")
        }
        whole = input.cloud
      }
      let cloud = Self.shownFrames(of: whole, request)
      _ = try CloudExport.finish(
        cloud, stages: [StageCount(stage: "read", points: cloud.count)], frameIndices: [],
        job: job, writer: writer, viewpoint: { _ in nil }, monitor: progress)
      return "wrote \(job.outputPath)"
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
  static func finishShown(
    _ cloud: PointCloud, frameIndices: [Int], source: any RecordingSource, job: ExportJob,
    writer: any CloudFormatWriter, progress: ExportProgress, posesNote: String = ""
  ) throws -> String {
    _ = try CloudExport.finish(
      cloud, stages: [StageCount(stage: "frames (\(frameIndices.count))", points: cloud.count)],
      frameIndices: frameIndices, job: job, writer: writer,
      viewpoint: ExportCommand.viewpoint(source), monitor: progress)
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
  static func job(for request: WindowExportRequest, loadedWith loaded: LoadChoices) throws
    -> ExportJob
  {
    let path = request.document.path
    guard !request.outputPath.isEmpty else { throw UsageError("give a file name to export to") }
    var job = ExportJob(
      sourcePath: path, cleaning: request.cleaning, outputPath: request.outputPath)
    guard let source = request.document.recording else { return job }
    job.cleaning.worldUp = source.description.worldUp
    job.inputPaths += try ExportCommand.recordingFiles(path)
    job.recordedFrames = ExportJob.RecordedFrames.shown(
      request.content.frameIndices[shownPositions(request)], loadedWith: loaded.selection,
      unprojection: loaded.unprojection, minConfidence: request.minConfidence)
    return job
  }

  /// The shown frames, as positions among the loaded ones, within what is loaded.
  static func shownPositions(_ request: WindowExportRequest) -> ClosedRange<Int> {
    request.visibleFrames.clamped(to: 0...max(0, request.content.frameCount - 1))
  }

  /// The recording options the document at `path` was opened with.
  func loadChoices(for path: String) -> LoadChoices {
    loadedWithChoices(path) ? choices : LoadChoices()
  }

  /// Whether the recording at `path` (as opened, after resolving) is the one the
  /// command line's recording options were given for.
  func loadedWithChoices(_ path: String) -> Bool {
    guard let choicesPath else { return false }
    return path == choicesPath || (try? InputDetector.resolve(choicesPath).path) == path
  }

  /// A PLY timeline's points of the frames the window shows (all of a plain cloud).
  static func shownFrames(of cloud: PointCloud, _ request: WindowExportRequest) -> PointCloud {
    guard let values = CloudTimeline.frameValues(of: cloud), request.content.frameCount > 0
    else { return cloud }
    let frames = request.visibleFrames.clamped(to: 0...(request.content.frameCount - 1))
    let shown = Set(request.content.frameIndices[frames])
    return cloud.subset(keeping: values.map { shown.contains($0) })
  }
}
