import CloudScrubCore

/// Something opened in the window: a name, the load that streams its frames, and what
/// the panels and the export need to know about where it came from.
public struct ViewerDocument {
  /// The path as the user gave it.
  public var path: String
  public var load: StreamingLoad
  /// The recording, for frame previews; nil for a single cloud.
  public var recording: (any RecordingSource)?
  /// Decodes colour images for the previews.
  public var decoder: (any ColorDecoder)?
  /// The loader the recording's frames load with (its frames, sensor-grid filters and
  /// decoder; without the memory plan's merge), with which the cleaning preview
  /// unprojects the shown frames again under refined poses; nil for a single cloud.
  public var loader: RecordingLoader?
  /// A line describing the format ("PLY binary little endian, 1.2 M points").
  public var summary: String
  /// A point-cloud file's points as read, with every property (normals, attributes),
  /// which the export writes; nil for a recording.
  public var cloud: PointCloud?
  /// Reads a point-cloud file's points whole again, with every property, from what was
  /// opened (a mapping that outlives the file's removal), for a file whose points are
  /// not kept as read (a binary PLY loaded in samples); nil otherwise.
  public var readWholeCloud: (() throws -> PointCloud)?

  public init(
    path: String, load: StreamingLoad, recording: (any RecordingSource)?,
    decoder: (any ColorDecoder)?,
    summary: String
  ) {
    self.path = path
    self.load = load
    self.recording = recording
    self.decoder = decoder
    self.summary = summary
  }
}

/// What the window asks of the layer that knows the file formats (the command line,
/// which sees the Formats library): opening a path, and exporting what is shown.
public protocol ViewerDocumentOpener {
  /// Opens a path (a PLY file or a recording) and starts streaming it.
  ///
  /// - Throws: an error naming what is wrong with the file; the window shows it.
  func open(_ path: String) throws -> ViewerDocument

  /// Writes what the window shows, in the format the output's extension names (PLY, PCD,
  /// LAS, XYZ text), with the same steps and the same bytes as
  /// `cloudscrub export` given the same settings.
  ///
  /// Runs on a thread of its own while the window keeps drawing: `progress` shows the
  /// stage and the fraction done, and its `cancel()` stops the export.
  ///
  /// - Returns: a line saying what was written.
  /// - Throws: an error naming what went wrong (`CleaningCancelled` after a cancel);
  ///   nothing is left half-written and an existing output stays as it was.
  func export(_ request: WindowExportRequest, progress: ExportProgress) throws -> String
}

extension ViewerDocumentOpener {
  /// Exports with nobody watching.
  public func export(_ request: WindowExportRequest) throws -> String {
    try export(request, progress: ExportProgress())
  }
}

/// An export asked for in the window: the loaded points, and the settings that the
/// window shows them with.
public struct WindowExportRequest {
  public var document: ViewerDocument
  public var content: ViewerContent
  /// The frames shown, as positions among the loaded frames.
  public var visibleFrames: ClosedRange<Int>
  public var minConfidence: ConfidenceLevel
  /// The cleaning panel's options (crop, voxel merging, outlier removal, normals).
  public var cleaning: CleaningOptions
  public var outputPath: String
  /// The refined poses when they are shown, one a recording frame (the trajectory
  /// "Save poses" writes): the shown frames are unprojected again with them, as
  /// `cloudscrub export --poses` does; nil: the recording's poses.
  public var refinedPoses: [CameraPose]?

  public init(
    document: ViewerDocument, content: ViewerContent, visibleFrames: ClosedRange<Int>,
    minConfidence: ConfidenceLevel, cleaning: CleaningOptions = CleaningOptions(),
    outputPath: String, refinedPoses: [CameraPose]? = nil
  ) {
    self.document = document
    self.content = content
    self.visibleFrames = visibleFrames
    self.minConfidence = minConfidence
    self.cleaning = cleaning
    self.outputPath = outputPath
    self.refinedPoses = refinedPoses
  }
}
