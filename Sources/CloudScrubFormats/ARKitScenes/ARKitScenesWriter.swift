import CloudScrubCore
import Foundation

/// Writes any recording in ARKitScenes' raw layout, with the dataset's conventions:
/// file names `<video>_<time to 3 decimals>`, depth as 16-bit millimetres, colour as
/// RGB PNG with a `.pincam` (`w h fx fy cx cy`) for its size, and `lowres_wide.traj`
/// lines of time, axis-angle rotation and translation of the WORLD-TO-CAMERA transform
/// in OpenCV camera axes. The world is written as the source has it (no rotation).
///
/// Used by tests and benchmarks to build captures from synthetic recordings.
public struct ARKitScenesWriter: Sendable {
  /// The video id the file names start with.
  public var videoID: String

  public init(videoID: String = "41069021") {
    self.videoID = videoID
  }

  /// The time string a frame at `timestampSeconds` is named with (milliseconds).
  public static func stamp(_ timestampSeconds: Double) -> String {
    String(format: "%.3f", timestampSeconds)
  }

  /// Writes every frame of `source` into `folder` (created when absent).
  ///
  /// - Throws: what reading a frame throws, or an error when a file cannot be written
  ///   or a JPEG colour image cannot be decoded.
  public func write(_ source: any RecordingSource, to folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var trajectory = ""
    for index in 0..<source.frameCount {
      let frame = try source.frame(at: index)
      let stamp = Self.stamp(frame.timestampSeconds)
      let name = "\(videoID)_\(stamp)"
      try CaptureFolderFiles.write(
        try CaptureFolderFiles.encodeMillimeters(frame.depth),
        to: path(folder, "lowres_depth/\(name).png"))
      if let confidence = frame.confidence {
        try CaptureFolderFiles.write(
          try CaptureFolderFiles.encodeConfidence(confidence),
          to: path(folder, "confidence/\(name).png"))
      }
      var intrinsics = frame.intrinsics
      var image: RGBImage?
      switch frame.color {
      case .rgb(let rgb): image = rgb
      case .jpeg(let bytes): image = try TurboJPEGDecoder().decodeJPEG(bytes, scale: .full)
      default: image = nil
      }
      if let image {
        intrinsics = intrinsics.scaled(toWidth: image.width, height: image.height)
        try CaptureFolderFiles.write(
          try PNGCodec.encode(image), to: path(folder, "lowres_wide/\(name).png"))
      }
      let pincam = [
        Double(intrinsics.width), Double(intrinsics.height), intrinsics.fx, intrinsics.fy,
        intrinsics.cx, intrinsics.cy,
      ]
      .map { "\($0)" }.joined(separator: " ")
      try CaptureFolderFiles.write(
        Array((pincam + "\n").utf8), to: path(folder, "lowres_wide_intrinsics/\(name).pincam"))
      let cameraFromWorld = frame.pose.worldFromOpenCVCamera.rigidInverse
      let rotation = ARKitScenesText.axisAngle(of: cameraFromWorld)
      let t = cameraFromWorld.translation
      trajectory +=
        ([stamp] + [rotation.x, rotation.y, rotation.z, t.x, t.y, t.z].map { "\($0)" })
        .joined(separator: " ") + "\n"
    }
    try CaptureFolderFiles.write(Array(trajectory.utf8), to: path(folder, "lowres_wide.traj"))
  }

  private func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }
}
