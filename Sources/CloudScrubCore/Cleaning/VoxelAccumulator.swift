import Foundation

/// Voxel merging while frames stream in: the points of each frame are added to their
/// voxels as they arrive, so only the voxels are held, never the raw points.
///
/// The result is the cloud `VoxelMerge.merge` gives for all the added points at once,
/// bit for bit: the same grid (cell `floor(Double(c) / size)`, anchored at the origin),
/// positions summed in `Double` in input order, colours rounded halves up, the highest
/// known confidence (255 while none is known), the first point's frame, and voxels in
/// the order of their first point. Points with a NaN or infinite coordinate are dropped.
///
/// The voxels are split between partitions by their hash, one a core, each its own
/// table: a frame's points are keyed once on every core (`VoxelFrameKeys`), then go to
/// every partition at once, each takes its own voxels' points in order, so every voxel still sums its points in input order; the cloud
/// merges the partitions by each voxel's first point. The time goes into the tables'
/// cache misses, which the cores then take in parallel, each a `VoxelLookupBatch` at a
/// time so that the misses overlap. Memory is about 140 to 270 bytes a voxel, whatever
/// the number of points added.
public final class VoxelAccumulator {
  /// What one voxel has gathered so far.
  struct Voxel {
    var sumX: Double
    var sumY: Double
    var sumZ: Double
    var count: Int
    var red: UInt64
    var green: UInt64
    var blue: UInt64
    /// The input position of the voxel's first point, which orders the output.
    var firstPoint: Int
    var frame: UInt32
    /// Highest known confidence, 255 while none is known.
    var confidence: UInt8
  }

  /// One partition's voxels, numbered by its own index.
  struct Partition {
    var index: VoxelIndex
    var voxels: [Voxel] = []
    var error: VoxelAccumulatorError?
    /// What the early reads of slots and records gave (`VoxelLookupBatch`), kept so
    /// that they are not left out.
    var touched = 0
  }

  public let voxelSizeMeters: Float
  private let partitions: ParallelSlots<Partition>
  private let frameKeys: VoxelFrameKeys
  /// Points added so far, finite or not.
  public private(set) var pointsAdded = 0

  /// The most voxels one partition holds (its slot indices are 32-bit).
  public static let maximumVoxels = VoxelIndex.maximumCount

  /// An empty accumulator for voxels of `voxelSizeMeters`, which must be positive and
  /// finite (the option parsers check it).
  ///
  /// - Parameter partitions: how many tables (and cores) share the voxels; nil: one a
  ///   core, at most 4. The result does not depend on it.
  public init(voxelSizeMeters: Float, partitions: Int? = nil) {
    precondition(voxelSizeMeters > 0 && voxelSizeMeters.isFinite, "voxel size must be positive")
    self.voxelSizeMeters = voxelSizeMeters
    let count = max(1, partitions ?? min(4, Parallel.cores))
    let index = VoxelIndex(sizeMeters: voxelSizeMeters)
    self.partitions = ParallelSlots(count: count, initial: Partition(index: index))
    frameKeys = VoxelFrameKeys(keying: index.keying, partitions: count)
  }

  /// Voxels gathered so far.
  public var voxelCount: Int {
    (0..<partitions.count).reduce(0) { $0 + partitions[$1].voxels.count }
  }

  /// Bytes held for the voxels and their tables.
  public var storageByteCount: Int {
    (0..<partitions.count).reduce(0) {
      $0 + partitions[$1].voxels.capacity * MemoryLayout<Voxel>.stride
        + partitions[$1].index.storageByteCount
    }
  }

  /// Adds one frame's points, in order, after every point added before.
  ///
  /// - Parameters:
  ///   - keep: which points to add (`nil`: all of them), e.g. a crop mask.
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past `maximumVoxels` in a
  ///   partition.
  public func add(
    _ points: FramePoints, frameIndex: Int, keeping keep: [Bool]? = nil
  ) throws(VoxelAccumulatorError) {
    let frame = UInt32(clamping: frameIndex)
    let first = pointsAdded
    let count = partitions.count
    let parts = partitions
    frameKeys.compute(points.positions, keep: keep)
    let keys = frameKeys.buffers
    let work = { @Sendable (part: Int) in
      parts.modify(part) { partition in
        guard partition.error == nil else { return }
        do throws(VoxelAccumulatorError) {
          try Self.add(
            points, keys: keys, keep: keep, frame: frame, first: first, part: part,
            to: &partition)
        } catch {
          partition.error = error
        }
      }
    }
    if count > 1 && points.count >= 4096 {
      Parallel.perform(iterations: count) { work($0) }
    } else {
      for part in 0..<count { work(part) }
    }
    pointsAdded += keep.map { $0.reduce(0) { $0 + ($1 ? 1 : 0) } } ?? points.count
    for part in 0..<count { if let error = partitions[part].error { throw error } }
  }

  /// The points `keys` gives partition `part`, in order, a `VoxelLookupBatch` at a
  /// time: the batch's slots are read together, then its voxels numbered, then their
  /// records read together, then the points summed in input order.
  private static func add(
    _ points: FramePoints, keys: VoxelFrameKeys.Buffers, keep: [Bool]?, frame: UInt32,
    first: Int, part: Int, to partition: inout Partition
  ) throws(VoxelAccumulatorError) {
    var position = first
    let owner = UInt8(part)
    var batch = VoxelLookupBatch()
    var touched = 0
    for k in 0..<points.count where keep?[k] ?? true {
      position += 1
      guard keys.owners[k] == owner else { continue }
      batch.take(k, of: keys, inputPosition: position - 1)
      if batch.isFull {
        touched &+= try sum(&batch, points, frame: frame, into: &partition)
      }
    }
    touched &+= try sum(&batch, points, frame: frame, into: &partition)
    partition.touched &+= touched &+ batch.touched
  }

  /// Numbers the batch's voxels, making the new ones, and adds its points to them.
  @inline(__always)
  private static func sum(
    _ batch: inout VoxelLookupBatch, _ points: FramePoints, frame: UInt32,
    into partition: inout Partition
  ) throws(VoxelAccumulatorError) -> Int {
    guard batch.count > 0 else { return 0 }
    try batch.number(in: &partition.index)
    var touched = 0
    for j in 0..<batch.count {
      if batch.isNew[j] {
        partition.voxels.growInHugePagesWhenFull()
        partition.voxels.append(
          Voxel(
            sumX: 0, sumY: 0, sumZ: 0, count: 0, red: 0, green: 0, blue: 0,
            firstPoint: batch.inputPositions[j], frame: frame, confidence: 255))
      }
    }
    partition.voxels.withUnsafeMutableBufferPointer { voxels in
      // Bring the records in together first.
      for j in 0..<batch.count { touched &+= voxels[batch.numbers[j]].count }
      for j in 0..<batch.count {
        let slot = batch.numbers[j]
        let k = batch.points[j]
        let p = points.positions[k]
        let c = points.colors[k]
        let confidence = points.confidence[k]
        voxels[slot].sumX += Double(p.x)
        voxels[slot].sumY += Double(p.y)
        voxels[slot].sumZ += Double(p.z)
        voxels[slot].count += 1
        voxels[slot].red += UInt64(c.r)
        voxels[slot].green += UInt64(c.g)
        voxels[slot].blue += UInt64(c.b)
        let best = voxels[slot].confidence
        if confidence != 255 && (best == 255 || confidence > best) {
          voxels[slot].confidence = confidence
        }
      }
    }
    batch.clear()
    return touched
  }

  /// The merged cloud: one point a voxel with colour and the `confidence` (uchar) and
  /// `frame` (uint) attributes, as `PointStore.cloud()` names them.
  ///
  /// `stop` is asked every few thousand voxels; once it says to stop, the cloud holds
  /// only the voxels taken so far and the caller, asking it again, drops it.
  public func cloud(stop: StopCheck? = nil) -> PointCloud {
    let total = voxelCount
    var positions: [Point3] = []
    var colors: [RGB8] = []
    var confidence: [UInt8] = []
    var frames: [UInt32] = []
    positions.reserveCapacity(total)
    colors.reserveCapacity(total)
    confidence.reserveCapacity(total)
    frames.reserveCapacity(total)
    // Each partition's voxels are in order of their first point: merge them.
    let lists = (0..<partitions.count).map { partitions[$0].voxels }
    var next = [Int](repeating: 0, count: lists.count)
    for taken in 0..<total {
      if StopChecks.due(stop, at: taken) { break }
      var pick = -1
      for (part, list) in lists.enumerated() where next[part] < list.count {
        if pick < 0 || list[next[part]].firstPoint < lists[pick][next[pick]].firstPoint {
          pick = part
        }
      }
      let v = lists[pick][next[pick]]
      next[pick] += 1
      let n = Double(v.count)
      positions.append(Point3(Float(v.sumX / n), Float(v.sumY / n), Float(v.sumZ / n)))
      colors.append(
        VoxelMergeOutput.meanColor(red: v.red, green: v.green, blue: v.blue, count: v.count))
      confidence.append(v.confidence)
      frames.append(v.frame)
    }
    return PointCloud(
      positions: positions, colors: colors,
      attributes: [
        PointAttribute(name: VoxelMergeOutput.confidenceName, values: .uint8(confidence)),
        PointAttribute(name: "frame", values: .uint32(frames)),
      ])
  }
}

/// Why a streaming voxel merge stopped.
public enum VoxelAccumulatorError: Error, Equatable, CustomStringConvertible, Sendable {
  case tooManyVoxels(Int)

  public var description: String {
    switch self {
    case .tooManyVoxels(let limit):
      return "more than \(limit) voxels: choose a larger voxel size or fewer frames"
    }
  }
}
