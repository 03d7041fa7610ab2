import CloudScrubCore

/// The export flags that choose frames and filter depth pixels, parsed into Core's
/// option values (the same values the window will use).
enum RecordingFlags {
  static let valueOptions = [
    "--frames": "frames", "--every": "every", "--min-confidence": "min-confidence",
    "--depth-range": "depth-range", "--flying-pixels": "flying-pixels", "--stride": "stride",
    "--merge": "merge",
  ]

  static let help = """
      --frames FIRST-LAST   frames to use, 0-based and inclusive (default: all)
      --every N             use every N-th frame of those (default 1)
      --min-confidence low|medium|high
                            skip depth pixels below this confidence (default low:
                            keep all; frames without confidence always pass)
      --depth-range MIN-MAX keep depths in this range, in metres (default: all)
      --flying-pixels on|off
                            drop pixels smeared across depth edges (default on)
      --stride N            use every N-th depth pixel in each direction (default 1)
      --merge SIZE_M        while loading, keep only the first point in each voxel of
                            this size in metres, so memory follows the scene, not the
                            capture's length (default: keep every point)
    """

  static func selection(_ parsed: ParsedArguments) throws -> FrameSelection {
    var selection = FrameSelection()
    if let frames = parsed.value("frames") {
      let (first, last) = try pair(frames, option: "--frames", as: Int.init)
      guard first >= 0, last >= first else {
        throw UsageError("--frames needs FIRST-LAST with 0 ≤ FIRST ≤ LAST, not '\(frames)'")
      }
      selection.range = first...last
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
      let (near, far) = try pair(range, option: "--depth-range", as: Float.init)
      guard near >= 0, far >= near, far.isFinite else {
        throw UsageError("--depth-range needs MIN-MAX in metres with 0 ≤ MIN ≤ MAX, not '\(range)'")
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
  }

  private static func pair<T>(
    _ text: String, option: String, as parse: (String) -> T?
  ) throws -> (T, T) {
    let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
    guard parts.count == 2, let a = parse(parts[0]), let b = parse(parts[1]) else {
      throw UsageError("\(option) needs two numbers as A-B, not '\(text)'")
    }
    return (a, b)
  }
}
