import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Fusing a recording into a surface and writing it, for the command line and the
/// window alike.
public enum MeshExport {
  /// The mesh writer for `path` (or `formatName`), checked before any work is done.
  ///
  /// - Throws: `UsageError` for a format or extension no mesh format has.
  public static func writer(for path: String, formatName: String?) throws(UsageError)
    -> any MeshFormatWriter
  {
    do {
      return try MeshFormats.writer(forPath: path, name: formatName)
    } catch {
      throw UsageError("\(error)")
    }
  }

  /// Writes `result`'s mesh to `path`, atomically, never over the recording's files,
  /// with a comment naming the recording, the frames and the voxel size.
  public static func write(
    _ result: RecordingFusion.Result, to path: String, writer: any MeshFormatWriter,
    recordingPath: String
  ) throws {
    let name = URL(fileURLWithPath: recordingPath).lastPathComponent
    let frames = result.frameIndices
    let span = frames.isEmpty ? "none" : "\(frames[0])-\(frames[frames.count - 1])"
    let comment =
      "fused by CloudScrub from \(name) (\(frames.count) frames, \(span)), "
      + String(
        format: "voxel %.4g m, truncation %.4g m", result.voxelSizeMeters,
        result.truncationMeters)
    try MeshFormats.write(
      result.mesh, to: path, writer: writer, comment: comment,
      protecting: [recordingPath] + (try ExportSteps.recordingFiles(recordingPath)))
  }
}
