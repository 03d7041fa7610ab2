import Foundation

/// Thinning while a recording loads: a point whose voxel already holds a point is not
/// kept, so that memory grows with the scene, not with the length of the capture.
///
/// The first point to reach a voxel is the one kept (earlier points are already on the
/// screen and in the GPU's append-only buffers, so nothing is averaged), and points
/// keep their frame order: "frames a…b" stays a contiguous range. A capture that looks
/// at the same room for twenty minutes ends up with about one point a voxel of the
/// room's surfaces.
///
/// The voxels are split between partitions by their hash, one a core (at most 4), each
/// its own table: a frame's points go to every partition at once and each decides for
/// its own voxels, so the points kept are those of one table, whatever the number of
/// partitions. Memory is `VoxelIndex`'s 64 to 128 bytes a kept point.
public struct IngestMerge {
  public let voxelSizeMeters: Float
  /// One index a partition; copied before a change when another merge shares it.
  private var partitions: ParallelSlots<VoxelIndex>
  /// Scratch for each frame's keys; replaced rather than shared when the merge is copied.
  private var frameKeys: VoxelFrameKeys
  /// Points offered and points kept so far.
  public private(set) var pointsSeen = 0
  public private(set) var pointsKept = 0
  /// What the early slot reads gave (`VoxelLookupBatch`), kept so that they are not
  /// left out.
  private var touched = 0

  /// Frames of fewer points are thinned on the calling thread alone.
  static let parallelMinimumPoints = 4096

  /// A merge into voxels of `voxelSizeMeters`, which must be positive and finite (the
  /// option parsers check it).
  ///
  /// - Parameter partitions: how many tables (and cores) share the voxels; nil: one a
  ///   core, at most 4. The points kept do not depend on it.
  public init(voxelSizeMeters: Float, partitions: Int? = nil) {
    self.voxelSizeMeters = voxelSizeMeters
    let count = max(1, partitions ?? min(4, Parallel.cores))
    let index = VoxelIndex(sizeMeters: voxelSizeMeters)
    self.partitions = ParallelSlots(count: count, initial: index)
    frameKeys = VoxelFrameKeys(keying: index.keying, partitions: count)
  }

  /// The points of `frame` whose voxels no earlier point reached, in order.
  ///
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past a partition's limit.
  public mutating func thin(_ frame: FramePoints) throws(VoxelAccumulatorError) -> FramePoints {
    if !isKnownUniquelyReferenced(&partitions) {
      let copy = ParallelSlots(count: partitions.count, initial: partitions[0])
      for part in 1..<partitions.count { copy[part] = partitions[part] }
      partitions = copy
    }
    let count = partitions.count
    if !isKnownUniquelyReferenced(&frameKeys) {
      frameKeys = VoxelFrameKeys(keying: frameKeys.keying, partitions: count)
    }
    frameKeys.compute(frame.positions, keep: nil)
    let keys = frameKeys.buffers
    let parts = partitions
    var kept = [Bool](repeating: false, count: frame.count)
    let errors = ParallelSlots<VoxelAccumulatorError?>(count: count, initial: nil)
    let touches = ParallelSlots<Int>(count: count, initial: 0)
    kept.withUnsafeMutableBufferPointer { kept in
      let flags = KeptFlags(base: kept.baseAddress)
      let work = { @Sendable (part: Int) in
        parts.modify(part) { index in
          do throws(VoxelAccumulatorError) {
            touches[part] = try Self.mark(
              frame.count, keys: keys, part: part, index: &index, kept: flags)
          } catch {
            errors[part] = error
          }
        }
      }
      if count > 1 && frame.count >= Self.parallelMinimumPoints {
        Parallel.perform(iterations: count) { work($0) }
      } else {
        for part in 0..<count { work(part) }
      }
    }
    for part in 0..<count {
      if let error = errors[part] { throw error }
      touched &+= touches[part]
    }
    let thinned = frame.gathering((0..<frame.count).lazy.filter { kept[$0] })
    pointsSeen += frame.count
    pointsKept += thinned.count
    return thinned
  }

  /// Marks in `kept` the points of `positions` that reach a new voxel of partition
  /// `part` of `count`, a `VoxelLookupBatch` at a time.
  private static func mark(
    _ count: Int, keys: VoxelFrameKeys.Buffers, part: Int, index: inout VoxelIndex,
    kept: KeptFlags
  ) throws(VoxelAccumulatorError) -> Int {
    let owner = UInt8(part)
    var batch = VoxelLookupBatch()
    for k in 0..<count where keys.owners[k] == owner {
      batch.take(k, of: keys, inputPosition: k)
      if batch.isFull { try mark(&batch, in: &index, kept: kept) }
    }
    try mark(&batch, in: &index, kept: kept)
    return batch.touched
  }

  @inline(__always)
  private static func mark(
    _ batch: inout VoxelLookupBatch, in index: inout VoxelIndex, kept: KeptFlags
  ) throws(VoxelAccumulatorError) {
    try batch.number(in: &index)
    for j in 0..<batch.count where batch.isNew[j] { kept.set(batch.points[j]) }
    batch.clear()
  }

  /// Bytes the merge holds for its voxels.
  public var storageByteCount: Int {
    (0..<partitions.count).reduce(0) { $0 + partitions[$1].storageByteCount }
  }

  /// The same merge at twice the voxel size, for the points still to come: its voxels
  /// are those holding a point kept so far, so a later point is kept only when its
  /// coarse voxel holds none yet. (A coarse cell is exactly half the fine cell index,
  /// rounded down: both are ⌊x / size⌋ in `Double`, and halving is exact.) Each coarse
  /// voxel goes to the partition its hash picks, as `thin` would send it.
  ///
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past a partition's limit.
  public func coarsened() throws(VoxelAccumulatorError) -> IngestMerge {
    let count = partitions.count
    var coarse = IngestMerge(voxelSizeMeters: voxelSizeMeters * 2, partitions: count)
    coarse.pointsSeen = pointsSeen
    coarse.pointsKept = pointsKept
    var indexes = (0..<count).map { coarse.partitions[$0] }
    let keying = indexes[0].keying
    func half(_ bits: UInt64) -> UInt64 {
      ((Double(bitPattern: bits) / 2).rounded(.down) + 0).bitPattern
    }
    for part in 0..<count {
      for key in partitions[part].keys {
        let cell = WideVoxelKeying.Key(x: half(key.x), y: half(key.y), z: half(key.z))
        let hash = keying.hash(cell)
        let target = count == 1 ? 0 : Int(hash >> 56) % count
        _ = try indexes[target].number(of: cell, hash: hash)
      }
    }
    for part in 0..<count { coarse.partitions[part] = indexes[part] }
    return coarse
  }
}

/// The kept flags of one frame, which the partitions set concurrently, each only at
/// the points of its own voxels.
private struct KeptFlags: @unchecked Sendable {
  let base: UnsafeMutablePointer<Bool>?

  func set(_ index: Int) { base?[index] = true }
}
