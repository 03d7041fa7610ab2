import CloudScrubCore

/// Builders of small frames and recordings for tests.
public enum Frames {
  /// A frame of `meters` depths (row-major, `width` wide) with intrinsics fx = fy = 1 and
  /// the principal point at the grid's centre, at depth resolution.
  public static func depthFrame(
    width: Int, height: Int, meters: [Float],
    pose: CameraPose = CameraPose(
      worldFromCamera: .identity, axes: .openCV),
    confidence: [UInt8]? = nil, color: ColorImage? = nil, timestampSeconds: Double = 0
  ) -> CapturedFrame {
    CapturedFrame(
      timestampSeconds: timestampSeconds,
      depth: DepthMap(width: width, height: height, meters: meters),
      confidence: confidence.map { ConfidenceMap(width: width, height: height, values: $0) },
      color: color,
      intrinsics: CameraIntrinsics(
        fx: 1, fy: 1, cx: Double(width) / 2, cy: Double(height) / 2, width: width, height: height),
      pose: pose)
  }
}

/// A recording held in memory.
public struct InMemoryRecording: RecordingSource {
  public var frames: [CapturedFrame]
  public var failingFrame: Int?

  public init(frames: [CapturedFrame], failingFrame: Int? = nil) {
    self.frames = frames
    self.failingFrame = failingFrame
  }

  public var description: RecordingDescription {
    RecordingDescription(
      format: "in-memory test recording", depthWidth: frames.first?.depth.width ?? 0,
      depthHeight: frames.first?.depth.height ?? 0)
  }

  public var frameCount: Int { frames.count }

  public struct Failure: Error, Equatable {}

  public func frame(at index: Int) throws -> CapturedFrame {
    if index == failingFrame { throw Failure() }
    return frames[index]
  }
}
