/// A recording whose poses come from a trajectory instead (frames matched by order).
///
/// Everything else (images, times, intrinsics, description) is the wrapped recording's.
public struct PosesReplacedRecording: RecordingSource {
  public let base: any RecordingSource
  public let poses: [CameraPose]

  /// Wraps `base` with `poses`, one a frame.
  ///
  /// - Throws: `TrajectoryProblem.countMismatch` naming both counts when they differ.
  public init(_ base: any RecordingSource, poses: [CameraPose]) throws(TrajectoryProblem) {
    guard poses.count == base.frameCount else {
      throw .countMismatch(poses: poses.count, frames: base.frameCount)
    }
    self.base = base
    self.poses = poses
  }

  public var description: RecordingDescription {
    var description = base.description
    description.notes.append("poses replaced from a trajectory (\(poses.count) poses)")
    return description
  }

  public var frameCount: Int { base.frameCount }

  public func frame(at index: Int) throws -> CapturedFrame {
    var frame = try base.frame(at: index)
    if poses.indices.contains(index) { frame.pose = poses[index] }
    return frame
  }

  public func frameInfo(at index: Int) throws -> FrameInfo {
    var info = try base.frameInfo(at: index)
    if poses.indices.contains(index) { info.pose = poses[index] }
    return info
  }
}
