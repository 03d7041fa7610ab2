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
    switch try InputLoader.open(path, poses: loadedWithChoices(path) ? choices.posesPath : nil) {
    case .cloud(let input):
      if path == choicesPath, !choices.givenRecordingOptions.isEmpty {
        Terminal.error("note: the recording options do not apply to a PLY input; ignored")
      }
      let load = StreamingLoad(cloud: input.cloud)
      let frames = CloudTimeline.frameValues(of: input.cloud).map { Set($0).count }
      return ViewerDocument(
        path: path, load: load, recording: nil, decoder: nil,
        summary: "\(input.format), \(input.cloud.count) points"
          + (frames.map { ", \($0) frames" } ?? ""))
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
      return ViewerDocument(
        path: recordingPath, load: StreamingLoad(recording: loader, memory: memory),
        recording: source,
        decoder: TurboJPEGDecoder(), summary: summary + (memory.note.map { "; " + $0 } ?? ""))
    }
  }

  func export(_ request: WindowExportRequest) throws -> String {
    let path = request.document.path
    let output = request.outputPath
    guard !output.isEmpty else { throw UsageError("give a file name to export to") }
    let target = try ExportCommand.target(
      try ParsedArguments([path], command: ExportCommand.spec), source: path, output: output)
    guard let source = request.document.recording else {
      // A PLY input: read again from the file, as 'cloudscrub export PATH' does, so
      // that every property it has (normals, extra attributes) is written too.
      guard case .cloud(let input) = try InputLoader.open(path) else {
        throw UsageError("\(path) is no longer a PLY file")
      }
      let cloud = Self.shownFrames(of: input.cloud, request)
      try ExportCommand.finish(
        cloud, stages: [StageCount(stage: "read", points: cloud.count)], cleaning: request.cleaning,
        target: target, viewpoint: { _ in nil }, inputs: [path], output: output, dryRun: false)
      return "wrote \(output)"
    }
    // A recording: the window's own copy of the frames shown, filtered by the minimum
    // confidence shown; the same points 'export --frames A-B --min-confidence C' loads.
    let store = request.content.store
    let frames = request.visibleFrames.clamped(to: 0...max(0, request.content.frameCount - 1))
    let range = store.frameRanges[frames.lowerBound]..<store.frameRanges[frames.upperBound + 1]
    let minimum = request.minConfidence.rawValue
    // Refined poses shown: each frame's points moved by its correction, as drawn.
    let whole = request.poseCorrections.map {
      $0.applied(to: store.cloud(), frameRanges: store.frameRanges)
    }
    let cloud = (whole ?? store.cloud()).subset(
      indices: range.filter { store.confidence[$0] >= minimum })
    let frameIndices = Array(request.content.frameIndices[frames])
    // The header records the recording options the frames were loaded with.
    let loaded = loadedWithChoices(path) ? choices : LoadChoices()
    var unprojection = loaded.unprojection
    if request.minConfidence.rawValue > unprojection.minConfidence.rawValue {
      unprojection.minConfidence = request.minConfidence
    }
    let selection = FrameSelection(
      range: (frameIndices.first ?? 0)...(frameIndices.last ?? 0), every: loaded.selection.every)
    var cleaning = request.cleaning
    cleaning.worldUp = source.description.worldUp
    var withFrames = target
    withFrames.provenance.frames = ExportCommand.describe(
      selection, unprojection, frames: frameIndices)
    try ExportCommand.finish(
      cloud, stages: [StageCount(stage: "frames (\(frameIndices.count))", points: cloud.count)],
      cleaning: cleaning, target: withFrames,
      viewpoint: { frame in
        (try? source.frameInfo(at: Int(frame))).map { SIMD3<Float>($0.pose.position) }
      },
      inputs: [path] + (try ExportCommand.recordingFiles(path)), output: output, dryRun: false)
    return
      "wrote the shown points of frames \(frameIndices.first ?? 0)–\(frameIndices.last ?? 0) to \(output)"
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
