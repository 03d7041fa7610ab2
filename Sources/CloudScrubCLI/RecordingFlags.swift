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

  /// Whether any recording-only option was given (a note for a PLY input).
  static func anyGiven(_ parsed: ParsedArguments) -> Bool {
    OptionTable.recording.contains { parsed.value($0.name) != nil || parsed.has($0.name) }
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
      ? RefineCommand.refined(recorded, path: path, options: RefineCommand.options(parsed))
      : recorded
    let selection = try skippingUntracked(try self.selection(parsed), parsed, source: source)
    try selection.checkSelectsFrames(frameCount: source.frameCount, path: path)
    return (source, selection)
  }

  /// `selection` without the recording's leading untracked frames when
  /// `--skip-untracked` was given (see `TrackingStart`); as it is otherwise.
  ///
  /// - Throws: the error of a frame whose pose cannot be read.
  static func skippingUntracked(
    _ selection: FrameSelection, _ parsed: ParsedArguments, source: any RecordingSource
  ) throws -> FrameSelection {
    guard parsed.has("skip-untracked") else { return selection }
    return try selection.skippingUntracked(of: source)
  }
}
