/// One captured frame, whatever app recorded it: depth, optional confidence and colour,
/// the intrinsics with the resolution they belong to, the pose, and the time.
///
/// Every importer converts its format to this at the edge; nothing downstream knows
/// which app recorded the frame.
public struct CapturedFrame: Equatable, Sendable {
  public var timestampSeconds: Double
  public var depth: DepthMap
  public var confidence: ConfidenceMap?
  public var color: ColorImage?
  /// Intrinsics for the image size they name (often the colour image's, not the
  /// depth map's: unprojection scales them).
  public var intrinsics: CameraIntrinsics
  public var pose: CameraPose

  public init(
    timestampSeconds: Double, depth: DepthMap, confidence: ConfidenceMap? = nil,
    color: ColorImage? = nil, intrinsics: CameraIntrinsics, pose: CameraPose
  ) {
    self.timestampSeconds = timestampSeconds
    self.depth = depth
    self.confidence = confidence
    self.color = color
    self.intrinsics = intrinsics
    self.pose = pose
  }
}

/// Decodes compressed colour images (JPEG) for unprojection. Core holds no C library,
/// so the decoder comes from the Formats library.
public protocol ColorDecoder: Sendable {
  /// Decodes `bytes`, at a reduced scale where that comes closer to `preferredWidth` ×
  /// `preferredHeight` (the depth map's size: one colour sample a depth pixel).
  ///
  /// - Throws: when the bytes are not an image it can decode.
  func decodeJPEG(_ bytes: [UInt8], preferredWidth: Int, preferredHeight: Int) throws -> RGBImage
}
