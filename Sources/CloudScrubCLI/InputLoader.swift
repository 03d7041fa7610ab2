import CloudScrubCore
import CloudScrubFormats

/// A PLY point cloud opened from a file, with its header for `info`.
struct LoadedInput {
  var path: String
  var header: PLYHeader
  var cloud: PointCloud
}

/// What a command-line path turned out to be.
enum Input {
  case cloud(LoadedInput)
  case recording(path: String, source: any RecordingSource)
}

/// Opens the inputs the command line accepts, detected by content.
enum InputLoader {
  /// Opens `path`: a PLY file is read whole (with progress on a terminal); a recording
  /// is opened and its frames are left for the caller to load, with its poses replaced
  /// by the trajectory file `poses` when given (`--poses`).
  ///
  /// - Throws: an error naming what is wrong and the path.
  static func open(_ path: String, poses: String? = nil) throws -> Input {
    let resolved = try InputDetector.resolve(path)
    if resolved.foundInside != nil, case .recording(let format) = resolved.kind {
      // Say which: the user gave the folder above it.
      Terminal.error("note: opening \(resolved.path) (\(format)), the one recording in \(path)")
    }
    switch resolved.kind {
    case .ply:
      if poses != nil { throw UsageError("--poses applies to recordings, not to a PLY file") }
      return .cloud(try loadPLY(resolved.path))
    case .recording:
      var source = try InputDetector.openRecording(resolved.path)
      if let poses { source = try PosesFlag.replacing(source, withPosesFrom: poses) }
      return .recording(path: resolved.path, source: source)
    }
  }

  static func loadPLY(_ path: String) throws -> LoadedInput {
    let progress = Terminal.progress("reading \(path)")
    defer { progress?.finish() }
    let document = try PLYReader.read(path: path, progress: progress.handler)
    return LoadedInput(path: path, header: document.header, cloud: document.cloud)
  }

  /// Loads a recording's selected frames into a merged store, with progress.
  ///
  /// - Throws: `UsageError` when the selection picks no frame (naming the valid range),
  ///   or the error of a frame that cannot be read.
  static func load(
    _ source: any RecordingSource, path: String, selection: FrameSelection,
    unprojection: UnprojectionOptions
  ) throws -> PointStore {
    try checkHasFrames(source, path: path)
    try RecordingFlags.checkSelectsFrames(selection, frameCount: source.frameCount, path: path)
    let progress = Terminal.progress("loading \(path)")
    defer { progress?.finish() }
    let loader = loader(source, selection: selection, unprojection: unprojection)
    return try loader.load(progress: { progress?.update($0.fraction) })
  }

  /// A recording whose frames were all lost (a file cut inside its first frame) is bad
  /// input: exporting it would write an empty cloud and report success.
  ///
  /// - Throws: `FileError` naming the path and the recording's notes.
  static func checkHasFrames(_ source: any RecordingSource, path: String) throws {
    guard source.frameCount == 0 else { return }
    let notes = source.description.notes
    throw FileError(
      .cannotRead(
        "the recording has no frame that can be read"
          + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")),
      path: path)
  }

  /// A loader for a recording's selected frames, decoding JPEG colour with libjpeg-turbo.
  static func loader(
    _ source: any RecordingSource, selection: FrameSelection, unprojection: UnprojectionOptions
  ) -> RecordingLoader {
    RecordingLoader(
      source: source, selection: selection, unprojection: unprojection,
      decoder: TurboJPEGDecoder())
  }
}
