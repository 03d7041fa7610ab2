import CloudScrubCore

/// Whole-file reads for importers whose files are small (one image a frame).
enum FileBytes {
  /// A file holding more bytes than its reader accepts.
  struct TooLarge: Error {
    var bytes: Int
  }

  /// The bytes of the file at `path`, refused unread when it holds more than
  /// `limitBytes` (mapping reads nothing, so the size is checked before any byte is
  /// copied).
  ///
  /// - Throws: `TooLarge` past the limit; `FileError` when it cannot be opened, is not a
  ///   regular file, or cannot be read.
  static func read(_ path: String, limitBytes: Int = .max) throws -> [UInt8] {
    let file = try MappedFile(path: path)
    guard file.bytes.count <= limitBytes else { throw TooLarge(bytes: file.bytes.count) }
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
