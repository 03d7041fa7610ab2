import CloudScrubCore
import CloudScrubFormats
import Foundation

/// The files `cloudscrub synth` writes, which the benchmarks make too: a synthetic
/// scene's point cloud as PLY, and a synthetic capture in CloudScrub's recording format.
public enum SyntheticFiles {
  /// Writes `count` points of the synthetic room corner (`SyntheticCloud.scene`) to the
  /// PLY file `output`, with normals as attributes when asked; past
  /// `SyntheticCloud.streamedPiecePoints` binary points, piece by piece, never held whole.
  public static func writeCloud(
    count: Int, seed: UInt64, normals: Bool, ascii: Bool, to output: String,
    progress: ProgressHandler? = nil
  ) throws {
    let comments = ["synthetic room corner by CloudScrub, seed \(seed)"]
    if count > SyntheticCloud.streamedPiecePoints, !ascii {
      return try SyntheticCloud.writeScene(
        count: count, seed: seed, normals: normals, comments: comments, to: output,
        progress: progress)
    }
    let cloud = SyntheticCloud.scene(count: count, seed: seed, normals: normals)
    let options = PLYWriteOptions(
      format: ascii ? .ascii : .binaryLittleEndian, attributes: normals ? .all : .none,
      comments: comments)
    try PLYWriter.write(cloud, to: output, options: options)
  }

  /// Writes the synthetic capture `options` describe to `output` in CloudScrub's
  /// recording format, its colour as JPEG when `jpeg` says so, under a temporary name
  /// renamed into place.
  public static func writeRecording(
    _ options: SyntheticRecordingOptions, jpeg: Bool, to output: String,
    progress: ProgressHandler? = nil
  ) throws {
    let source = SyntheticRecordingSource(options: options)
    let url = URL(fileURLWithPath: output)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
    let writer = try CloudScrubRecordingWriter(
      path: temporary,
      metadata: RecordingMetadata(
        appName: "CloudScrub synth", deviceModel: "synthetic scene, seed \(options.seed)",
        framesPerSecond: options.framesPerSecond, depthSensor: .lidar))
    do {
      let encoder = TurboJPEGEncoder(quality: 92)
      for index in 0..<source.frameCount {
        var frame = try source.frame(at: index)
        if jpeg, case .rgb(let image) = frame.color {
          frame.color = .jpeg(try encoder.encode(image))
        }
        try writer.append(frame, orientation: .landscapeRight)
        progress?(Double(index + 1) / Double(source.frameCount))
      }
      try writer.finish()
      guard rename(temporary, output) == 0 else {
        throw FileError(.cannotWrite(String(cString: strerror(errno))), path: output)
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }
}
