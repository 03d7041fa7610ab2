import CloudScrubCore
import CloudScrubFormats
import Foundation

/// A point cloud opened from a file (PLY, PCD, LAS, XYZ text), with what `info` shows.
public struct LoadedInput {
  public var path: String
  /// The format in words ("PLY binary_little_endian 1.0", "PCD 0.7 binary").
  public var format: String
  /// The PLY header, for a PLY file.
  public var header: PLYHeader?
  /// The file's comments (PLY, PCD) or provenance (LAS).
  public var comments: [String]
  public var cloud: PointCloud
  /// A mesh file's triangles (OBJ, glTF): indices of the cloud's points, its vertices.
  public var triangles: [SIMD3<UInt32>]? = nil
  /// The file's up axis (z for LAS and LAZ).
  public var worldUp: WorldUp = .y
  /// What the reader noticed about a damaged file (`LoadedCloud.notes`).
  public var notes: [String] = []
}

/// What a command-line path turned out to be, its points read.
public enum Input {
  case cloud(LoadedInput)
  case recording(path: String, source: any RecordingSource)
}

/// A path opened the one way every command and the window open one
/// (`InputLoader.open`): what it holds, its recording opened, no point read yet, and
/// what the user should be told.
public struct OpenedInput {
  /// The path to read: the one given, or the one recording found inside it.
  public var path: String
  /// What it holds.
  public var kind: InputKind
  /// The recording, its poses replaced when the choices name a trajectory; nil for a
  /// point-cloud file.
  public var recording: (any RecordingSource)?
  /// Lines for the user, without a "note: " prefix: the window shows them, the command
  /// line prints them.
  public var notes: [String]
}

/// Opens the inputs the command line and the window accept, detected by content.
public enum InputLoader {
  /// Opens `path` as `choices` say, reading no point: a recording is opened (with its
  /// poses replaced by `choices.posesPath` when given) and its frames left for the
  /// caller to load; a point-cloud file is left for the caller to read, whole or in the
  /// background. The notes say which recording a folder above one opened, and which of
  /// the recording options given a point-cloud file ignores (those but `applying`, which
  /// apply to a cloud too).
  ///
  /// - Throws: an error naming what is wrong and the path; `UsageError` for a
  ///   trajectory given for a point-cloud file.
  public static func open(
    _ path: String, choices: LoadChoices = LoadChoices(), applying: Set<String> = []
  ) throws -> OpenedInput {
    let resolved = try InputDetector.resolve(path)
    var notes: [String] = []
    guard case .recording(let format) = resolved.kind else {
      try refusePoses(choices.posesPath)
      let ignored = choices.givenRecordingOptions.filter { !applying.contains($0) }
      if !ignored.isEmpty {
        notes.append(
          "the recording options do not apply to a PLY input; ignored: "
            + ignored.map { "--" + $0 }.joined(separator: ", "))
      }
      return OpenedInput(path: resolved.path, kind: resolved.kind, recording: nil, notes: notes)
    }
    if resolved.foundInside != nil {
      notes.append("opening \(resolved.path) (\(format)), the one recording in \(path)")
    }
    var source = try InputDetector.openRecording(resolved.path, format: format)
    if let poses = choices.posesPath {
      source = try replacingPoses(of: source, withPosesFrom: poses)
    }
    return OpenedInput(path: resolved.path, kind: resolved.kind, recording: source, notes: notes)
  }

  /// `--poses` names a trajectory for a recording's frames; a point cloud has none.
  ///
  /// - Throws: `UsageError` when `poses` is given.
  public static func refusePoses(_ poses: String?) throws {
    if poses != nil {
      throw UsageError("--poses applies to recordings, not to a point-cloud file")
    }
  }

  /// Reads a point-cloud file of any format whole, with a progress line on a terminal;
  /// a Gaussian-splat PLY comes back as its points (`GaussianSplats`).
  public static func loadCloud(_ path: String) throws -> LoadedInput {
    let progress = Terminal.progress("reading \(path)")
    defer { progress?.finish() }
    return try loadCloud(path, progress: progress.handler)
  }

  /// Reads a point-cloud file of any format whole, telling `progress` the fraction
  /// read; with `whatReads`, what can be read of a damaged one (the window's way).
  public static func loadCloud(
    _ path: String, progress: ProgressHandler?, whatReads: Bool = false
  ) throws -> LoadedInput {
    let loaded = try CloudFileFormats.read(path, progress: progress, whatReads: whatReads)
    return LoadedInput(
      path: path, format: loaded.format, header: loaded.plyHeader, comments: loaded.comments,
      cloud: loaded.cloud, triangles: loaded.triangles, worldUp: loaded.worldUp,
      notes: loaded.notes)
  }

  /// Opens the binary PLY file at `path` for the window without reading its points:
  /// the header is parsed and checked against the file's size here (bounded work),
  /// and the returned load reads an even sample and then the rest on a background
  /// thread (`SampledCloudLoad`), merged while it loads when `merge` says so. Nil when
  /// the file is not one the sampled load applies to (ASCII, lists in the vertex
  /// records, a `frame` timeline, Gaussian splats, a mesh): it is then read whole.
  ///
  /// - Throws: `FileError` for a malformed header or counts past the file's end;
  ///   `UsageError` when `merge` is off and every point would not fit the viewer.
  public static func openSampledPLY(
    _ path: String, merge: ViewerMemoryPlan.Choice,
    budgetBytes: Int = ViewerMemoryPlan.defaultBudgetBytes
  ) throws -> (load: SampledCloudLoad, summary: String, file: MappedFile)? {
    let file = try MappedFile(path: path)
    // A mesh is read whole, for its faces.
    guard let sampler = try PLYVertexSampler.open(file), !sampler.header.hasFaces else {
      return nil
    }
    var load = SampledCloudLoad(sampler: sampler)
    let fits =
      sampler.count
      <= ViewerMemoryPlan.cloudPointLimit(
        cloudPoints: sampler.count, budgetBytes: budgetBytes, merging: false)
    let note: String?
    if merge == .automatic, !fits {
      // Nothing here may scale with the file: the load sizes the merge from its own
      // first sample, in the background, and says so.
      load.automaticMergeBudgetBytes = budgetBytes
      load.coarsensMerge = true
      note = ViewerMemoryPlan.deferredMergeNote(
        cloudPoints: sampler.count, budgetBytes: budgetBytes)
    } else {
      // The merge size comes from a small even sample, read only when it is needed (a
      // cloud refused with --merge off, to suggest a size).
      let mergedLimit = ViewerMemoryPlan.cloudPointLimit(
        cloudPoints: sampler.count, budgetBytes: budgetBytes, merging: true)
      let automatic =
        fits || merge != .off
        ? ViewerMemoryPlan.automaticVoxelMeters
        : ViewerMemoryPlan.mergeMeters(forSample: load.extentSample(), pointLimit: mergedLimit)
      let memory = ViewerMemoryPlan(
        choice: merge, cloudPoints: sampler.count, automaticMergeMeters: automatic,
        budgetBytes: budgetBytes)
      if memory.keepsTooManyPoints {
        try sampler.checkIntact()
        throw UsageError(
          memory.cloudTooLargeMessage(points: sampler.count, suggestedMergeMeters: automatic)
            + ": \(path)")
      }
      load.memory = memory
      note = memory.note
    }
    let header = sampler.header
    let summary =
      "PLY \(header.format.rawValue) \(header.version), \(sampler.count) points"
      + (note.map { "; " + $0 } ?? "")
    return (load, summary, file)
  }

  /// Opens the COPC file at `path` for the window without reading its points: the
  /// header, VLRs and octree hierarchy are read and checked here (and the root node
  /// decoded, to judge its colours), and the returned load reads the octree level by
  /// level in the background, as many levels as fit `budgetBytes`. Nil when the file is
  /// not COPC: it is then read whole.
  ///
  /// - Throws: `LASError` for a header, VLRs or compression that cannot be read.
  public static func openOctree(
    _ path: String, budgetBytes: Int = ViewerMemoryPlan.defaultBudgetBytes
  ) throws -> (load: OctreeLevelLoad, summary: String, file: MappedFile)? {
    let file = try MappedFile(path: path)
    guard let source = try COPCNodeSource.open(file) else { return nil }
    let total = source.nodes.reduce(0) { $0 + $1.points }
    let limit = ViewerMemoryPlan.cloudPointLimit(
      cloudPoints: total, budgetBytes: budgetBytes, merging: false)
    let load = OctreeLevelLoad(source: source, pointLimit: limit)
    let h = source.header
    let summary =
      "COPC (LAS \(h.versionMajor).\(h.versionMinor) point format \(h.pointFormat)), "
      + "\(total) points, octree of \(load.levels) levels" + (load.note.map { "; " + $0 } ?? "")
    return (load, summary, file)
  }

  /// Loads a recording's selected frames into a merged store, with progress.
  ///
  /// - Throws: `UsageError` when the selection picks no frame (naming the valid range),
  ///   or the error of a frame that cannot be read.
  public static func load(
    _ source: any RecordingSource, path: String, selection: FrameSelection,
    unprojection: UnprojectionOptions
  ) throws -> PointStore {
    try checkHasFrames(source, path: path)
    try selection.checkSelectsFrames(frameCount: source.frameCount, path: path)
    let progress = Terminal.progress("loading \(path)")
    defer { progress?.finish() }
    let loader = loader(source, selection: selection, unprojection: unprojection)
    return try loader.load(progress: { progress?.update($0.fraction) })
  }

  /// A recording whose frames were all lost (a file cut inside its first frame) is bad
  /// input: exporting it would write an empty cloud and report success.
  ///
  /// - Throws: `FileError` naming the path and the recording's notes.
  public static func checkHasFrames(_ source: any RecordingSource, path: String) throws {
    guard source.frameCount == 0 else { return }
    let notes = source.description.notes
    throw FileError(
      .cannotRead(
        "the recording has no frame that can be read"
          + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")),
      path: path)
  }

  /// A loader for a recording's selected frames, decoding JPEG colour with libjpeg-turbo.
  public static func loader(
    _ source: any RecordingSource, selection: FrameSelection, unprojection: UnprojectionOptions
  ) -> RecordingLoader {
    RecordingLoader(
      source: source, selection: selection, unprojection: unprojection,
      decoder: TurboJPEGDecoder())
  }

  /// `source` with its poses replaced by those of the TUM trajectory file at `path`
  /// (`--poses POSES.txt`).
  ///
  /// - Throws: `TrajectoryError` for a file that cannot be read or whose poses do not
  ///   match the recording's frames.
  static func replacingPoses(of source: any RecordingSource, withPosesFrom path: String) throws
    -> any RecordingSource
  {
    try replacingPoses(of: source, with: TUMTrajectory.read(path: path).poses, naming: path)
  }

  /// `source` with its poses replaced by `poses` (one a recording frame: refined ones).
  ///
  /// - Throws: `TrajectoryError` naming `path` when the poses do not match the
  ///   recording's frames.
  public static func replacingPoses(
    of source: any RecordingSource, with poses: [CameraPose], naming path: String
  ) throws -> PosesReplacedRecording {
    do {
      return try PosesReplacedRecording(source, poses: poses)
    } catch {
      throw TrajectoryError(error, path: path)
    }
  }

  /// `loader` (a document's) restricted to the shown recording frames `frames`, selected
  /// and filtered as the window's export selects them (`ExportJob.RecordedFrames.shown`),
  /// without the load's merge, under `poses` when given (one a recording frame: refined
  /// ones). What the window's fusion and cleaning preview load again.
  ///
  /// - Throws: `TrajectoryError` naming `path` when the poses do not fit the recording.
  public static func shownFrames(
    of loader: RecordingLoader, frames: some Collection<Int>, minConfidence: ConfidenceLevel,
    poses: [CameraPose]?, naming path: String
  ) throws -> RecordingLoader {
    var shownLoader = loader
    let shown = ExportJob.RecordedFrames.shown(
      frames, loadedWith: loader.selection, unprojection: loader.unprojection,
      minConfidence: minConfidence)
    shownLoader.selection = shown.selection
    shownLoader.unprojection = shown.unprojection
    shownLoader.ingestMergeMeters = nil
    if let poses {
      shownLoader.source = try replacingPoses(of: loader.source, with: poses, naming: path)
    }
    return shownLoader
  }
}
