import CloudScrubCore

/// The export flags that choose frames and filter depth pixels, parsed into Core's
/// option values (the same values the window will use).
enum RecordingFlags {
  static let valueOptions = [
    "--frames": "frames", "--every": "every", "--min-confidence": "min-confidence",
    "--depth-range": "depth-range", "--flying-pixels": "flying-pixels", "--stride": "stride",
    "--merge": "merge",
  ]
  static let flags = ["--skip-untracked": "skip-untracked"]

  static let help = """
      --frames FIRST-LAST   frames to use, 0-based and inclusive (default: all);
                            FIRST,LAST too
      --every N             use every N-th frame of those (default 1)
      --min-confidence low|medium|high
                            skip depth pixels below this confidence (default low:
                            keep all; frames without confidence always pass)
      --depth-range MIN-MAX keep depths in this range, in metres (default: all);
                            MIN,MAX too
      --flying-pixels on|off
                            drop pixels smeared across depth edges (default on)
      --stride N            use every N-th depth pixel in each direction (default 1)
      --merge SIZE_M        while loading, keep only the first point in each voxel of
                            this size in metres, so memory follows the scene, not the
                            capture's length (default: keep every point)
      --skip-untracked      leave out the leading frames recorded before tracking
                            started (exactly zero translation; `info` lists them)
    """

  static func selection(_ parsed: ParsedArguments) throws -> FrameSelection {
    var selection = FrameSelection()
    if let frames = parsed.value("frames") {
      selection.range = try frameRange(frames)
    }
    if let every = parsed.value("every") {
      selection.every = try SynthCommand.positiveInteger(every, option: "--every")
    }
    return selection
  }

  static func unprojection(_ parsed: ParsedArguments) throws -> UnprojectionOptions {
    var options = UnprojectionOptions()
    if let level = parsed.value("min-confidence") {
      switch level {
      case "low": options.minConfidence = .low
      case "medium": options.minConfidence = .medium
      case "high": options.minConfidence = .high
      default: throw UsageError("--min-confidence is low, medium or high, not '\(level)'")
      }
    }
    if let range = parsed.value("depth-range") {
      guard let (near, far) = RangeText.parse(range, as: Float.init), near >= 0, far >= near,
        far.isFinite
      else {
        throw UsageError(
          "--depth-range needs MIN-MAX or MIN,MAX in metres with 0 ≤ MIN ≤ MAX, not '\(range)'")
      }
      options.depthRangeMeters = near...far
    }
    if let flying = parsed.value("flying-pixels") {
      switch flying {
      case "on": options.flyingPixels = FlyingPixelFilter()
      case "off": options.flyingPixels = nil
      default: throw UsageError("--flying-pixels is on or off, not '\(flying)'")
      }
    }
    if let stride = parsed.value("stride") {
      options.stride = try SynthCommand.positiveInteger(stride, option: "--stride")
    }
    return options
  }

  /// The `--merge` voxel size, nil when not given.
  static func ingestMerge(_ parsed: ParsedArguments) throws -> Float? {
    guard let text = parsed.value("merge") else { return nil }
    guard let size = Float(text), size > 0, size.isFinite else {
      throw UsageError("--merge needs a voxel size in metres above 0, not '\(text)'")
    }
    return size
  }

  /// Whether any recording-only flag was given (an error for a PLY input).
  static func anyGiven(_ parsed: ParsedArguments) -> Bool {
    Set(valueOptions.values).contains { parsed.value($0) != nil }
      || Set(flags.values).contains { parsed.has($0) }
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

  /// `--frames FIRST-LAST` (or `FIRST,LAST`), 0-based and inclusive, for export and render.
  static func frameRange(_ text: String) throws -> ClosedRange<Int> {
    guard let (first, last) = RangeText.parse(text, as: { Int($0) }), first >= 0, last >= first
    else {
      throw UsageError(
        "--frames needs FIRST-LAST or FIRST,LAST with 0 ≤ FIRST ≤ LAST, not '\(text)'")
    }
    return first...last
  }
}
