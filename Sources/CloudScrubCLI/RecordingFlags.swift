import CloudScrubCore
import CloudScrubSession

/// The recording options (`OptionTable.recording`) that choose frames and filter depth
/// pixels, parsed into Core's option values (the same values the window uses).
enum RecordingFlags {
  static func selection(_ parsed: ParsedArguments) throws -> FrameSelection {
    var selection = FrameSelection()
    selection.range = try parsed.indexRange("frames")
    if let every = try parsed.count("every") { selection.every = every }
    return selection
  }

  static func unprojection(_ parsed: ParsedArguments) throws -> UnprojectionOptions {
    var options = UnprojectionOptions()
    if let level = try parsed.level("min-confidence") { options.minConfidence = level }
    if let range = try parsed.metresRange("depth-range", atLeast: 0) {
      options.depthRangeMeters = range
    }
    if let flying = try parsed.onOff("flying-pixels") {
      options.flyingPixels = flying ? FlyingPixelFilter() : nil
    }
    if let stride = try parsed.count("stride") { options.stride = stride }
    return options
  }

  /// The `--merge` voxel size, nil when not given.
  static func ingestMerge(_ parsed: ParsedArguments) throws -> Float? {
    try parsed.metres("merge")
  }

  /// The recording's frames as the options choose them: checked to hold frames, its
  /// poses refined first with `--refine`, the leading untracked frames left out with
  /// `--skip-untracked`, and the selection checked to name some.
  ///
  /// - Throws: `FileError` for a recording without frames, `UsageError` for a selection
  ///   of none, and the refinement's and the poses' errors.
  static func frames(
    _ parsed: ParsedArguments, recorded: any RecordingSource, path: String
  ) throws -> (source: any RecordingSource, selection: FrameSelection) {
    try InputLoader.checkHasFrames(recorded, path: path)
    let source =
      try parsed.has("refine")
      ? RefinementFlags.refined(recorded, path: path, options: RefinementFlags.options(parsed))
      : recorded
    var choices = LoadChoices()
    choices.selection = try selection(parsed)
    choices.skipUntracked = parsed.has("skip-untracked")
    return (source, try choices.frames(of: source, path: path))
  }
}
