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
  /// A line describing the format ("PLY binary little endian, 1.2 M points").
  public var summary: String

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
  /// - Returns: a line saying what was written.
  /// - Throws: an error naming what went wrong; nothing is left half-written.
  func export(_ request: WindowExportRequest) throws -> String
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
  /// Each loaded frame's pose correction when refined poses are shown (the points are
  /// exported where they are drawn); nil: the recording's poses.
  public var poseCorrections: FramePoseCorrections?

  public init(
    document: ViewerDocument, content: ViewerContent, visibleFrames: ClosedRange<Int>,
    minConfidence: ConfidenceLevel, cleaning: CleaningOptions = CleaningOptions(),
    outputPath: String, poseCorrections: FramePoseCorrections? = nil
  ) {
    self.document = document
    self.content = content
    self.visibleFrames = visibleFrames
    self.minConfidence = minConfidence
    self.cleaning = cleaning
    self.outputPath = outputPath
    self.poseCorrections = poseCorrections
  }
}
