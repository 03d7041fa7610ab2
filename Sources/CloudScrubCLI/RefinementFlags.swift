import CloudScrubCore
import CloudScrubSession

/// The refinement options (`--local`, `--hold-tilt`) and the refinement they ask for:
/// the poses `refine` writes, and those `export --refine` and `mesh --refine` load the
/// frames under.
enum RefinementFlags {
  /// The alignment options the command line names: `--hold-tilt` holds each frame's
  /// tilt (the gravity prior's exact mode), `--local` closes no loops.
  static func options(_ parsed: ParsedArguments) -> CloudScrubCore.AlignmentOptions {
    var options = CloudScrubCore.AlignmentOptions()
    if parsed.has("hold-tilt") { options.tiltPriorRadians = 0 }
    if parsed.has("local") { options.closesLoops = false }
    return options
  }

  /// `source` with refined poses, for `export --refine`; says on standard error how far
  /// the cameras moved.
  static func refined(
    _ source: any RecordingSource, path: String,
    options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()
  ) throws -> any RecordingSource {
    let result = try measure(source, label: "refining \(path)", refine: true, options: options)
    return try PosesReplacedRecording(source, poses: result.poses)
  }

  /// Runs the alignment pass with a progress line.
  static func measure(
    _ source: any RecordingSource, label: String, refine: Bool,
    options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()
  ) throws -> DriftAlignment.Result {
    let progress = Terminal.progress(label)
    defer { progress?.finish() }
    return try DriftAlignment.run(
      source, options: options, refine: refine, progress: progress.handler)
  }
}
