/// Statistical outlier removal settings: `neighbours` nearest neighbours, and a point is
/// dropped when its mean neighbour distance exceeds the global mean by more than
/// `stdRatio` standard deviations.
public struct StatisticalOutlierOptions: Equatable, Sendable {
  public var neighbours: Int
  public var stdRatio: Double

  public init(neighbours: Int = 20, stdRatio: Double = 2) {
    self.neighbours = neighbours
    self.stdRatio = stdRatio
  }
}

/// Radius outlier removal settings: a point needs `minNeighbours` other points within
/// `radiusMeters`.
public struct RadiusOutlierOptions: Equatable, Sendable {
  public var radiusMeters: Float
  public var minNeighbours: Int

  public init(radiusMeters: Float, minNeighbours: Int) {
    self.radiusMeters = radiusMeters
    self.minNeighbours = minNeighbours
  }
}

/// The cleaning steps applied to a merged cloud, in this order: crop and height band,
/// voxel merging, statistical then radius outlier removal, normals. `nil` skips a step.
///
/// Frame selection and the sensor-grid filters come before, from `FrameSelection` and
/// `UnprojectionOptions`; the three together describe an export (see `ExportJob`).
public struct CleaningOptions: Equatable, Sendable {
  public var crop: CropBox?
  /// Keeps points whose height (along `worldUp`) lies in this range.
  public var heightBandMeters: ClosedRange<Float>?
  /// The world's up axis, along which `heightBandMeters` measures (the recording's).
  public var worldUp: WorldUp = .y
  public var voxelSizeMeters: Float?
  public var statistical: StatisticalOutlierOptions?
  public var radius: RadiusOutlierOptions?
  /// Estimates normals from this many neighbours, oriented toward the capturing camera.
  public var normalNeighbours: Int?

  public init(
    crop: CropBox? = nil, heightBandMeters: ClosedRange<Float>? = nil,
    voxelSizeMeters: Float? = nil, statistical: StatisticalOutlierOptions? = nil,
    radius: RadiusOutlierOptions? = nil, normalNeighbours: Int? = nil
  ) {
    self.crop = crop
    self.heightBandMeters = heightBandMeters
    self.voxelSizeMeters = voxelSizeMeters
    self.statistical = statistical
    self.radius = radius
    self.normalNeighbours = normalNeighbours
  }
}

/// How many points one step of a pipeline kept.
public struct StageCount: Equatable, Sendable {
  public var stage: String
  public var points: Int

  public init(stage: String, points: Int) {
    self.stage = stage
    self.points = points
  }
}

/// A cloud too large for a step that searches neighbours (outlier removal, normals):
/// their k-d trees number points with 32-bit indices.
public struct CleaningSizeError: Error, Equatable, CustomStringConvertible {
  public var step: String
  public var points: Int
  public var limit: Int

  public var description: String {
    "\(step) handles at most \(limit) points and the cloud has \(points) at that step; "
      + "merge it first (--voxel SIZE_M) or select fewer frames (--frames, --every)"
  }
}

/// Runs `CleaningOptions` over a cloud.
public enum CleaningPipeline {
  /// The most points a neighbour search step takes: what a `KDTree` can number.
  public static let neighbourStepPointLimit = KDTree.maximumCount

  /// The cleaned cloud and how many points each step kept.
  ///
  /// - Parameters:
  ///   - viewpoint: the camera position a point was captured from, by its `frame`
  ///     attribute; used to orient normals (the origin for clouds without frames and
  ///     for frames it gives no position); its error ends the run.
  ///   - progress: told of each step as it starts, and asked whether to stop.
  ///   - neighbourPointLimit: the most points a neighbour search step takes (tests
  ///     lower it).
  /// - Throws: `CleaningSizeError` before a neighbour search step that would get more
  ///   points than it can number; `CleaningCancelled` once `progress` says to stop.
  public static func run(
    _ input: PointCloud, options: CleaningOptions,
    viewpoint: (UInt32) throws -> SIMD3<Float>? = { _ in nil },
    progress: CleaningProgress? = nil,
    neighbourPointLimit: Int = neighbourStepPointLimit
  ) throws -> (cloud: PointCloud, stages: [StageCount]) {
    var cloud = input
    var stages: [StageCount] = []
    let stop = progress?.shouldStop
    let steps = stepNames(options)
    var stepIndex = 0
    func checkSize(_ step: String) throws(CleaningSizeError) {
      guard cloud.count <= neighbourPointLimit else {
        throw CleaningSizeError(step: step, points: cloud.count, limit: neighbourPointLimit)
      }
    }
    /// Reports the step, unless a stop was asked for.
    func start(_ step: String) throws(CleaningCancelled) {
      if stop?() == true { throw CleaningCancelled(step: step) }
      progress?.stepStarted(step, stepIndex, steps.count)
      stepIndex += 1
    }
    /// A step whose inner loops stopped early left a partial result: drop it.
    func checkFinished(_ step: String) throws(CleaningCancelled) {
      if stop?() == true { throw CleaningCancelled(step: step) }
    }
    /// The points `keep` marks, gathered field by field; a stop on the way ends `step`.
    func kept(_ keep: [Bool], _ step: String) throws(CleaningCancelled) -> PointCloud {
      guard let subset = cloud.subset(keeping: keep, stop: stop) else {
        throw CleaningCancelled(step: step)
      }
      return subset
    }
    if options.crop != nil || options.heightBandMeters != nil {
      try start("crop")
      let keep = Crop.mask(
        cloud.positions, box: options.crop, heightBandMeters: options.heightBandMeters,
        up: options.worldUp, stop: stop)
      try checkFinished("crop")
      cloud = try kept(keep, "crop")
      stages.append(StageCount(stage: "crop", points: cloud.count))
    }
    if let size = options.voxelSizeMeters {
      try start("voxel")
      let merged = VoxelMerge.merge(cloud, voxelSizeMeters: size, stop: stop)
      try checkFinished("voxel")
      cloud = merged
      stages.append(StageCount(stage: "voxel", points: cloud.count))
    }
    if let statistical = options.statistical {
      try checkSize("statistical outlier removal")
      try start("statistical outliers")
      let keep = OutlierRemoval.statistical(
        cloud.positions, neighbours: statistical.neighbours, stdRatio: statistical.stdRatio,
        stop: stop)
      try checkFinished("statistical outliers")
      cloud = try kept(keep, "statistical outliers")
      stages.append(StageCount(stage: "statistical outliers", points: cloud.count))
    }
    if let radius = options.radius {
      try checkSize("radius outlier removal")
      try start("radius outliers")
      let keep = OutlierRemoval.radius(
        cloud.positions, radiusMeters: radius.radiusMeters, minNeighbours: radius.minNeighbours,
        stop: stop)
      try checkFinished("radius outliers")
      cloud = try kept(keep, "radius outliers")
      stages.append(StageCount(stage: "radius outliers", points: cloud.count))
    }
    if let k = options.normalNeighbours {
      try checkSize("normal estimation")
      try start("normals")
      let frames: [UInt32]?
      if case .uint32(let values)? = cloud.attribute(named: "frame")?.values {
        frames = values
      } else {
        frames = nil
      }
      // One lookup a frame, not a point; a frame with no camera looks from the origin.
      let origin = SIMD3<Float>(0, 0, 0)
      var cameras: [UInt32: SIMD3<Float>] = [:]
      for (index, frame) in (frames ?? []).enumerated() {
        if StopChecks.due(stop, at: index) { throw CleaningCancelled(step: "normals") }
        if cameras[frame] == nil { cameras[frame] = try viewpoint(frame) ?? origin }
      }
      cloud.normals = NormalEstimation.estimate(
        cloud.positions, neighbours: k,
        viewpoint: { index in frames.flatMap { cameras[$0[index]] } ?? origin }, stop: stop)
      try checkFinished("normals")
      stages.append(StageCount(stage: "normals", points: cloud.count))
    }
    return (cloud, stages)
  }

  /// The names of the steps `options` runs, in order, as `progress` is told them.
  public static func stepNames(_ options: CleaningOptions) -> [String] {
    var names: [String] = []
    if options.crop != nil || options.heightBandMeters != nil { names.append("crop") }
    if options.voxelSizeMeters != nil { names.append("voxel") }
    if options.statistical != nil { names.append("statistical outliers") }
    if options.radius != nil { names.append("radius outliers") }
    if options.normalNeighbours != nil { names.append("normals") }
    return names
  }
}
