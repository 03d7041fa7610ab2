import CloudScrubCore
import CloudScrubFormats
import Foundation

/// The steps of an export that `cloudscrub export` and the window's export share
/// around `CloudExport`: the writer the output names, the files an export must not
/// overwrite, and the cameras the normals face.
public enum ExportSteps {
  /// Each frame's capture camera position, which the normals face.
  public static func viewpoint(_ source: any RecordingSource) -> (UInt32) -> SIMD3<Float>? {
    { frame in
      (try? source.frameInfo(at: Int(frame))).map { info in SIMD3<Float>(info.pose.position) }
    }
  }

  /// The files inside a recording folder, which an export must not overwrite either.
  ///
  /// - Throws: the error of a folder that cannot be listed (the export would not know
  ///   which files to protect).
  public static func recordingFiles(_ path: String) throws -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
    else { return [] }
    let names = try FileManager.default.subpathsOfDirectory(atPath: path)
    return names.map { path + "/" + $0 }
  }

  /// The writer of the job's format.
  ///
  /// - Throws: `UsageError` for an output extension or `--format` naming no format
  ///   CloudScrub writes (listing those it does), or `--ascii` for a binary-only one.
  public static func writer(for job: ExportJob) throws -> any CloudFormatWriter {
    do {
      return try ExportFormats.writer(for: job)
    } catch let error as ExportFormatError {
      throw UsageError(error.description)
    }
  }
}
