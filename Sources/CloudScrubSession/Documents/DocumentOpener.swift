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
  /// The memory the viewer's points may take: a COPC file reads the levels of its
  /// octree that fit it.
  public var budgetBytes = ViewerMemoryPlan.defaultBudgetBytes
  /// The recording options of `view` (frames, depth-pixel filters, `--skip-untracked`),
  /// applied to `choicesPath`, the recording given on the command line (not to files
  /// dropped on the window later).
  public var choices = LoadChoices()
  public var choicesPath: String?
  /// The recording options of `choices` that apply to a point-cloud file too (no note
  /// says they are ignored).
  public static let optionsApplyingToClouds: Set<String> = ["merge"]

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
    let choices = loadChoices(for: path)
    let opened = try InputLoader.open(
      path, choices: choices, applying: Self.optionsApplyingToClouds)
    var document = try open(path, opened, choices: choices)
    document.notes = opened.notes
    return document
  }

  /// The document of the path `given`, opened as `opened` with `choices`.
  private func open(_ given: String, _ opened: OpenedInput, choices: LoadChoices) throws
    -> ViewerDocument
  {
    if let source = opened.recording {
      return try openRecording(opened.path, source: source, choices: choices)
    }
    // A binary PLY opens at once: only its header is read here, its points in the
    // background (a sample first).
    if case .ply = opened.kind,
      let sampled = try InputLoader.openSampledPLY(opened.path, merge: merge)
    {
      let file = sampled.file
      return ViewerDocument(
        path: given, load: sampled.load.start(), summary: sampled.summary,
        kind: .cloud(CloudDocument(points: .rereadable { try PLYReader.read(file).cloud })))
    }
    // A COPC file opens at once too: its octree is read level by level, the coarse
    // levels first, as many as fit the viewer.
    if case .cloud(let format) = opened.kind, format == "LAS",
      let octree = try InputLoader.openOctree(opened.path, budgetBytes: budgetBytes)
    {
      let file = opened.path
      return ViewerDocument(
        path: given, load: octree.load.start(), summary: octree.summary,
        kind: .cloud(
          CloudDocument(
            points: .rereadable { try LASReader.read(path: file).cloud }, worldUp: .z)))
    }
    return openCloud(given, file: opened.path, kind: opened.kind)
  }

  /// Reads any other point-cloud file whole in the background, its progress in the
  /// load's status; the cloud is kept for the export, which writes every property read
  /// (normals, attributes).
  private func openCloud(_ path: String, file: String, kind: InputKind) -> ViewerDocument {
    let read = CloudRead()
    let load = StreamingLoad(reading: { progress in
      // A LAZ file with a corrupt chunk shows the chunks before it, and says so.
      let input = try InputLoader.loadCloud(file, progress: progress, whatReads: true)
      let frames = CloudTimeline.frameValues(of: input.cloud).map { Set($0).count }
      read.finished(
        input.cloud,
        summary: "\(input.format), \(input.cloud.count) points"
          + (input.triangles.map { ", \($0.count) triangles" } ?? "")
          + (frames.map { ", \($0) frames" } ?? "")
          + input.notes.map { "; " + $0 }.joined(), triangles: input.triangles)
      return input.cloud
    })
    let format: String
    switch kind {
    case .cloud(let name): format = name
    default: format = "PLY"
    }
    let up = CloudFileFormats.named(format)?.worldUp ?? .y
    return ViewerDocument(
      path: path, load: load, summary: "\(format) file, reading its points",
      kind: .cloud(CloudDocument(points: .reading(read), worldUp: up)))
  }

  /// Opens a recording for the window with `choices`: the command line's recording
  /// options when it is the one they were given for.
  private func openRecording(
    _ recordingPath: String, source: any RecordingSource, choices: LoadChoices
  ) throws -> ViewerDocument {
    let selection = try choices.frames(of: source, path: recordingPath)
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
