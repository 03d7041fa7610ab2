import CloudScrubCore

/// What the window asks of the session layer, which knows the file formats: opening a
/// path, and exporting what is shown (`DocumentOpener`; the tests' doubles).
public protocol ViewerDocumentOpener {
  /// Opens a path (a PLY file or a recording) and starts streaming it.
  ///
  /// - Throws: an error naming what is wrong with the file; the window shows it.
  func open(_ path: String) throws -> ViewerDocument

  /// Writes what the window shows, in the format the output's extension names (PLY, PCD,
  /// LAS, XYZ text), with the same steps and the same bytes as
  /// `cloudscrub export` given the same settings.
  ///
  /// Runs as a background job (`BackgroundExport`) while the window keeps drawing: `progress` shows the
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
