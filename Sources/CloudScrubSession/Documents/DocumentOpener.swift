import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Opens files for the window with the same readers as the command line, and exports
/// from the window through the same steps as `cloudscrub export`
/// (`DocumentOpener+Export.swift`).
public struct DocumentOpener: ViewerDocumentOpener {
  /// The path that names the built-in synthetic sample recording.
  public static let samplePath = "sample:"

  /// Whether recordings are merged while they load (`view --merge`).
  public var merge = ViewerMemoryPlan.Choice.automatic
  /// The recording options of `view` (frames, depth-pixel filters, `--skip-untracked`),
  /// applied to `choicesPath`, the recording given on the command line (not to files
  /// dropped on the window later).
  public var choices = LoadChoices()
  public var choicesPath: String?

  public init() {}

  public func open(_ path: String) throws -> ViewerDocument {
    if path == Self.samplePath {
      let source = SyntheticRecordingSource(
        options: SyntheticRecordingOptions(frameCount: 60, depthNoiseMeters: 0.002))
      let loader = RecordingLoader(source: source, decoder: TurboJPEGDecoder())
      return ViewerDocument(
        path: "sample", load: StreamingLoad(recording: loader),
        summary: "synthetic sample recording, 60 frames",
        kind: .recording(
          RecordingDocument(source: source, decoder: TurboJPEGDecoder(), loader: loader)))
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
      let file = sampled.file
      return ViewerDocument(
        path: path, load: sampled.load.start(), summary: sampled.summary,
        kind: .cloud(CloudDocument(points: .rereadable { try PLYReader.read(file).cloud })))
    }
    switch try InputLoader.open(path, poses: poses) {
    case .cloud(let input):
      if path == choicesPath, !choices.givenRecordingOptions.isEmpty {
        Terminal.error("note: the recording options do not apply to a PLY input; ignored")
      }
      let load = StreamingLoad(cloud: input.cloud)
      let frames = CloudTimeline.frameValues(of: input.cloud).map { Set($0).count }
      // Kept for the export, which writes every property read (normals, attributes).
      return ViewerDocument(
        path: path, load: load,
        summary: "\(input.format), \(input.cloud.count) points"
          + (frames.map { ", \($0) frames" } ?? ""),
        kind: .cloud(CloudDocument(points: .kept(input.cloud))))
    case .recording(let recordingPath, let source):
      let choices = loadedWithChoices(recordingPath) ? self.choices : LoadChoices()
      var selection = choices.selection
      if choices.skipUntracked {
        selection = try selection.skippingUntracked(of: source)
      }
      try selection.checkSelectsFrames(frameCount: source.frameCount, path: recordingPath)
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
        summary: summary + (memory.note.map { "; " + $0 } ?? ""),
        kind: .recording(
          RecordingDocument(source: source, decoder: TurboJPEGDecoder(), loader: loader)))
    }
  }

  /// The recording options the document at `path` was opened with.
  public func loadChoices(for path: String) -> LoadChoices {
    loadedWithChoices(path) ? choices : LoadChoices()
  }

  /// Whether the recording at `path` (as opened, after resolving) is the one the
  /// command line's recording options were given for.
  public func loadedWithChoices(_ path: String) -> Bool {
    guard let choicesPath else { return false }
    return path == choicesPath || (try? InputDetector.resolve(choicesPath).path) == path
  }
}
