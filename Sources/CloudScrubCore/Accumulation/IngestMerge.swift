/// Thinning while a recording loads: a point whose voxel already holds a point is not
/// kept, so that memory grows with the scene, not with the length of the capture.
///
/// The first point to reach a voxel is the one kept (earlier points are already on the
/// screen and in the GPU's append-only buffers, so nothing is averaged), and points
/// keep their frame order: "frames a…b" stays a contiguous range. A capture that looks
/// at the same room for twenty minutes ends up with about one point a voxel of the
/// room's surfaces.
public struct IngestMerge {
  public let voxelSizeMeters: Float
  private var index: VoxelIndex
  /// Points offered and points kept so far.
  public private(set) var pointsSeen = 0
  public private(set) var pointsKept = 0

  /// A merge into voxels of `voxelSizeMeters`, which must be positive and finite (the
  /// option parsers check it).
  public init(voxelSizeMeters: Float) {
    self.voxelSizeMeters = voxelSizeMeters
    index = VoxelIndex(sizeMeters: voxelSizeMeters)
  }

  /// The points of `frame` whose voxels no earlier point reached, in order.
  ///
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past the index's limit.
  public mutating func thin(_ frame: FramePoints) throws(VoxelAccumulatorError) -> FramePoints {
    var kept = FramePoints()
    for k in 0..<frame.count {
      guard let (_, isNew) = try index.number(of: frame.positions[k]), isNew else { continue }
      kept.positions.append(frame.positions[k])
      kept.colors.append(frame.colors[k])
      kept.confidence.append(frame.confidence[k])
    }
    pointsSeen += frame.count
    pointsKept += kept.count
    return kept
  }

  /// Bytes the merge holds for its voxels.
  public var storageByteCount: Int { index.storageByteCount }

  /// The same merge at twice the voxel size, for the points still to come: its voxels
  /// are those holding a point kept so far, so a later point is kept only when its
  /// coarse voxel holds none yet. (A coarse cell is exactly half the fine cell index,
  /// rounded down: both are ⌊x / size⌋ in `Double`, and halving is exact.)
  ///
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past the index's limit.
  public func coarsened() throws(VoxelAccumulatorError) -> IngestMerge {
    var coarse = IngestMerge(voxelSizeMeters: voxelSizeMeters * 2)
    coarse.pointsSeen = pointsSeen
    coarse.pointsKept = pointsKept
    for key in index.keys {
      func half(_ bits: UInt64) -> UInt64 {
        ((Double(bitPattern: bits) / 2).rounded(.down) + 0).bitPattern
      }
      let cell = WideVoxelKeying.Key(x: half(key.x), y: half(key.y), z: half(key.z))
      _ = try coarse.index.number(of: cell, hash: coarse.index.keying.hash(cell))
    }
    return coarse
  }
}
