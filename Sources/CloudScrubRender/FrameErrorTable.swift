import CloudScrubCore

/// What the alignment-error colour mode reads: each frame's error in metres, one a
/// frame of the store in its order (negative for a frame not measured), and the error
/// at the red end of the ramp. The points shader gets it as a buffer texture next to
/// the frame table; the CPU rasterizer reads it directly.
public struct FrameErrorTable: Equatable, Sendable {
  /// Each frame's error in metres; -1 where it was not measured.
  public var errorsMeters: [Float]
  /// The error the ramp's red end stands for (blue is 0).
  public var scaleMeters: Float

  /// No frame measured.
  public init() {
    errorsMeters = []
    scaleMeters = FrameAlignmentErrors.minimumScaleMeters
  }

  /// The table for `frameCount` frames from `errors` (timeline order, which is the
  /// store's): frames it does not cover, and values that are not finite, count as
  /// not measured.
  public init(_ errors: FrameAlignmentErrors?, frameCount: Int) {
    errorsMeters = (0..<max(0, frameCount)).map { frame in
      guard let value = errors?.residualMeters(at: frame), value.isFinite else { return -1 }
      return max(0, value)
    }
    scaleMeters = errors?.scaleMeters ?? FrameAlignmentErrors.minimumScaleMeters
  }

  /// The error of `frame`, negative when not measured (or out of the table).
  public func errorMeters(ofFrame frame: Int) -> Float {
    errorsMeters.indices.contains(frame) ? errorsMeters[frame] : -1
  }

  /// The table of a single frame of this one, for points drawn as one frame (the
  /// whole-frame replacement, the cleaning preview).
  public func single(frame: Int) -> FrameErrorTable {
    var table = self
    table.errorsMeters = [errorMeters(ofFrame: frame)]
    return table
  }
}
