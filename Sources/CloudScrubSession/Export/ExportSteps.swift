import CloudScrubCore
import CloudScrubFormats
import Foundation

/// The steps of an export that `cloudscrub export` and the window's export share
/// around `CloudExport`: the writer the output names, the files an export must not
/// overwrite, and the cameras the normals face.
public enum ExportSteps {
  /// Each frame's capture camera position, which the normals face.
  ///
  /// The function throws `ViewpointError` for a frame whose pose cannot be read: its
  /// normals would otherwise face the origin and point the wrong way, unsaid.
  public static func viewpoint(_ source: any RecordingSource)
    -> (UInt32) throws -> SIMD3<Float>?
  {
    { frame in
      do {
        return SIMD3<Float>(try source.frameInfo(at: Int(frame)).pose.position)
      } catch {
        throw ViewpointError(frame: Int(frame), underlying: error)
      }
    }
  }

  /// `job` exporting the frames of the recording `source`, opened from `path`: its
  /// `--height-band` measures along the recording's up axis, and neither the recording
  /// nor a file inside its folder may be overwritten.
  ///
  /// - Throws: the error of a folder that cannot be listed.
  public static func exporting(
    _ job: inout ExportJob, recording source: any RecordingSource, at path: String
  ) throws {
    job.cleaning.worldUp = source.description.worldUp
    if !job.inputPaths.contains(path) { job.inputPaths.append(path) }
    job.inputPaths += try recordingFiles(path)
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

/// A frame whose capture camera cannot be read, so its points' normals have nothing
/// to face.
public struct ViewpointError: Error, CustomStringConvertible {
  public var frame: Int
  public var underlying: any Error

  public var description: String {
    "cannot orient the normals of frame \(frame): its camera pose cannot be read (\(underlying))"
  }
}
