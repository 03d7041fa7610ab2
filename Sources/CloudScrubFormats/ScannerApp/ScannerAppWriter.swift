import CloudScrubCore
import Foundation

/// Writes any recording as a 3D Scanner App "All Data" export, with the app's
/// conventions: row-major intrinsics for the JPEG's size, row-major camera-to-world
/// `cameraPoseARFrame` in ARKit (OpenGL) camera axes, depth as 16-bit millimetres.
///
/// Used by tests and benchmarks to build exports from synthetic recordings.
public struct ScannerAppWriter: Sendable {
  /// Writes `frame_NNNNN.jpg` for every `imageEvery`-th frame only (1: all), as the
  /// app's low-res mode records images more rarely than depth.
  public var imageEvery: Int
  /// Whether to write `conf_NNNNN.png` for frames that have confidence.
  public var writesConfidence: Bool
  public var encoder: TurboJPEGEncoder

  public init(
    imageEvery: Int = 1, writesConfidence: Bool = true,
    encoder: TurboJPEGEncoder = TurboJPEGEncoder(quality: 90)
  ) {
    precondition(imageEvery >= 1, "imageEvery is at least 1")
    self.imageEvery = imageEvery
    self.writesConfidence = writesConfidence
    self.encoder = encoder
  }

  /// Writes every frame of `source` into `folder` (created when absent), numbered from
  /// `frame_00000`.
  ///
  /// - Throws: what reading a frame throws, or an error when a file cannot be written.
  public func write(_ source: any RecordingSource, to folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for index in 0..<source.frameCount {
      let frame = try source.frame(at: index)
      let number = String(format: "%05d", index)
      var intrinsics = frame.intrinsics
      if index % imageEvery == 0, let color = frame.color,
        let jpeg = try CaptureFolderFiles.jpegBytes(color, encoder: encoder)
      {
        let size = try TurboJPEGDecoder().imageSize(of: jpeg)
        intrinsics = intrinsics.scaled(toWidth: size.width, height: size.height)
        try CaptureFolderFiles.write(jpeg, to: path(folder, "frame_\(number).jpg"))
      } else if case .rgb(let image) = frame.color {
        intrinsics = intrinsics.scaled(toWidth: image.width, height: image.height)
      }
      let worldFromARKitCamera = frame.pose.worldFromOpenCVCamera * CameraAxes.openGL.openCVFromSelf
      let json: [String: Any] = [
        "time": frame.timestampSeconds,
        "frame_index": index,
        "intrinsics": [
          intrinsics.fx, 0, intrinsics.cx, 0, intrinsics.fy, intrinsics.cy, 0, 0, 1,
        ],
        "cameraPoseARFrame": worldFromARKitCamera.rowMajor,
        "averageAngularVelocity": 0,
        "averageVelocity": 0,
        "exposureDuration": 0,
        "motionQuality": 1,
      ]
      let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
      try CaptureFolderFiles.write(Array(data), to: path(folder, "frame_\(number).json"))
      try CaptureFolderFiles.write(
        try CaptureFolderFiles.encodeMillimeters(frame.depth),
        to: path(folder, "depth_\(number).png"))
      if writesConfidence, let confidence = frame.confidence {
        try CaptureFolderFiles.write(
          try CaptureFolderFiles.encodeConfidence(confidence),
          to: path(folder, "conf_\(number).png"))
      }
    }
  }

  private func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }
}
