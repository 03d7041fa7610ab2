import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Where and how an export writes: the format's writer, its options and the
/// provenance the format records.
struct ExportTarget {
  var writer: any CloudFormatWriter
  var options: CloudWriteOptions
  var provenance: ExportProvenance
}

/// `cloudscrub export PATH -o OUT`: writes a cloud as PLY, PCD, LAS, E57 or text.
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
      16-bit RGB, attributes as extra bytes), E57 (one scan, x y z float and colour),
      XYZ text (.xyz, .txt: x y z r g b a line) or CSV. Where the export came from is
      recorded in the file (PLY and PCD comments, a LAS record, E57 metadata, text
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
    var target = try target(parsed, source: path, output: output)
    let selection = try RecordingFlags.selection(parsed)
    let unprojection = try RecordingFlags.unprojection(parsed)
    var cleaning = try CleaningFlags.options(parsed)
    let cloud: PointCloud
    var inputs = [path]
    var stages: [StageCount] = []
    var viewpoint: (UInt32) -> SIMD3<Float>? = { _ in nil }
    switch try InputLoader.open(path, poses: parsed.value("poses")) {
    case .cloud(let input):
      if parsed.has("refine") { throw UsageError("--refine applies to recordings, not to PLY") }
      if RecordingFlags.anyGiven(parsed) {
        Terminal.error("note: the recording options do not apply to a PLY input; ignored")
      }
      cloud = input.cloud
      stages.append(StageCount(stage: "read", points: cloud.count))
    case .recording(let recordingPath, let recorded):
      let source =
        try parsed.has("refine") ? RefineCommand.refined(recorded, path: recordingPath) : recorded
      cleaning.worldUp = source.description.worldUp  // --height-band measures along it
      let selection = try RecordingFlags.skippingUntracked(selection, parsed, source: source)
      try InputLoader.checkHasFrames(source, path: recordingPath)
      try RecordingFlags.checkSelectsFrames(
        selection, frameCount: source.frameCount, path: recordingPath)
      inputs.append(contentsOf: try recordingFiles(recordingPath))
      viewpoint = { frame in
        (try? source.frameInfo(at: Int(frame))).map { info in
          SIMD3<Float>(info.pose.position)
        }
      }
      var loader = InputLoader.loader(source, selection: selection, unprojection: unprojection)
      loader.ingestMergeMeters = try RecordingFlags.ingestMerge(parsed)
      let request = StreamedExport(
        path: recordingPath, loader: loader, selection: selection, unprojection: unprojection,
        cleaning: cleaning, target: target, inputs: inputs, output: output,
        dryRun: parsed.has("dry-run"))
      if let merged = try request.run() {
        target.provenance.frames = merged.framesComment
        try finish(
          merged.cloud, stages: merged.stages, cleaning: cleaning, running: merged.remaining,
          target: target, viewpoint: viewpoint, inputs: inputs, output: output,
          dryRun: parsed.has("dry-run"))
      }
      return
    }
    try finish(
      cloud, stages: stages, cleaning: cleaning, target: target, viewpoint: viewpoint,
      inputs: inputs,
      output: output, dryRun: parsed.has("dry-run"))
  }

  /// The steps after loading that the command line and the window share, so that the
  /// same settings write the same bytes: cleaning, the provenance, the attribute list,
  /// and the write in the target's format (or, on a dry run, the stage counts).
  ///
  /// - Parameter running: the steps still to run, when some of `cleaning` ran while the
  ///   frames streamed in (`nil`: all of `cleaning`); the header describes `cleaning`.
  static func finish(
    _ loaded: PointCloud, stages loadStages: [StageCount], cleaning: CleaningOptions,
    running: CleaningOptions? = nil, target writeTarget: ExportTarget,
    viewpoint: @escaping (UInt32) -> SIMD3<Float>?, inputs: [String], output: String, dryRun: Bool
  ) throws {
    var target = writeTarget
    var stages = loadStages
    let stageLine = Terminal.progress("cleaning")
    let cleaned = try CleaningPipeline.run(
      loaded, options: running ?? cleaning, viewpoint: viewpoint,
      progress: {
        stageLine?.update(0); _ = $0
      })
    stageLine?.finish()
    let cloud = cleaned.cloud
    stages += cleaned.stages
    target.provenance.cleaning = CleaningFlags.describe(cleaning)
    if cleaning.normalNeighbours != nil {
      switch target.options.attributes {
      case .none: target.options.attributes = .named(["normal"])
      case .named(let names) where !names.contains("normal"):
        target.options.attributes = .named(names + ["normal"])
      default: break
      }
    }
    if dryRun { return printDryRun(stages, points: cloud.count, output: output) }
    let progress = Terminal.progress("writing \(output)")
    defer { progress?.finish() }
    try target.writer.write(
      cloud, provenance: target.provenance, options: target.options, to: output, inputs: inputs,
      progress: progress.handler)
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

  /// One header comment with the options that made the cloud.
  static func describe(
    _ selection: FrameSelection, _ options: UnprojectionOptions, frames: [Int]
  ) -> String {
    let range = frames.first.map { first in "\(first)-\(frames.last ?? first)" } ?? "none"
    let depth = "\(options.depthRangeMeters.lowerBound)-\(options.depthRangeMeters.upperBound)"
    return "frames \(range) every \(selection.every), min confidence \(options.minConfidence), "
      + "depth range \(depth) m, flying pixels \(options.flyingPixels == nil ? "off" : "on"), "
      + "stride \(options.stride)"
  }

  /// The files inside a recording folder, which an export must not overwrite either.
  static func recordingFiles(_ path: String) throws -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else { return [] }
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
    return names.map { path + "/" + $0 }
  }

  /// The format, write options and provenance the flags and the output describe.
  ///
  /// - Throws: `UsageError` for an output extension or `--format` naming no format
  ///   CloudScrub writes (listing those it does), or `--ascii` for a binary-only one.
  static func target(_ parsed: ParsedArguments, source: String, output: String) throws
    -> ExportTarget
  {
    let writer: any CloudFormatWriter
    do {
      writer = try ExportFormats.writer(for: output, format: parsed.value("format"))
    } catch let error as ExportFormatError {
      throw UsageError(error.description)
    }
    if parsed.has("ascii") && !writer.hasTextForm {
      throw UsageError(ExportFormatError.noTextForm(format: writer.name.uppercased()).description)
    }
    return ExportTarget(
      writer: writer,
      options: CloudWriteOptions(
        ascii: parsed.has("ascii"), attributes: try attributeSelection(parsed.value("attributes"))),
      provenance: ExportProvenance(source: URL(fileURLWithPath: source).lastPathComponent))
  }

  static func attributeSelection(_ value: String?) throws -> PLYAttributeSelection {
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
