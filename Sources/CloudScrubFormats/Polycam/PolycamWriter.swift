import CloudScrubCore
import Foundation

/// Writes any recording as a Polycam raw-data export, with Polycam's conventions:
/// keyframe ids from the timestamps in microseconds, `fx, fy, cx, cy` for the image's
/// `width` × `height`, `t_00 … t_23` the rows of the camera-to-world matrix in ARKit
/// (OpenGL) camera axes, depth as 16-bit millimetres.
///
/// Used by tests and benchmarks to build exports from synthetic recordings.
public struct PolycamWriter: Sendable {
  /// Whether to also write `corrected_cameras` and `corrected_images` (the same
  /// cameras and images), as an export of an optimised capture has.
  public var writesCorrected: Bool
  /// Whether to store confidence as 0/127/255, as some exports do, instead of 0–2.
  public var spreadsConfidence: Bool
  public var encoder: TurboJPEGEncoder

  public init(
    writesCorrected: Bool = false, spreadsConfidence: Bool = false,
    encoder: TurboJPEGEncoder = TurboJPEGEncoder(quality: 90)
  ) {
    self.writesCorrected = writesCorrected
    self.spreadsConfidence = spreadsConfidence
    self.encoder = encoder
  }

  /// The keyframe id of a frame at `timestampSeconds`: whole microseconds.
  public static func id(timestampSeconds: Double) -> String {
    String(Int64((timestampSeconds * 1e6).rounded()))
  }

  /// Writes every frame of `source` under `folder/keyframes` (created when absent).
  ///
  /// - Throws: what reading a frame throws, or an error when a file cannot be written.
  public func write(_ source: any RecordingSource, to folder: String) throws {
    let root = (folder as NSString).appendingPathComponent("keyframes")
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    for index in 0..<source.frameCount {
      let frame = try source.frame(at: index)
      let id = Self.id(timestampSeconds: frame.timestampSeconds)
      var intrinsics = frame.intrinsics
      var jpeg: [UInt8]?
      if let color = frame.color,
        let bytes = try CaptureFolderFiles.jpegBytes(color, encoder: encoder)
      {
        let size = try TurboJPEGDecoder().imageSize(of: bytes)
        intrinsics = intrinsics.scaled(toWidth: size.width, height: size.height)
        jpeg = bytes
      }
      let worldFromARKitCamera = frame.pose.worldFromOpenCVCamera * CameraAxes.openGL.openCVFromSelf
      var camera: [String: Any] = [
        "fx": intrinsics.fx, "fy": intrinsics.fy, "cx": intrinsics.cx, "cy": intrinsics.cy,
        "width": intrinsics.width, "height": intrinsics.height,
        "timestamp": Int64((frame.timestampSeconds * 1e6).rounded()),
        "blur_score": 100.0, "manual_keyframe": false,
      ]
      for row in 0..<3 {
        for column in 0..<4 { camera["t_\(row)\(column)"] = worldFromARKitCamera[row, column] }
      }
      let json = Array(try JSONSerialization.data(withJSONObject: camera, options: [.sortedKeys]))
      let kinds = writesCorrected ? ["", "corrected_"] : [""]
      for prefix in kinds {
        try CaptureFolderFiles.write(json, to: root + "/\(prefix)cameras/\(id).json")
        if let jpeg { try CaptureFolderFiles.write(jpeg, to: root + "/\(prefix)images/\(id).jpg") }
      }
      try CaptureFolderFiles.write(
        try CaptureFolderFiles.encodeMillimeters(frame.depth), to: root + "/depth/\(id).png")
      if let confidence = frame.confidence {
        try CaptureFolderFiles.write(
          try CaptureFolderFiles.encodeConfidence(confidence, spread: spreadsConfidence),
          to: root + "/confidence/\(id).png")
      }
    }
  }
}
