import CloudScrubCore

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

  /// `selection` without the recording's leading untracked frames when
  /// `--skip-untracked` was given (see `TrackingStart`); as it is otherwise.
  ///
  /// - Throws: the error of a frame whose pose cannot be read.
  static func skippingUntracked(
    _ selection: FrameSelection, _ parsed: ParsedArguments, source: any RecordingSource
  ) throws -> FrameSelection {
    guard parsed.has("skip-untracked") else { return selection }
    return try skippingUntracked(selection, source: source)
  }

  /// `selection` starting after the recording's leading untracked frames.
  static func skippingUntracked(_ selection: FrameSelection, source: any RecordingSource) throws
    -> FrameSelection
  {
    let untracked = try TrackingStart.untrackedFrameCount(of: source)
    guard untracked > 0 else { return selection }
    var skipped = selection
    let first = max(selection.range?.lowerBound ?? 0, untracked)
    let last = selection.range?.upperBound ?? (source.frameCount - 1)
    guard first <= last else {
      let given = selection.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "all"
      throw UsageError(
        "--skip-untracked leaves no frame of --frames \(given): "
          + "frames 0-\(untracked - 1) were recorded before tracking started")
    }
    skipped.range = first...last
    return skipped
  }

  /// Checks that `selection` picks at least one of a recording's `frameCount` frames.
  ///
  /// - Throws: `UsageError` naming the `--frames` given and the recording's valid range.
  static func checkSelectsFrames(_ selection: FrameSelection, frameCount: Int, path: String)
    throws(UsageError)
  {
    guard selection.indices(frameCount: frameCount).isEmpty else { return }
    let range = selection.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "all"
    let valid = frameCount == 0 ? "has no frames" : "has frames 0-\(frameCount - 1)"
    throw UsageError("--frames \(range) selects no frame: the recording \(valid): \(path)")
  }
}
