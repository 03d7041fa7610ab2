/// What the viewer has loaded: the merged points (the CPU copy, source of truth for
/// export and for the GPU mirror) and, per frame, when and where it was captured.
///
/// Frames join in timeline order; each joining batch becomes the commands that tell
/// the viewer state about it, so the state still changes only by commands.
public struct ViewerContent: Sendable {
  public private(set) var store = PointStore()
  /// The recording frame index of each loaded frame.
  public private(set) var frameIndices: [Int] = []
  public private(set) var frameInfos: [FrameInfo?] = []

  public init() {}

  public var frameCount: Int { frameIndices.count }

  /// Appends frames and returns the commands that tell a `ViewerState` about them.
  public mutating func absorb(_ frames: [LoadedFrame]) -> [ViewerCommand] {
    guard !frames.isEmpty else { return [] }
    var grown = ViewerScene()
    var timestamps: [Double] = []
    for frame in frames {
      store.append(frame.points, frameIndex: frame.frameIndex)
      frameIndices.append(frame.frameIndex)
      frameInfos.append(frame.info)
      timestamps.append(frame.timestampSeconds)
      if let info = frame.info { grown.appendFrame(pose: info.pose, intrinsics: info.intrinsics) }
      if let bounds = Self.bounds(of: frame.points.positions) { grown.include(bounds: bounds) }
    }
    return [.sceneAppended(grown), .playback(.framesLoaded(timestampsSeconds: timestamps))]
  }

  static func bounds(of positions: [Point3]) -> Bounds3? {
    guard let first = positions.first else { return nil }
    var lo = SIMD3(first.x, first.y, first.z)
    var hi = lo
    for p in positions {
      let v = SIMD3(p.x, p.y, p.z)
      lo = pointwiseMin(lo, v)
      hi = pointwiseMax(hi, v)
    }
    return Bounds3(min: Point3(lo.x, lo.y, lo.z), max: Point3(hi.x, hi.y, hi.z))
  }
}
