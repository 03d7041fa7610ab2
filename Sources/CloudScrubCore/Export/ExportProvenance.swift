/// Where an exported cloud came from and what was done to it, in words: each format
/// records it in its own way (PLY and PCD header comments, a LAS variable-length
/// record, comment lines in XYZ text).
public struct ExportProvenance: Equatable, Sendable {
  /// The input's file name (`capture.r3d`).
  public var source: String
  /// The frames and the sensor-grid filters that made the points, for a recording.
  public var frames: String?
  /// The cleaning steps, when any ran.
  public var cleaning: String?

  public init(source: String, frames: String? = nil, cleaning: String? = nil) {
    self.source = source
    self.frames = frames
    self.cleaning = cleaning
  }

  /// The provenance as lines, in order: the source, the frames, the cleaning. A line
  /// never holds a line break (any is replaced by a space).
  public var lines: [String] {
    (["exported by CloudScrub from \(source)", frames, cleaning] as [String?]).compactMap {
      $0.map { line in String(line.map { $0 == "\n" || $0 == "\r" ? " " : $0 }) }
    }
  }
}
