import CloudScrubCore
import Foundation

/// Writes any recording as a Stray Scanner export, with the app's conventions: depth
/// as 16-bit millimetre PNGs (or `.npy` like older exports), confidence PNGs of levels
/// 0–2, row-major `camera_matrix.csv` for the video's size, `odometry.csv` of
/// camera-to-world poses in OpenCV camera axes with scalar-last quaternions, and
/// `rgb.mp4` encoded with FFmpeg (libx264 when present, else mpeg4, else FFmpeg's
/// default H.264 encoder).
///
/// Used by tests and benchmarks to build exports from synthetic recordings.
public struct StrayScannerWriter: Sendable {
  /// How depth maps are stored.
  public enum DepthFormat: Sendable {
    /// `depth/NNNNNN.png`, 16-bit millimetres (the current app).
    case png
    /// `depth/NNNNNN.npy`, little-endian uint16 millimetres (older exports).
    case numPy
  }

  public var depthFormat: DepthFormat
  /// Whether `odometry.csv` gets per-frame `fx, fy, cx, cy` columns, as forks write.
  public var writesPerFrameIntrinsics: Bool
  /// Whether to write `confidence/NNNNNN.png` for frames that have confidence.
  public var writesConfidence: Bool
  /// The video's frame rate (whole frames a second).
  public var framesPerSecond: Int
  /// FFmpeg encoders to try for `rgb.mp4`, in order, before its default H.264 encoder.
  public var videoEncoders: [String]

  public init(
    depthFormat: DepthFormat = .png, writesPerFrameIntrinsics: Bool = false,
    writesConfidence: Bool = true,
    framesPerSecond: Int = 60, videoEncoders: [String] = ["libx264", "mpeg4"]
  ) {
    precondition(framesPerSecond > 0, "frame rate positive")
    self.depthFormat = depthFormat
    self.writesPerFrameIntrinsics = writesPerFrameIntrinsics
    self.writesConfidence = writesConfidence
    self.framesPerSecond = framesPerSecond
    self.videoEncoders = videoEncoders
  }

  /// Writes every frame of `source` into `folder` (created when absent), numbered from
  /// `000000`. Frames without colour get no video; all colour images must share one
  /// even size.
  ///
  /// - Throws: what reading a frame throws, `VideoError` when encoding fails, or an
  ///   error when a file cannot be written.
  public func write(_ source: any RecordingSource, to folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var encoder: VideoEncoder?
    var header = "timestamp, frame, x, y, z, qx, qy, qz, qw"
    if writesPerFrameIntrinsics { header += ", fx, fy, cx, cy" }
    var odometry = header + "\n"
    var cameraMatrix: CameraIntrinsics?
    for index in 0..<source.frameCount {
      let frame = try source.frame(at: index)
      var intrinsics = frame.intrinsics
      if let image = try rgb(frame.color) {
        if encoder == nil {
          encoder = try VideoEncoder(
            path: path(folder, "rgb.mp4"), width: image.width, height: image.height,
            framesPerSecond: framesPerSecond, format: .mp4, encoderNames: videoEncoders)
        }
        try encoder?.append(image)
        intrinsics = intrinsics.scaled(toWidth: image.width, height: image.height)
      }
      if cameraMatrix == nil { cameraMatrix = intrinsics }

      let worldFromCamera = frame.pose.worldFromOpenCVCamera
      let q = R3DWriter.quaternion(worldFromCamera)
      let t = worldFromCamera.translation
      var values = [frame.timestampSeconds, Double(index), t.x, t.y, t.z, q.x, q.y, q.z, q.w]
      if writesPerFrameIntrinsics {
        values += [intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy]
      }
      odometry +=
        values.enumerated().map { $0.offset == 1 ? String(index) : "\($0.element)" }
        .joined(separator: ", ") + "\n"

      let name = String(format: "%06d", index)
      switch depthFormat {
      case .png:
        try CaptureFolderFiles.write(
          try CaptureFolderFiles.encodeMillimeters(frame.depth),
          to: path(folder, "depth/\(name).png"))
      case .numPy:
        try CaptureFolderFiles.write(
          StrayScannerFiles.npyBytes(Self.millimeters(frame.depth)),
          to: path(folder, "depth/\(name).npy"))
      }
      if writesConfidence, let confidence = frame.confidence {
        try CaptureFolderFiles.write(
          try CaptureFolderFiles.encodeConfidence(confidence),
          to: path(folder, "confidence/\(name).png"))
      }
    }
    try encoder?.finish()
    try CaptureFolderFiles.write(Array(odometry.utf8), to: path(folder, "odometry.csv"))
    try FileManager.default.createDirectory(
      atPath: path(folder, "depth"), withIntermediateDirectories: true)
    if let k = cameraMatrix {
      let rows = [[k.fx, 0, k.cx], [0, k.fy, k.cy], [0, 0, 1]]
      let text =
        rows.map { $0.map { "\($0)" }.joined(separator: ",") }.joined(separator: "\n") + "\n"
      try CaptureFolderFiles.write(Array(text.utf8), to: path(folder, "camera_matrix.csv"))
    }
  }

  /// A frame's colour as RGB for the encoder; `nil` when it has none.
  private func rgb(_ color: ColorImage?) throws -> RGBImage? {
    switch color {
    case nil: return nil
    case .rgb(let image): return image
    case .jpeg(let bytes): return try TurboJPEGDecoder().decodeJPEG(bytes, scale: .full)
    case .yCbCr420(let image): return Self.rgb(of: image)
    case .bgra(let image):
      var pixels = [UInt8]()
      pixels.reserveCapacity(image.width * image.height * 3)
      for y in 0..<image.height {
        for x in 0..<image.width {
          let i = y * image.bytesPerRow + x * 4
          pixels += [image.bytes[i + 2], image.bytes[i + 1], image.bytes[i]]
        }
      }
      return RGBImage(width: image.width, height: image.height, pixels: pixels)
    }
  }

  /// BT.601 YCbCr 4:2:0 to RGB, as the unprojector converts it.
  public static func rgb(of image: YCbCrImage) -> RGBImage {
    var pixels = [UInt8]()
    pixels.reserveCapacity(image.width * image.height * 3)
    func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
    for y in 0..<image.height {
      for x in 0..<image.width {
        let c = (y / 2) * image.chromaBytesPerRow + (x / 2) * 2
        let b = Double(image.chroma[c]) - 128
        let r = Double(image.chroma[c + 1]) - 128
        let luma = Double(image.luma[y * image.lumaBytesPerRow + x])
        let l = image.range == .video ? 1.164 * (luma - 16) : luma
        let (kr, kgb, kgr, kb) =
          image.range == .video ? (1.596, 0.392, 0.813, 2.017) : (1.402, 0.344136, 0.714136, 1.772)
        pixels += [clamp(l + kr * r), clamp(l - kgb * b - kgr * r), clamp(l + kb * b)]
      }
    }
    return RGBImage(width: image.width, height: image.height, pixels: pixels)
  }

  /// A depth map as whole millimetres, rounded; no depth and depths past 65.535 m are 0.
  static func millimeters(_ depth: DepthMap) -> Gray16Image {
    let samples = depth.metersGrid().map { meters -> UInt16 in
      let millimeters = (Double(meters) * 1000).rounded()
      return millimeters > 0 && millimeters <= 65_535 ? UInt16(millimeters) : 0
    }
    return Gray16Image(width: depth.width, height: depth.height, samples: samples)
  }

  private func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }
}
