import CloudScrubCore
import Foundation

/// `cloudscrub export PATH -o OUT.ply`: writes a cloud as PLY.
enum ExportCommand {
  /// Usage and prose of `export --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "export",
    synopsis: ["export PATH -o OUT.ply [--ascii] [--attributes LIST] [options]"],
    about: """
      Writes the points of PATH to OUT.ply: a PLY point cloud's points, or the merged
      cloud of a recording's frames in the recording's own world frame. Binary
      little-endian by default, x y z as float and red green blue as uchar. The file is
      written under a temporary name and renamed into place; an input is never
      overwritten.
      """)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    guard let output = parsed.value("output") else {
      throw UsageError("export needs an output file: -o OUT.ply")
    }
    let path = parsed.positionals[0]
    var options = try writeOptions(parsed, source: path)
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
        cleaning: cleaning, options: options, inputs: inputs, output: output,
        dryRun: parsed.has("dry-run"))
      if let merged = try request.run() {
        options.comments.append(merged.framesComment)
        try finish(
          merged.cloud, stages: merged.stages, cleaning: cleaning, running: merged.remaining,
          options: options, viewpoint: viewpoint, inputs: inputs, output: output,
          dryRun: parsed.has("dry-run"))
      }
      return
    }
    try finish(
      cloud, stages: stages, cleaning: cleaning, options: options, viewpoint: viewpoint,
      inputs: inputs,
      output: output, dryRun: parsed.has("dry-run"))
  }

  /// The steps after loading that the command line and the window share, so that the
  /// same settings write the same bytes: cleaning, the header comments, the attribute
  /// list, and the write (or, on a dry run, the stage counts).
  ///
  /// - Parameter running: the steps still to run, when some of `cleaning` ran while the
  ///   frames streamed in (`nil`: all of `cleaning`); the header describes `cleaning`.
  static func finish(
    _ loaded: PointCloud, stages loadStages: [StageCount], cleaning: CleaningOptions,
    running: CleaningOptions? = nil, options writeOptions: PLYWriteOptions,
    viewpoint: @escaping (UInt32) -> SIMD3<Float>?, inputs: [String], output: String, dryRun: Bool
  ) throws {
    var options = writeOptions
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
    if let comment = CleaningFlags.describe(cleaning) { options.comments.append(comment) }
    if cleaning.normalNeighbours != nil {
      switch options.attributes {
      case .none: options.attributes = .named(["normal"])
      case .named(let names) where !names.contains("normal"):
        options.attributes = .named(names + ["normal"])
      default: break
      }
    }
    if dryRun { return printDryRun(stages, points: cloud.count, output: output) }
    let progress = Terminal.progress("writing \(output)")
    defer { progress?.finish() }
    try PLYWriter.write(
      cloud, to: output, options: options, inputs: inputs, progress: progress.handler)
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

  /// The write options the flags describe.
  static func writeOptions(_ parsed: ParsedArguments, source: String) throws -> PLYWriteOptions {
    var options = PLYWriteOptions()
    options.format = parsed.has("ascii") ? .ascii : .binaryLittleEndian
    options.attributes = try attributeSelection(parsed.value("attributes"))
    options.comments = [
      "exported by CloudScrub from \(URL(fileURLWithPath: source).lastPathComponent)"
    ]
    return options
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
