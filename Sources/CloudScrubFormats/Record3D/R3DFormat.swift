import CloudScrubCore

/// Record3D's `.r3d` file: a ZIP archive with `metadata` and `rgbd/<n>.depth` entries,
/// or the folder it was unzipped into.
public enum R3DFormat: RecordingFormat {
  public static let name = "Record3D .r3d"
  public static let lookedFor =
    "a ZIP file (starting with PK\\3\\4) with a 'metadata' entry (and entries under rgbd/), "
    + "or an unzipped .r3d folder with a 'metadata' file and an rgbd/ folder"

  /// Judged by content, whatever the file's name: a ZIP signature, then the archive's
  /// entry list (read from its central directory; no entry is decompressed). An archive
  /// with `metadata` and no `rgbd/` entries is recognised, so that opening it says it
  /// holds no frames. A folder: `metadata` beside `rgbd/`.
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    if isFolder { return R3DFolder.looksLike(folder: path) }
    guard prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) else { return false }
    guard let archive = try? R3DArchive(path: path) else { return false }
    return archive.contains("metadata")
  }

  public static func open(_ path: String) throws -> any RecordingSource {
    try R3DRecording(path: path)
  }
}
