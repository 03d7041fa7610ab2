import Foundation

/// What a streamed pass over a recording's frames saw.
public struct FrameStreamSummary: Equatable, Sendable {
  /// The recording's index of each frame that was streamed, in order.
  public var frameIndices: [Int] = []
  /// Points the frames gave after the sensor-grid filters.
  public var framePoints = 0
  /// Points that passed the crop box and height band.
  public var keptPoints = 0

  public init() {}
}

/// The crop box and height band of a cleaning, which apply point by point and so run
/// on each frame as it arrives.
public struct StreamingCrop: Equatable, Sendable {
  public var box: CropBox?
  public var heightBandMeters: ClosedRange<Float>?
  /// The axis the height band measures along.
  public var up: WorldUp

  public init(box: CropBox? = nil, heightBandMeters: ClosedRange<Float>? = nil, up: WorldUp = .y) {
    self.box = box
    self.heightBandMeters = heightBandMeters
    self.up = up
  }

  public init(_ cleaning: CleaningOptions) {
    self.init(box: cleaning.crop, heightBandMeters: cleaning.heightBandMeters, up: cleaning.worldUp)
  }

  public var isActive: Bool { box != nil || heightBandMeters != nil }
}

extension RecordingLoader {
  /// Streams the selected frames in timeline order, each cropped, to `body`, holding
  /// about one frame a core at a time: for exports that need no more than that.
  ///
  /// - Parameters:
  ///   - stop: asked before each frame.
  ///   - body: called with each frame's points, its recording index, and which of its
  ///     points the crop keeps (`nil`: all).
  /// - Throws: `FrameLoadError` for the first frame that fails, `CleaningCancelled`
  ///   once `stop` says to stop, or what `body` throws.
  public func streamFrames(
    crop: StreamingCrop = StreamingCrop(), progress: ((LoadProgress) -> Void)? = nil,
    stop: StopCheck? = nil,
    _ body: (_ points: FramePoints, _ frameIndex: Int, _ keep: [Bool]?) throws -> Void
  ) throws -> FrameStreamSummary {
    var summary = FrameStreamSummary()
    try stream { position, total, frameIndex, points in
      if StopChecks.now(stop) { throw CleaningCancelled(step: "frames") }
      let keep =
        crop.isActive
        ? Crop.mask(
          points.positions, box: crop.box, heightBandMeters: crop.heightBandMeters, up: crop.up)
        : nil
      try body(points, frameIndex, keep)
      summary.frameIndices.append(frameIndex)
      summary.framePoints += points.count
      summary.keptPoints += keep.map { $0.reduce(0) { $0 + ($1 ? 1 : 0) } } ?? points.count
      progress?(
        LoadProgress(framesDone: position + 1, framesTotal: total, points: summary.keptPoints))
      return true
    }
    return summary
  }

  /// The selected frames, cropped and voxel-merged while they stream in: the cloud
  /// `VoxelMerge.merge` gives for the whole merged store, without holding it.
  ///
  /// - Throws: `FrameLoadError` for the first frame that fails,
  ///   `VoxelAccumulatorError` past its voxel limit, or `CleaningCancelled` once `stop`
  ///   (asked before each frame and every few thousand voxels of the result) says to
  ///   stop.
  public func voxelMerged(
    voxelSizeMeters: Float, crop: StreamingCrop = StreamingCrop(),
    progress: ((LoadProgress) -> Void)? = nil, stop: StopCheck? = nil
  ) throws -> (cloud: PointCloud, summary: FrameStreamSummary) {
    let accumulator = VoxelAccumulator(voxelSizeMeters: voxelSizeMeters)
    let summary = try streamFrames(crop: crop, progress: progress, stop: stop) {
      points, frameIndex, keep in
      try accumulator.add(points, frameIndex: frameIndex, keeping: keep)
    }
    let cloud = accumulator.cloud(stop: stop)
    if StopChecks.now(stop) { throw CleaningCancelled(step: "voxel") }
    return (cloud, summary)
  }
}

extension FramePoints {
  /// The points (those `keep` marks, or all) as a cloud with the fields of
  /// `PointStore.cloud()`: colour, `confidence` (uchar) and `frame` (uint).
  public func cloud(frameIndex: Int, keeping keep: [Bool]? = nil) -> PointCloud {
    var positions = self.positions
    var colors = self.colors
    var confidence = self.confidence
    if let keep {
      positions = []
      colors = []
      confidence = []
      for index in 0..<count where keep[index] {
        positions.append(self.positions[index])
        colors.append(self.colors[index])
        confidence.append(self.confidence[index])
      }
    }
    let frames = [UInt32](repeating: UInt32(clamping: frameIndex), count: positions.count)
    return PointCloud(
      positions: positions, colors: colors,
      attributes: [
        PointAttribute(name: "confidence", values: .uint8(confidence)),
        PointAttribute(name: "frame", values: .uint32(frames)),
      ])
  }
}
