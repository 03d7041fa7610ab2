import CloudScrubCore
import Foundation

/// What a path holds, judged by its content (a folder's layout, a file's first bytes),
/// never by its name.
public enum InputKind: Equatable, Sendable {
  case ply
  case cloudScrubRecording
  case record3DEXRFolder
}

/// Finds out what a path holds and opens recordings of every supported format.
public enum InputDetector {
  /// What the path holds.
  ///
  /// - Throws: `FileError` when it cannot be read, or is nothing CloudScrub opens (the
  ///   message lists what was looked for).
  public static func kind(of path: String) throws -> InputKind {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw FileError(.cannotOpen("No such file or directory"), path: path)
    }
    if isFolder.boolValue {
      if Record3DEXRRecording.looksLike(folder: path) { return .record3DEXRFolder }
      throw FileError(
        .unsupportedFormat(
          "a folder that is no recording CloudScrub knows; looked for metadata.json with "
            + "depth/<i>.exr and rgb/<i>.jpg (Record3D EXR+JPG export)"),
        path: path)
    }
    let prefix = try firstBytes(of: path, count: 16)
    if CloudScrubRecording.hasSignature(prefix) { return .cloudScrubRecording }
    if prefix.starts(with: Array("ply\n".utf8)) || prefix.starts(with: Array("ply\r\n".utf8)) {
      return .ply
    }
    throw FileError(
      .unsupportedFormat(
        "neither a PLY file (first line 'ply') nor a CloudScrub recording (.csrec signature)"),
      path: path)
  }

  /// Opens the recording at `path`, whatever its format.
  ///
  /// - Throws: the format's error naming what is wrong, or `FileError` when the path is
  ///   not a recording.
  public static func openRecording(_ path: String) throws -> any RecordingSource {
    switch try kind(of: path) {
    case .cloudScrubRecording: return try CloudScrubRecording(path: path)
    case .record3DEXRFolder: return try Record3DEXRRecording(folder: path)
    case .ply: throw FileError(.unsupportedFormat("a PLY point cloud, not a recording"), path: path)
    }
  }

  private static func firstBytes(of path: String, count: Int) throws -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw FileError(.cannotOpen(String(cString: strerror(errno))), path: path)
    }
    defer { try? handle.close() }
    do {
      return Array(try handle.read(upToCount: count) ?? Data())
    } catch {
      throw FileError(.cannotRead("\(error)"), path: path)
    }
  }
}
