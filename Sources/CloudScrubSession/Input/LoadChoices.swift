import CloudScrubCore

/// What the recording and cleaning options (`OptionTable.recording` and
/// `OptionTable.cleaningRows`) ask of a load in `render` and `view`: the same values
/// `export` parses, read by the same parsers.
public struct LoadChoices {
  public var selection = FrameSelection()
  public var unprojection = UnprojectionOptions()
  public var skipUntracked = false
  /// The ingest-time merge's voxel size; nil keeps every point.
  public var mergeMeters: Float?
  public var cleaning = CleaningOptions()
  /// The recording options given, by name (they do not apply to a PLY input).
  public var givenRecordingOptions: [String] = []
  /// A TUM trajectory to use instead of the recording's poses (`--poses`).
  public var posesPath: String?

  public init() {}

  /// The choices of a command that takes only `--poses` (`info`, `refine`, `mesh`).
  public init(posesPath: String?) {
    self.posesPath = posesPath
  }

  /// Whether a cleaning step was asked for.
  public var cleans: Bool { ExportJob.cleaningDescription(cleaning) != nil }

  /// The frames of the recording `source` (at `path`) these choices select, the leading
  /// untracked frames left out when asked.
  ///
  /// - Throws: `FileError` for a recording with no frame that can be read, `UsageError`
  ///   for a selection of none (naming the valid range), or the error of a pose that
  ///   cannot be read.
  public func frames(of source: any RecordingSource, path: String) throws -> FrameSelection {
    try InputLoader.checkHasFrames(source, path: path)
    let chosen = skipUntracked ? try selection.skippingUntracked(of: source) : selection
    try chosen.checkSelectsFrames(frameCount: source.frameCount, path: path)
    return chosen
  }

  /// `cloud` cleaned by `cleaning` along `worldUp`, normals facing `viewpoint`.
  public func clean(
    _ cloud: PointCloud, worldUp: WorldUp,
    viewpoint: @escaping (UInt32) throws -> SIMD3<Float>?
  ) throws -> PointCloud {
    var options = cleaning
    options.worldUp = worldUp
    let progress = Terminal.progress("cleaning")
    defer { progress?.finish() }
    return try CleaningPipeline.run(cloud, options: options, viewpoint: viewpoint).cloud
  }

  /// A recording's cleaned cloud (with the `frame` and `confidence` attributes of
  /// `PointStore.cloud()`) split back into its frames, each with its capture camera, so
  /// that the timeline and the frustum stay; frames left empty stay too.
  public static func frames(
    of cleaned: PointCloud, frameIndices: [Int], source: any RecordingSource
  ) throws -> [LoadedFrame] {
    let frameOfPoint = CloudTimeline.frameValues(of: cleaned) ?? []
    let confidence = cleaned.attribute(named: "confidence")
    var points: [Int: FramePoints] = [:]
    for (index, frame) in frameOfPoint.enumerated() {
      var framePoints = points[frame] ?? FramePoints()
      framePoints.positions.append(cleaned.positions[index])
      framePoints.colors.append(cleaned.colors?[index] ?? FramePoints.noColor)
      framePoints.confidence.append(
        confidence.map { UInt8(clamping: Int($0.values.double(at: index))) }
          ?? FramePoints.unknownConfidence)
      points[frame] = framePoints
    }
    return try frameIndices.map { frame in
      let info = try source.frameInfo(at: frame)
      return LoadedFrame(
        frameIndex: frame, timestampSeconds: info.timestampSeconds, info: info,
        points: points[frame] ?? FramePoints())
    }
  }
}
