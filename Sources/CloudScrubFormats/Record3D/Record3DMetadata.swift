import CloudScrubCore
import Foundation

/// The contents of a Record3D export's `metadata.json` (the `.r3d` archive's `metadata`
/// file has the same keys), converted to CloudScrub's types.
///
/// Keys: `w`, `h` (colour image size), `dw`, `dh` (depth size), `K` (3×3 intrinsics for
/// the colour size, column-major), `poses` (one `[qx, qy, qz, qw, tx, ty, tz]` a frame,
/// camera-to-world, OpenGL camera axes), `fps`, `frameTimestamps` (seconds),
/// `perFrameIntrinsicCoeffs` (one `[fx, fy, cx, cy]` a frame), `initPose`, `cameraType`.
public struct Record3DMetadata: Equatable, Sendable {
  public var colorWidth: Int
  public var colorHeight: Int
  public var depthWidth: Int
  public var depthHeight: Int
  /// Whether `dw` and `dh` were present; old exports lack them, and the depth size is
  /// then 256×192 in the colour image's orientation.
  public var hasDepthSize: Bool
  /// `K`, for the colour image's size.
  public var intrinsics: CameraIntrinsics
  /// `perFrameIntrinsicCoeffs`, for the colour image's size; empty when absent.
  public var perFrameIntrinsics: [CameraIntrinsics]
  /// `poses`: each frame's camera-to-world transform, for OpenGL camera axes.
  public var worldFromCameraPoses: [Transform3D]
  /// `initPose`, in the same form as a pose, when present.
  public var initialWorldFromCamera: Transform3D?
  public var framesPerSecond: Double?
  /// `frameTimestamps`; empty when absent.
  public var frameTimestampsSeconds: [Double]
  /// 1 for the rear LiDAR camera, 0 for the front TrueDepth camera; nil when absent.
  public var cameraType: Int?

  /// Parses the JSON text of a metadata file; `path` names it in errors.
  ///
  /// - Throws: `Record3DError` naming the first key that is missing (`w`, `h`, `K`,
  ///   `poses`; `fps` when `frameTimestamps` is absent) or malformed.
  public init(json: [UInt8], path: String) throws {
    let dictionary: [String: Any]
    do {
      dictionary = try JSONText.topLevelObject(json)
    } catch {
      throw Record3DError(.metadataNotJSON(message: error.message), path: path)
    }
    let fields = MetadataFields(dictionary: dictionary, path: path)

    colorWidth = try fields.positiveInt("w")
    colorHeight = try fields.positiveInt("h")
    if let problem = ImageSizeLimits.colorProblem(width: colorWidth, height: colorHeight) {
      throw Record3DError(.badValue(key: "w", expected: "a plausible size: \(problem)"), path: path)
    }
    if fields.has("dw") || fields.has("dh") {
      depthWidth = try fields.positiveInt("dw")
      depthHeight = try fields.positiveInt("dh")
      if let problem = ImageSizeLimits.depthProblem(width: depthWidth, height: depthHeight) {
        throw Record3DError(
          .badValue(key: "dw", expected: "a plausible size: \(problem)"), path: path)
      }
      hasDepthSize = true
    } else {
      let portrait = colorHeight > colorWidth
      depthWidth = portrait ? 192 : 256
      depthHeight = portrait ? 256 : 192
      hasDepthSize = false
    }

    // Column-major: fx at 0, fy at 4, cx at 6, cy at 7.
    let k = try fields.numbers("K", count: 9, expected: "9 numbers (a column-major 3×3 matrix)")
    intrinsics = CameraIntrinsics(
      fx: k[0], fy: k[4], cx: k[6], cy: k[7], width: colorWidth, height: colorHeight)
    let coefficients =
      try fields.rows(
        "perFrameIntrinsicCoeffs", width: 4, expected: "rows of [fx, fy, cx, cy]") ?? []
    perFrameIntrinsics = coefficients.map { [colorWidth, colorHeight] row in
      CameraIntrinsics(
        fx: row[0], fy: row[1], cx: row[2], cy: row[3], width: colorWidth, height: colorHeight)
    }

    let poseShape = "rows of [qx, qy, qz, qw, tx, ty, tz]"
    guard let poses = try fields.rows("poses", width: 7, expected: poseShape) else {
      throw Record3DError(.missingKey("poses"), path: path)
    }
    guard !poses.isEmpty else {
      throw Record3DError(.badValue(key: "poses", expected: "at least one pose"), path: path)
    }
    for (row, pose) in poses.enumerated() where !Self.hasRotation(pose) {
      throw Record3DError(
        .badValue(key: "poses", expected: "\(poseShape) with a rotation (row \(row): \(pose))"),
        path: path)
    }
    worldFromCameraPoses = poses.map(Self.transform)
    let initial =
      try fields.has("initPose")
      ? fields.numbers("initPose", count: 7, expected: "[qx, qy, qz, qw, tx, ty, tz]") : nil
    if let initial, !Self.hasRotation(initial) {
      throw Record3DError(
        .badValue(key: "initPose", expected: "[qx, qy, qz, qw, tx, ty, tz] with a rotation"),
        path: path)
    }
    initialWorldFromCamera = initial.map(Self.transform)

    frameTimestampsSeconds = try fields.numbersIfPresent("frameTimestamps") ?? []
    framesPerSecond = try fields.has("fps") ? fields.positiveNumber("fps") : nil
    if frameTimestampsSeconds.isEmpty && framesPerSecond == nil {
      throw Record3DError(.missingKey("fps"), path: path)
    }
    cameraType = try fields.has("cameraType") ? fields.wholeNumber("cameraType") : nil
  }

  /// Whether a pose row's quaternion is a rotation: not zero, not of infinite length.
  static func hasRotation(_ row: [Double]) -> Bool {
    Transform3D.isRotation(quaternion: SIMD4(row[0], row[1], row[2], row[3]))
  }

  /// A pose row `[qx, qy, qz, qw, tx, ty, tz]` (scalar-last quaternion) as a transform.
  static func transform(_ row: [Double]) -> Transform3D {
    Transform3D(
      quaternion: SIMD4(row[0], row[1], row[2], row[3]), translation: SIMD3(row[4], row[5], row[6]))
  }
}

extension Record3DMetadata {
  /// Frame `index`'s time: its `frameTimestamps` entry, or `index / fps` without one.
  public func timestampSeconds(frame index: Int) -> Double {
    if index < frameTimestampsSeconds.count { return frameTimestampsSeconds[index] }
    return Double(index) / (framesPerSecond ?? 1)
  }

  /// Frame `index`'s intrinsics for the colour image's size: its
  /// `perFrameIntrinsicCoeffs` row, or `K` without one.
  public func intrinsics(frame index: Int) -> CameraIntrinsics {
    index < perFrameIntrinsics.count ? perFrameIntrinsics[index] : intrinsics
  }
}
