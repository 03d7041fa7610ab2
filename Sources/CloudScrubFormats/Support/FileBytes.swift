import CloudScrubCore

/// Whole-file reads for importers whose files are small (one image a frame).
enum FileBytes {
  /// The bytes of the file at `path`.
  ///
  /// - Throws: `FileError` when it cannot be opened, is not a regular file, or cannot be
  ///   read.
  static func read(_ path: String) throws -> [UInt8] {
    let file = try MappedFile(path: path)
    let bytes = withExtendedLifetime(file) { Array(file.bytes) }
    try file.checkIntact()
    return bytes
  }

  /// `error`'s message without the path it ends with, for an error that names the path
  /// itself.
  static func reason(_ error: FileError) -> String {
    let suffix = ": \(error.path)"
    let text = error.description
    return text.hasSuffix(suffix) ? String(text.dropLast(suffix.count)) : text
  }
}
