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
/// Memory is about 100 bytes a voxel, whatever the number of points added.
public struct VoxelAccumulator {
  /// What one voxel has gathered so far.
  struct Voxel {
    var sumX: Double
    var sumY: Double
    var sumZ: Double
    var count: Int
    var red: UInt64
    var green: UInt64
    var blue: UInt64
    var frame: UInt32
    /// Highest known confidence, 255 while none is known.
    var confidence: UInt8
  }

  public let voxelSizeMeters: Float
  private var index: VoxelIndex
  private var voxels: [Voxel] = []
  /// Points added so far, finite or not.
  public private(set) var pointsAdded = 0

  /// The most voxels one accumulator holds (its slot indices are 32-bit).
  public static let maximumVoxels = VoxelIndex.maximumCount

  /// An empty accumulator for voxels of `voxelSizeMeters`, which must be positive and
  /// finite (the option parsers check it).
  public init(voxelSizeMeters: Float) {
    precondition(voxelSizeMeters > 0 && voxelSizeMeters.isFinite, "voxel size must be positive")
    self.voxelSizeMeters = voxelSizeMeters
    index = VoxelIndex(sizeMeters: voxelSizeMeters)
  }

  /// Voxels gathered so far.
  public var voxelCount: Int { voxels.count }

  /// Bytes held for the voxels and their table.
  public var storageByteCount: Int {
    voxels.capacity * MemoryLayout<Voxel>.stride + index.storageByteCount
  }

  /// Adds one frame's points, in order, after every point added before.
  ///
  /// - Parameters:
  ///   - keep: which points to add (`nil`: all of them), e.g. a crop mask.
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past `maximumVoxels`.
  public mutating func add(
    _ points: FramePoints, frameIndex: Int, keeping keep: [Bool]? = nil
  ) throws(VoxelAccumulatorError) {
    let frame = UInt32(clamping: frameIndex)
    for k in 0..<points.count where keep?[k] ?? true {
      let p = points.positions[k]
      pointsAdded += 1
      guard let (slot, isNew) = try index.number(of: p) else { continue }
      if isNew {
        voxels.append(
          Voxel(
            sumX: 0, sumY: 0, sumZ: 0, count: 0, red: 0, green: 0, blue: 0, frame: frame,
            confidence: 255))
      }
      let c = points.colors[k]
      let confidence = points.confidence[k]
      voxels.withUnsafeMutableBufferPointer { voxels in
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
  }

  /// The merged cloud: one point a voxel with colour and the `confidence` (uchar) and
  /// `frame` (uint) attributes, as `PointStore.cloud()` names them.
  public func cloud() -> PointCloud {
    var positions: [Point3] = []
    var colors: [RGB8] = []
    var confidence: [UInt8] = []
    var frames: [UInt32] = []
    positions.reserveCapacity(voxels.count)
    colors.reserveCapacity(voxels.count)
    confidence.reserveCapacity(voxels.count)
    frames.reserveCapacity(voxels.count)
    for v in voxels {
      let n = Double(v.count)
      positions.append(Point3(Float(v.sumX / n), Float(v.sumY / n), Float(v.sumZ / n)))
      // Round to nearest, halves up, as VoxelMerge does.
      let count = UInt64(v.count)
      colors.append(
        RGB8(
          UInt8((2 * v.red + count) / (2 * count)), UInt8((2 * v.green + count) / (2 * count)),
          UInt8((2 * v.blue + count) / (2 * count))))
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
