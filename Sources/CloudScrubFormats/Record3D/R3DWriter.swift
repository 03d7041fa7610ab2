import CloudScrubCore
import Foundation

/// Writes any recording as a Record3D `.r3d` file, for tests and benchmarks: what
/// `R3DRecording` reads back.
///
/// Depth is written as Float32 metres and confidence as UInt8, each as an LZFSE stream
/// of uncompressed blocks (valid LZFSE, just not smaller); colour as JPEG (`.jpeg`
/// frames as they are, `.rgb` frames encoded with `TurboJPEGEncoder`); poses converted
/// to OpenGL camera axes and written as they are, `poses[0]` included.
public struct R3DWriter: Sendable {
  /// What to write besides the frames.
  public struct Options: Equatable, Sendable {
    /// Writes `dw` and `dh`; old Record3D files lack them.
    public var writesDepthSize: Bool
    /// Writes `rgbd/<i>.conf` for frames with confidence; TrueDepth recordings have none.
    public var writesConfidence: Bool
    /// Writes `perFrameIntrinsicCoeffs`, one `[fx, fy, cx, cy]` a frame.
    public var writesPerFrameIntrinsics: Bool
    /// `cameraType`: 1 for the rear LiDAR camera, 0 for the front TrueDepth camera.
    public var cameraType: Int
    /// Quality of JPEG-encoded colour, 1…100.
    public var jpegQuality: Int

    public init(
      writesDepthSize: Bool = true, writesConfidence: Bool = true,
      writesPerFrameIntrinsics: Bool = false, cameraType: Int = 1, jpegQuality: Int = 90
    ) {
      self.writesDepthSize = writesDepthSize
      self.writesConfidence = writesConfidence
      self.writesPerFrameIntrinsics = writesPerFrameIntrinsics
      self.cameraType = cameraType
      self.jpegQuality = jpegQuality
    }
  }

  public var options: Options

  public init(options: Options = Options()) {
    self.options = options
  }

  /// Writes every frame of `source` to a new `.r3d` at `path`.
  ///
  /// `w`, `h` and `K` come from frame 0's intrinsics (the colour image's size); later
  /// frames' intrinsics are scaled to that size for `perFrameIntrinsicCoeffs`.
  ///
  /// - Throws: `R3DWriteError` when the source has no frame, a frame's colour is a
  ///   kind this writer cannot encode (YCbCr, BGRA) or the archive cannot be written;
  ///   the source's or the JPEG encoder's error otherwise.
  public func write(_ source: any RecordingSource, to path: String) throws {
    guard source.frameCount > 0 else {
      throw R3DWriteError("the recording has no frame", path: path)
    }
    let writer = try R3DArchiveWriter(path: path)
    let encoder = TurboJPEGEncoder(quality: options.jpegQuality)
    var first: CapturedFrame?
    var poses = [[Double]]()
    var times = [Double]()
    var coefficients = [[Double]]()
    for index in 0..<source.frameCount {
      let frame = try source.frame(at: index)
      let reference = first ?? frame
      if first == nil { first = frame }
      let depth = frame.depth.metersGrid()
      try writer.add(
        R3DRecording.depthEntry(frame: index),
        R3DArchiveWriter.lzfseStored(depth.withUnsafeBytes { Array($0) }))
      if options.writesConfidence, let confidence = frame.confidence {
        try writer.add(
          R3DRecording.confidenceEntry(frame: index),
          R3DArchiveWriter.lzfseStored(Self.packed(confidence)))
      }
      if let color = frame.color {
        try writer.add(
          R3DRecording.colorEntry(frame: index),
          try Self.jpeg(color, encoder: encoder, frame: index, path: path), compressed: false)
      }
      poses.append(Self.poseRow(frame.pose))
      times.append(frame.timestampSeconds)
      let k = frame.intrinsics.scaled(
        toWidth: reference.intrinsics.width, height: reference.intrinsics.height)
      coefficients.append([k.fx, k.fy, k.cx, k.cy])
    }
    guard let first else { return }
    try writer.add("metadata", try metadataJSON(first, poses, times, coefficients, source))
    try writer.close()
  }

  /// The `metadata` entry's JSON, keys sorted.
  private func metadataJSON(
    _ first: CapturedFrame, _ poses: [[Double]], _ times: [Double], _ coefficients: [[Double]],
    _ source: any RecordingSource
  ) throws -> [UInt8] {
    let k = first.intrinsics
    var metadata: [String: Any] = [
      "w": k.width, "h": k.height,
      // Column-major 3×3: fx at 0, fy at 4, cx at 6, cy at 7.
      "K": [k.fx, 0, 0, 0, k.fy, 0, k.cx, k.cy, 1],
      "poses": poses, "frameTimestamps": times, "cameraType": options.cameraType,
      "fps": source.description.framesPerSecond ?? 30,
    ]
    if options.writesDepthSize {
      metadata["dw"] = first.depth.width
      metadata["dh"] = first.depth.height
    }
    if options.writesPerFrameIntrinsics { metadata["perFrameIntrinsicCoeffs"] = coefficients }
    return Array(try JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]))
  }

  /// Confidence values in tightly packed rows.
  static func packed(_ confidence: ConfidenceMap) -> [UInt8] {
    (0..<confidence.height).flatMap { y in
      confidence.values[
        (y * confidence.bytesPerRow)..<(y * confidence.bytesPerRow + confidence.width)]
    }
  }

  private static func jpeg(
    _ color: ColorImage, encoder: TurboJPEGEncoder, frame: Int, path: String
  ) throws -> [UInt8] {
    switch color {
    case .jpeg(let bytes): return bytes
    case .rgb(let image): return try encoder.encode(image)
    case .yCbCr420, .bgra:
      throw R3DWriteError("frame \(frame): only JPEG or RGB colour can be written", path: path)
    }
  }

  /// `[qx, qy, qz, qw, tx, ty, tz]`: the camera-to-world transform for OpenGL camera
  /// axes, its rotation as a scalar-last unit quaternion.
  static func poseRow(_ pose: CameraPose) -> [Double] {
    let worldFromCamera = pose.worldFromOpenCVCamera * CameraAxes.openGL.openCVFromSelf
    let q = quaternion(worldFromCamera)
    let t = worldFromCamera.translation
    return [q.x, q.y, q.z, q.w, t.x, t.y, t.z]
  }

  /// The unit quaternion (x, y, z, w) of a transform's rotation, from the largest of
  /// its four candidate components for accuracy (Shepperd's method).
  static func quaternion(_ m: Transform3D) -> SIMD4<Double> {
    let (m00, m11, m22) = (m[0, 0], m[1, 1], m[2, 2])
    let trace = m00 + m11 + m22
    var q: SIMD4<Double>
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      q = SIMD4((m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4)
    } else if m00 > m11 && m00 > m22 {
      let s = (1 + m00 - m11 - m22).squareRoot() * 2
      q = SIMD4(s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s)
    } else if m11 > m22 {
      let s = (1 + m11 - m00 - m22).squareRoot() * 2
      q = SIMD4((m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s)
    } else {
      let s = (1 + m22 - m00 - m11).squareRoot() * 2
      q = SIMD4((m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s)
    }
    return q / (q * q).sum().squareRoot()
  }
}
