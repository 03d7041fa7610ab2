import CloudScrubCore

/// Record3D's `.r3d` file: a ZIP archive with `metadata` and `rgbd/<i>.depth` entries.
public enum R3DFormat: RecordingFormat {
  public static let name = "Record3D .r3d"
  public static let lookedFor =
    "a ZIP file (starting with PK\\3\\4) with a 'metadata' entry and entries under rgbd/"

  /// Judged by content, whatever the file's name: a ZIP signature, then the archive's
  /// entry list (read from its central directory; no entry is decompressed).
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    guard !isFolder, prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return false }
    guard let archive = try? R3DArchive(path: path) else { return false }
    return archive.contains("metadata") && archive.entryNames.contains { $0.hasPrefix("rgbd/") }
  }

  public static func open(_ path: String) throws -> any RecordingSource {
    try R3DRecording(path: path)
  }
}
