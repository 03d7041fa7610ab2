import Foundation

/// How the viewer keeps a recording within its memory: every point when they fit,
/// else an ingest-time merge, and a limit past which loading stops with a message
/// instead of running the machine out of memory.
///
/// A point the viewer shows is held three times, 16 bytes each: in the CPU store (the
/// source of truth), in its level of detail (`PointOctree`, whose nodes keep their own
/// points), and in the GPU's node cache (with a software renderer, also in main
/// memory; the cache is bounded on its own, so this is an upper bound): 48 bytes; and
/// the level of detail's bit grids and node tables cost at most 2 bytes more a point
/// (`treeBytesPerShownPoint`). A merged load also holds its voxel index, at most 128
/// bytes a kept point (`mergeIndexBytesPerKeptPoint`). A huge PLY's load also reserves
/// room for the pieces queued for its level of detail (`queuedPieceBytes`).
public struct ViewerMemoryPlan: Equatable, Sendable {
  /// What the user asked for.
  public enum Choice: Equatable, Sendable {
    /// Merge only when the raw points would not fit.
    case automatic
    case off
    case voxel(meters: Float)
  }

  /// The level of detail's bytes beside its points that a shown point can cost at most
  /// (`treeBytesPerPoint`): 2 for the default tree.
  public static let treeBytesPerShownPoint = treeBytesPerPoint(PointOctree.Options())

  /// The bit grids' bytes a point can cost at most in a tree of `options`: a node gets
  /// its grid only when it turns inner, which it does once it holds more than
  /// `leafCapacity` points, and it keeps them, so inner nodes × a grid's bytes ≤ points ×
  /// grid bytes / (leafCapacity + 1), rounded up (the few roots the tree grows upward add
  /// a grid each, not counted).
  public static func gridBytesPerPoint(_ options: PointOctree.Options) -> Int {
    (gridBytes(options) + options.leafCapacity) / (options.leafCapacity + 1)
  }

  /// The grids' and node tables' bytes a point can cost at most in a tree of `options`:
  /// every node but the first root is the child of an inner node, and an inner node has
  /// at most eight, so there are at most nine nodes for each inner one, each with its
  /// tables (`LODNode.tableBytes`), and one grid; an inner node holds more than
  /// `leafCapacity` points. Rounded up.
  public static func treeBytesPerPoint(_ options: PointOctree.Options) -> Int {
    let perInnerNode = gridBytes(options) + 9 * LODNode.tableBytes
    return (perInnerNode + options.leafCapacity) / (options.leafCapacity + 1)
  }

  static func gridBytes(_ options: PointOctree.Options) -> Int {
    let cells = options.gridResolution * options.gridResolution * options.gridResolution
    return (cells + 63) / 64 * 8
  }

  /// Store, level of detail and GPU copy (16 bytes each), and the tree's grids and
  /// node tables.
  public static let bytesPerShownPoint = 3 * PointStore.bytesPerPoint + treeBytesPerShownPoint
  /// Bytes a point waiting in a queue costs (a `FramePoints` piece: position, colour,
  /// confidence).
  public static let bytesPerQueuedPoint = PointStore.bytesPerPoint
  /// Points a huge PLY's load holds in pieces at most while the level of detail takes
  /// them in: the builder's queue (`LevelOfDetailBuilder.maxQueuedPoints`, which the
  /// frame loop lets pass by at most what one take brings), the load's inbox
  /// (`SampledCloudLoad.maxWaitingPoints`, passed by one piece), and the piece in hand.
  public static let maxQueuedPoints =
    LevelOfDetailBuilder.maxQueuedPoints + SampledCloudLoad.maxWaitingPoints + 3
    * SampledCloudLoad.defaultChunkRecords

  /// The bytes a cloud of `points` points reserves for its queued pieces: at most
  /// `maxQueuedPoints` of them (fewer for a smaller cloud) at `bytesPerQueuedPoint`.
  public static func queuedPieceBytes(cloudPoints points: Int) -> Int {
    min(max(0, points), maxQueuedPoints) * bytesPerQueuedPoint
  }

  /// The most points a cloud of `points` keeps within `budgetBytes`: what is left of
  /// the budget after its queued pieces, over what a kept point costs.
  public static func cloudPointLimit(cloudPoints points: Int, budgetBytes: Int, merging: Bool)
    -> Int
  {
    let left = budgetBytes - queuedPieceBytes(cloudPoints: points)
    return max(1, left / bytesPerKeptPoint(merging: merging))
  }
  /// What an ingest merge's index holds for each point it keeps: its voxel's slot, in
  /// a table between a quarter and half full (`VoxelIndex`), so at most four slots.
  public static let mergeIndexBytesPerKeptPoint = 4 * VoxelIndex.bytesPerSlot
  /// The voxel size an automatic merge uses: finer than the depth noise of a phone's
  /// LiDAR at arm's length, so nothing visible is lost.
  public static let automaticVoxelMeters: Float = 0.005

  /// The merge the load runs; nil keeps every point.
  public let mergeMeters: Float?
  /// Points past which loading stops: the budget over `bytesPerKeptPoint`.
  public let pointLimit: Int
  /// Bytes the raw points would need, as estimated.
  public let rawBytes: Int
  /// A line for the window saying what was chosen and why; nil when nothing notable.
  public let note: String?

  /// The plan for a recording of `frames` frames with a depth map of `depthWidth` ×
  /// `depthHeight` (sizes as the recording claims them: they only guide the choice, and
  /// any product too large counts as too large), within `budgetBytes` of point memory.
  public init(
    choice: Choice, frames: Int, depthWidth: Int, depthHeight: Int,
    budgetBytes: Int = Self.defaultBudgetBytes
  ) {
    var bytes = Self.bytesPerShownPoint
    var overflow = false
    for factor in [frames, depthWidth, depthHeight] {
      let (product, over) = bytes.multipliedReportingOverflow(by: max(0, factor))
      bytes = product
      overflow = overflow || over
    }
    self.init(
      choice: choice, rawBytes: overflow ? Int.max : bytes, budgetBytes: budgetBytes,
      automaticMergeMeters: Self.automaticVoxelMeters, pointsWord: "every point")
  }

  /// The plan for points needing `rawBytes`: the merge `choice` asks for, or, when
  /// automatic and over the budget, `automaticMergeMeters` with a note naming the need.
  /// A merge costs `mergeIndexBytesPerKeptPoint` more a kept point.
  private init(
    choice: Choice, rawBytes: Int, budgetBytes: Int, automaticMergeMeters: Float,
    pointsWord: String, reservedBytes: Int = 0
  ) {
    self.rawBytes = rawBytes
    let need = Self.gigabytes(rawBytes)
    switch choice {
    case .off:
      mergeMeters = nil
      note = nil
    case .voxel(let meters):
      mergeMeters = meters
      note = "merging while loading at \(Self.millimetres(meters)) (--merge)"
    case .automatic where rawBytes > budgetBytes - reservedBytes:
      mergeMeters = automaticMergeMeters
      note =
        "merging while loading at \(Self.millimetres(automaticMergeMeters)): \(pointsWord) "
        + "would need \(need), over the viewer's \(Self.gigabytes(budgetBytes))"
    case .automatic:
      mergeMeters = nil
      note = nil
    }
    let perPoint = Self.bytesPerKeptPoint(merging: mergeMeters != nil)
    pointLimit = max(1, (budgetBytes - reservedBytes) / perPoint)
  }

  /// Bytes a kept point costs: shown, plus the merge's index when merging.
  public static func bytesPerKeptPoint(merging: Bool) -> Int {
    bytesPerShownPoint + (merging ? mergeIndexBytesPerKeptPoint : 0)
  }

  /// Bytes the plan counts for each point it keeps.
  public var bytesPerKeptPoint: Int { Self.bytesPerKeptPoint(merging: mergeMeters != nil) }

  /// The plan for a point cloud of `points` points (a PLY file; the count as its
  /// header claims it, checked against the file's size), within `budgetBytes`. An
  /// automatic merge uses `automaticMergeMeters` (`mergeMeters(forSample:...)` picks it
  /// from an even sample of the cloud) instead of the recordings' fixed size. Its
  /// queued pieces' bytes (`queuedPieceBytes`) come off the budget first.
  public init(
    choice: Choice, cloudPoints points: Int, automaticMergeMeters: Float,
    budgetBytes: Int = Self.defaultBudgetBytes
  ) {
    let (bytes, over) = Self.bytesPerShownPoint.multipliedReportingOverflow(by: max(0, points))
    self.init(
      choice: choice, rawBytes: over ? Int.max : bytes, budgetBytes: budgetBytes,
      automaticMergeMeters: automaticMergeMeters, pointsWord: "\(points) points",
      reservedBytes: Self.queuedPieceBytes(cloudPoints: points))
  }

  /// Whether every point is kept but they would not fit (`--merge off` on a cloud too
  /// large): the load is refused with `cloudTooLargeMessage`.
  public var keepsTooManyPoints: Bool {
    mergeMeters == nil && rawBytes > pointLimit * bytesPerKeptPoint
  }

  /// Why a cloud of `points` points is not opened with every point kept, with the
  /// merge that would fit.
  public func cloudTooLargeMessage(points: Int, suggestedMergeMeters: Float) -> String {
    "\(points) points would need \(Self.gigabytes(rawBytes)) of memory, over the viewer's "
      + "\(Self.gigabytes(pointLimit * bytesPerKeptPoint)); open it with --merge "
      + String(format: "%g", Double(suggestedMergeMeters)) + " (or --merge auto)"
  }

  /// Why loading a cloud stopped at the limit (a merge that kept more than expected).
  public func limitMessage(point: Int, of points: Int) -> String {
    "stopped loading at point \(point) of \(points): more than \(pointLimit) points would "
      + "need over \(Self.gigabytes(pointLimit * bytesPerKeptPoint)) of memory; open it "
      + "with a coarser --merge SIZE_M"
  }

  /// A quarter of this machine's memory, at most 4 GiB and at least 512 MiB.
  public static var defaultBudgetBytes: Int {
    let quarter = Int(clamping: ProcessInfo.processInfo.physicalMemory / 4)
    return min(max(quarter, 512 << 20), 4 << 30)
  }

  /// Why loading stopped at the limit, with what would fit.
  public func limitMessage(frame: Int) -> String {
    "stopped loading at frame \(frame): more than \(pointLimit) points would need over "
      + "\(Self.gigabytes(pointLimit * bytesPerKeptPoint)) of memory; open it with a "
      + "coarser --merge SIZE_M or fewer --frames"
  }

  static func gigabytes(_ bytes: Int) -> String {
    bytes == Int.max ? "more memory than exists" : String(format: "%.1f GB", Double(bytes) / 1e9)
  }

  public static func millimetres(_ meters: Float) -> String {
    String(format: "%g mm", Double(meters) * 1000)
  }
}
