import Foundation

/// What a synthetic capture looks like: its length, image sizes, noise and scene.
public struct SyntheticRecordingOptions: Equatable, Sendable {
  public var frameCount: Int
  /// The depth and confidence maps' size (ARKit's is 256 × 192).
  public var depthWidth: Int
  public var depthHeight: Int
  /// The colour image's size, which the frames' intrinsics are given for (ARKit's is
  /// 1920 × 1440; smaller by default so that tests render quickly). It should have
  /// the depth map's aspect ratio, as on the phone: both cover the same field of view.
  public var colorWidth: Int
  public var colorHeight: Int
  public var framesPerSecond: Double
  /// The standard deviation of depth noise at 1 m, in metres; it grows with depth²
  /// (σ = depthNoiseMeters · depth²). 0 gives exact depths.
  public var depthNoiseMeters: Double
  /// Seeds the depth noise; the same seed gives the same bytes, run after run and
  /// whichever thread renders a frame.
  public var seed: UInt64
  /// The first frame's timestamp; frame i is at start + i / framesPerSecond.
  public var startTimestampSeconds: Double
  public var scene: SyntheticScene
  public var path: SyntheticCameraPath
  public var confidence: SyntheticConfidenceModel
  /// A tracking drift added to the stored poses (the depth is rendered from the true
  /// ones); nil for exact poses.
  public var drift: SyntheticDrift?

  public init(
    frameCount: Int = 60, depthWidth: Int = 256, depthHeight: Int = 192, colorWidth: Int = 640,
    colorHeight: Int = 480, framesPerSecond: Double = 30, depthNoiseMeters: Double = 0,
    seed: UInt64 = 1, startTimestampSeconds: Double = 0, scene: SyntheticScene = .standard,
    path: SyntheticCameraPath = .standard, confidence: SyntheticConfidenceModel = .init(),
    drift: SyntheticDrift? = nil
  ) {
    self.frameCount = frameCount
    self.depthWidth = depthWidth
    self.depthHeight = depthHeight
    self.colorWidth = colorWidth
    self.colorHeight = colorHeight
    self.framesPerSecond = framesPerSecond
    self.depthNoiseMeters = depthNoiseMeters
    self.seed = seed
    self.startTimestampSeconds = startTimestampSeconds
    self.scene = scene
    self.path = path
    self.confidence = confidence
    self.drift = drift
  }
}

/// How a synthetic capture grades its depths, as ARKit's confidence map does: by rule,
/// never at random.
///
/// A pixel with no depth is low (0). So is a pixel at a depth discontinuity: one of
/// its eight neighbours has no depth, or a depth differing from its own by more than
/// `discontinuityFraction` of the nearer of the two (both sides of a silhouette, where
/// real sensors smear flying pixels; a surface seen within a few degrees of edge-on
/// can read low too). Otherwise a pixel is high (2) when its depth is at most
/// `highMaxDepthMeters` and the angle between its ray and the surface's normal has a
/// cosine of at least `highMinCosine`, and medium (1) when not.
public struct SyntheticConfidenceModel: Equatable, Sendable {
  public var highMaxDepthMeters: Double
  /// 0.3 is about 72.5° from facing the camera.
  public var highMinCosine: Double
  public var discontinuityFraction: Double

  public init(
    highMaxDepthMeters: Double = 3, highMinCosine: Double = 0.3,
    discontinuityFraction: Double = 0.05
  ) {
    self.highMaxDepthMeters = highMaxDepthMeters
    self.highMinCosine = highMinCosine
    self.discontinuityFraction = discontinuityFraction
  }
}

/// Why a synthetic recording could not give a frame.
public enum SyntheticRecordingError: Error, Equatable, CustomStringConvertible, Sendable {
  case frameOutOfRange(index: Int, frameCount: Int)

  public var description: String {
    switch self {
    case .frameOutOfRange(let index, let frameCount):
      "frame \(index) out of range: the synthetic recording has \(frameCount) frames"
    }
  }
}

/// A capture of `SyntheticScene` rendered by ray casting, frame by frame on demand,
/// with every field as an iPhone's LiDAR capture records it.
///
/// Frame i is taken at fraction i / (frameCount − 1) of the camera path (0 for a single
/// frame). Each frame holds:
/// - depth: Float32 metres along the camera's forward axis (not along the ray) to the
///   first surface, through each depth pixel's centre (u + 0.5, v + 0.5) with the
///   intrinsics scaled to the depth size; 0 where the ray leaves the room, plus noise
///   when asked for (`SyntheticRecordingOptions.depthNoiseMeters`, clamped to ±4σ);
/// - confidence by `SyntheticConfidenceModel`, from the exact depths;
/// - colour: `.rgb`, the texture colour at each colour pixel's centre ray, black
///   where the ray leaves the room;
/// - intrinsics for the colour image's size (an iPhone's 1920 × 1440 camera, fx = fy =
///   1440, cx = 955.8, cy = 723.6, scaled to `colorWidth` × `colorHeight`), as ARKit
///   gives them: unprojecting depth needs them scaled to the depth size;
/// - the pose as camera-to-world in ARKit (OpenGL) camera axes: the true one, or with
///   `SyntheticRecordingOptions.drift` the drifted one (depth still from the true one).
///
/// Rendering is deterministic and `frame(at:)` may be called from several threads.
/// Between platforms the last bits of a depth can differ where their math libraries'
/// sin, cos and log do (the path and the noise use them).
public struct SyntheticRecordingSource: RecordingSource {
  public let options: SyntheticRecordingOptions

  public init(options: SyntheticRecordingOptions = .init()) {
    precondition(options.frameCount >= 0, "frame count not negative")
    precondition(options.depthWidth > 0 && options.depthHeight > 0, "depth size positive")
    precondition(options.colorWidth > 0 && options.colorHeight > 0, "colour size positive")
    precondition(options.framesPerSecond > 0, "frame rate positive")
    self.options = options
  }

  public var frameCount: Int { options.frameCount }

  public var description: RecordingDescription {
    let noise =
      options.depthNoiseMeters > 0
      ? "depth noise \(options.depthNoiseMeters) m at 1 m, growing with depth², seed \(options.seed)"
      : "exact depths (no noise)"
    return RecordingDescription(
      format: "CloudScrub synthetic scene", app: "CloudScrub",
      framesPerSecond: options.framesPerSecond, depthWidth: options.depthWidth,
      depthHeight: options.depthHeight, colorWidth: options.colorWidth,
      colorHeight: options.colorHeight,
      notes: ["room with a box and a sphere, rendered by ray casting; \(noise)"]
        + (options.drift.map { drift in
          [
            "poses drifted (smoothstep in time) to \(drift.translationMeters) m along +x and "
              + "\(drift.rotationRadians * 180 / Double.pi)° about +y"
              + (drift.tiltRadians == 0
                ? "" : ", tilted \(drift.tiltRadians * 180 / Double.pi)° about +z")
              + " at the last frame"
          ]
        } ?? []))
  }

  /// The intrinsics every frame carries, for the colour image's size.
  public var colorIntrinsics: CameraIntrinsics {
    CameraIntrinsics(fx: 1440, fy: 1440, cx: 955.8, cy: 723.6, width: 1920, height: 1440)
      .scaled(toWidth: options.colorWidth, height: options.colorHeight)
  }

  /// The pose frame `index` stores: the true one, drifted when the options add a drift.
  public func pose(at index: Int) -> CameraPose {
    let truePose = truePose(at: index)
    guard let drift = options.drift else { return truePose }
    let pivot = options.path.worldFromCamera(atFraction: 0).translation
    let driftedFromTrue = drift.driftedFromTrue(atFraction: fraction(at: index), pivot: pivot)
    return CameraPose(worldFromCamera: driftedFromTrue * truePose.worldFromCamera, axes: .openGL)
  }

  /// Where the camera really was at frame `index` (what its depth is rendered from).
  public func truePose(at index: Int) -> CameraPose {
    CameraPose(
      worldFromCamera: options.path.worldFromCamera(atFraction: fraction(at: index)),
      axes: .openGL)
  }

  private func fraction(at index: Int) -> Double {
    frameCount > 1 ? Double(index) / Double(frameCount - 1) : 0
  }

  public func timestampSeconds(at index: Int) -> Double {
    options.startTimestampSeconds + Double(index) / options.framesPerSecond
  }

  /// Frame `index`'s time, intrinsics and pose, without rendering it.
  ///
  /// - Throws: `SyntheticRecordingError.frameOutOfRange` when there is no such frame.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    guard index >= 0, index < frameCount else {
      throw SyntheticRecordingError.frameOutOfRange(index: index, frameCount: frameCount)
    }
    return FrameInfo(
      timestampSeconds: timestampSeconds(at: index), intrinsics: colorIntrinsics,
      pose: pose(at: index))
  }

  /// Renders frame `index`.
  ///
  /// - Throws: `SyntheticRecordingError.frameOutOfRange` when there is no such frame.
  public func frame(at index: Int) throws -> CapturedFrame {
    guard index >= 0, index < frameCount else {
      throw SyntheticRecordingError.frameOutOfRange(index: index, frameCount: frameCount)
    }
    var rendered = frame(
      worldFromCamera: truePose(at: index).worldFromCamera,
      timestampSeconds: timestampSeconds(at: index),
      noiseStream: UInt64(index))
    rendered.pose = pose(at: index)
    return rendered
  }

  /// Renders a frame from any camera placement (ARKit camera axes), with this
  /// recording's sizes, intrinsics, scene and noise; `noiseStream` picks the noise
  /// (frame i of the recording uses stream i).
  public func frame(
    worldFromCamera: Transform3D, timestampSeconds: Double, noiseStream: UInt64 = 0
  ) -> CapturedFrame {
    let renderer = SyntheticFrameRenderer(
      scene: options.scene, worldFromCamera: worldFromCamera, confidence: options.confidence)
    let colorIntrinsics = colorIntrinsics
    let depthIntrinsics = colorIntrinsics.scaled(
      toWidth: options.depthWidth, height: options.depthHeight)
    var depth = renderer.renderDepth(intrinsics: depthIntrinsics)
    let confidence = renderer.confidence(of: depth)
    if options.depthNoiseMeters > 0 {
      depth.addNoise(
        sigmaAtOneMeter: options.depthNoiseMeters,
        seed: Self.noiseSeed(options.seed, stream: noiseStream))
    }
    return CapturedFrame(
      timestampSeconds: timestampSeconds,
      depth: DepthMap(width: depth.width, height: depth.height, meters: depth.metersAsFloat()),
      confidence: ConfidenceMap(width: depth.width, height: depth.height, values: confidence),
      color: .rgb(renderer.renderColor(intrinsics: colorIntrinsics)),
      intrinsics: colorIntrinsics,
      pose: CameraPose(worldFromCamera: worldFromCamera, axes: .openGL))
  }

  /// A seed for one frame's noise, unrelated to its neighbours' (SplitMix64 states
  /// that differ by a multiple of its step would give shifted copies of one stream).
  static func noiseSeed(_ seed: UInt64, stream: UInt64) -> UInt64 {
    var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }
}

/// Whole synthetic recordings at once.
public enum SyntheticRecording {
  /// Renders every frame of the recording `options` describe, in order.
  public static func frames(_ options: SyntheticRecordingOptions = .init()) -> [CapturedFrame] {
    let source = SyntheticRecordingSource(options: options)
    return (0..<source.frameCount).map { index in
      var frame = source.frame(
        worldFromCamera: source.truePose(at: index).worldFromCamera,
        timestampSeconds: source.timestampSeconds(at: index), noiseStream: UInt64(index))
      frame.pose = source.pose(at: index)
      return frame
    }
  }
}
