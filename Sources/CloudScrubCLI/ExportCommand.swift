import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub export PATH -o OUT`: writes a cloud as PLY, PCD, LAS, LAZ, E57 or text.
enum ExportCommand {
  /// Usage and prose of `export --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "export",
    synopsis: ["export PATH -o OUT [--format NAME] [--ascii] [--attributes LIST] [options]"],
    about: """
      Writes the points of PATH to OUT: a point cloud's points, or the merged cloud of a
      recording's frames in the recording's own world frame. The format follows OUT's
      extension: PLY (binary little-endian, x y z float, red green blue uchar), PCD v0.7
      (binary, x y z float, PCL's packed rgb), LAS 1.4 point format 7 (0.1 mm steps,
      16-bit RGB, attributes as extra bytes), LAZ (the same records LASzip-compressed,
      chunks of 50,000 points), E57 (one scan, x y z float and colour),
      XYZ text (.xyz, .txt: x y z r g b a line) or CSV. Where the export came from is
      recorded in the file (PLY and PCD comments, a LAS or LAZ record, E57 metadata, text
      comments). The file is written under a temporary name and renamed into place; an
      input is never overwritten.
      """)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    guard let output = parsed.value("output") else {
      throw UsageError("export needs an output file: -o OUT.ply")
    }
    let path = parsed.positionals[0]
    var job = try job(parsed, source: path, output: output)
    let writer = try ExportSteps.writer(for: job)
    // Bad recording options are refused before the input is opened, whatever it is.
    _ = try RecordingFlags.selection(parsed)
    let unprojection = try RecordingFlags.unprojection(parsed)
    if parsed.has("fuse") { return try exportFused(parsed, path: path, job: job, writer: writer) }
    for option in ["fuse-voxel", "truncation", "min-piece"] where parsed.value(option) != nil {
      throw UsageError("--\(option) applies with --fuse")
    }
    let monitor = TerminalExportMonitor()
    defer { monitor.finish() }
    switch try CommandInput.open(path, choices: try LoadChoices(parsed)) {
    case .cloud(let input):
      if parsed.has("refine") { throw UsageError("--refine applies to recordings, not to PLY") }
      if try scanMode(parsed, writer: writer) {
        throw UsageError("--e57-scans frames applies to recordings, not to point clouds")
      }
      let cloud = input.cloud
      job.cleaning.worldUp = input.worldUp  // --height-band measures along it
      report(
        try CloudExport.finish(
          cloud, stages: [StageCount(stage: "read", points: cloud.count)], frameIndices: [],
          job: job, writer: writer, viewpoint: { _ in nil }, monitor: monitor),
        job)
    case .recording(let recordingPath, let recorded):
      let (source, selection) = try RecordingFlags.frames(
        parsed, recorded: recorded, path: recordingPath)
      try ExportSteps.exporting(&job, recording: source, at: recordingPath)
      var loader = InputLoader.loader(source, selection: selection, unprojection: unprojection)
      loader.ingestMergeMeters = try RecordingFlags.ingestMerge(parsed)
      job.writeOptions.scanPoses = try scanPoses(
        parsed, writer: writer, source: source, selection: selection)
      job.recordedFrames = ExportJob.RecordedFrames(
        selection: selection, unprojection: unprojection,
        ingestMergeMeters: loader.ingestMergeMeters)
      let streamed = StreamedExport(
        path: recordingPath, loader: loader, job: job, writer: writer,
        progress: { monitor.show($0, $1) })
      let merged: StreamedExport.Merged
      switch try streamed.run() {
      case .written: return
      case .dryRun(let stages, let points):
        return printDryRun(stages, points: points, output: job.outputPath)
      case .merged(let streamedIn): merged = streamedIn
      }
      report(
        try CloudExport.finish(
          merged.cloud, stages: merged.stages, frameIndices: merged.frameIndices, job: job,
          writer: writer, running: merged.remaining, viewpoint: ExportSteps.viewpoint(source),
          monitor: monitor),
        job)
    }
  }

  /// `export --fuse`: the fused surface's points, through the cleaning steps, to the file.
  private static func exportFused(
    _ parsed: ParsedArguments, path: String, job: ExportJob, writer: any CloudFormatWriter
  ) throws {
    if parsed.value("merge") != nil { throw UsageError("--merge does not apply with --fuse") }
    let fused = try FusionFlags.fuse(parsed, path: path, voxelOption: "fuse-voxel")
    var job = job
    job.cloudHasNormals = true
    try ExportSteps.exporting(&job, recording: fused.source, at: fused.path)
    let cloud = fused.result.mesh.vertexCloud
    let stage = "fuse (\(fused.result.frameIndices.count) frames)"
    let monitor = TerminalExportMonitor()
    defer { monitor.finish() }
    report(
      try CloudExport.finish(
        cloud, stages: [StageCount(stage: stage, points: cloud.count)],
        frameIndices: fused.result.frameIndices, job: job, writer: writer,
        viewpoint: { _ in nil }, monitor: monitor),
      job)
  }

  /// Prints a dry run's stage counts; a real export prints nothing.
  private static func report(_ outcome: CloudExport.Outcome, _ job: ExportJob) {
    guard !outcome.written else { return }
    printDryRun(outcome.stages, points: outcome.points, output: job.outputPath)
  }

  /// What a dry run prints: the points each stage kept, and what would be written.
  static func printDryRun(_ stages: [StageCount], points: Int, output: String) {
    let width = max(stages.map(\.stage.count).max() ?? 0, 5)
    Terminal.out("stage" + String(repeating: " ", count: width - 3) + "points")
    for stage in stages {
      Terminal.out(
        stage.stage + String(repeating: " ", count: width - stage.stage.count + 2)
          + String(stage.points))
    }
    Terminal.out("dry run: nothing written (would write \(points) points to \(output))")
  }

  /// The export job the flags and the output describe, before the input is opened
  /// (the recording's frames and up axis are added once it is).
  static func job(_ parsed: ParsedArguments, source: String, output: String) throws -> ExportJob {
    ExportJob(
      sourcePath: source, cleaning: try CleaningFlags.options(parsed), outputPath: output,
      formatName: parsed.value("format"),
      writeOptions: CloudWriteOptions(
        ascii: parsed.has("ascii"), attributes: try attributeSelection(parsed.value("attributes"))),
      dryRun: parsed.has("dry-run"))
  }

  /// Whether `--e57-scans` asks for one scan a frame.
  ///
  /// - Throws: `UsageError` for a value other than `one` or `frames`, or `frames` for a
  ///   format other than E57.
  static func scanMode(_ parsed: ParsedArguments, writer: any CloudFormatWriter) throws -> Bool {
    switch parsed.value("e57-scans") ?? "one" {
    case "one": return false
    case "frames":
      guard writer.name == "e57" else {
        throw UsageError("--e57-scans frames applies to E57 output, not \(writer.name)")
      }
      return true
    case let other: throw UsageError("--e57-scans takes one or frames, not '\(other)'")
    }
  }

  /// The selected frames' camera-to-world poses when `--e57-scans frames` asks for a
  /// scan a frame, else nil.
  static func scanPoses(
    _ parsed: ParsedArguments, writer: any CloudFormatWriter, source: any RecordingSource,
    selection: FrameSelection
  ) throws -> [Int: Transform3D]? {
    guard try scanMode(parsed, writer: writer) else { return nil }
    var poses: [Int: Transform3D] = [:]
    for index in selection.indices(frameCount: source.frameCount) {
      poses[index] = try source.frameInfo(at: index).pose.worldFromCamera
    }
    return poses
  }

  static func attributeSelection(_ value: String?) throws -> CloudAttributeSelection {
    guard let value else { return .none }
    switch value {
    case "none": return .none
    case "all": return .all
    default:
      let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
        throw UsageError("--attributes needs a comma-separated list of names, 'all' or 'none'")
      }
      return .named(names)
    }
  }
}
