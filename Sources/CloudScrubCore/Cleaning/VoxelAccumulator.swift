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
/// Memory is about 80 bytes a voxel, whatever the number of points added.
public struct VoxelAccumulator {
  /// What one voxel has gathered so far, with its key beside it so that a lookup and
  /// its update touch one record.
  struct Voxel {
    var key: WideVoxelKeying.Key
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
  private let keying: WideVoxelKeying
  private var voxels: [Voxel] = []
  /// Open-addressing slots holding voxel indices, -1 when empty; at most half full.
  private var slots: [Int32]
  private var slotMask: Int
  /// Points added so far, finite or not.
  public private(set) var pointsAdded = 0

  /// The most voxels one accumulator holds (its slot indices are 32-bit).
  public static let maximumVoxels = Int(Int32.max) / 2

  /// An empty accumulator for voxels of `voxelSizeMeters`, which must be positive and
  /// finite (the option parsers check it).
  public init(voxelSizeMeters: Float) {
    precondition(voxelSizeMeters > 0 && voxelSizeMeters.isFinite, "voxel size must be positive")
    self.voxelSizeMeters = voxelSizeMeters
    keying = WideVoxelKeying(size: Double(voxelSizeMeters))
    slots = [Int32](repeating: -1, count: 1 << 16)
    slotMask = (1 << 16) - 1
  }

  /// Voxels gathered so far.
  public var voxelCount: Int { voxels.count }

  /// Bytes held for the voxels and their table.
  public var storageByteCount: Int {
    voxels.capacity * MemoryLayout<Voxel>.stride + slots.count * 4
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
    for index in 0..<points.count where keep?[index] ?? true {
      let p = points.positions[index]
      pointsAdded += 1
      guard let key = keying.key(p) else { continue }
      let slot = try findOrInsert(key, frame: frame)
      let c = points.colors[index]
      let confidence = points.confidence[index]
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

  // MARK: - The table

  /// Where a voxel's probe starts. (Grouping neighbouring voxels into runs of slots was
  /// tried and measured slower: the cost is the records' cache misses, not the slots'.)
  @inline(__always)
  private func home(_ key: WideVoxelKeying.Key) -> Int {
    Int(truncatingIfNeeded: keying.hash(key)) & slotMask
  }

  @inline(__always)
  private mutating func findOrInsert(
    _ key: WideVoxelKeying.Key, frame: UInt32
  ) throws(VoxelAccumulatorError) -> Int {
    var position = home(key)
    let found: Int? = slots.withUnsafeBufferPointer { slots in
      voxels.withUnsafeBufferPointer { voxels in
        while true {
          let slot = Int(slots[position])
          if slot < 0 { return nil }
          if voxels[slot].key == key { return slot }
          position = (position + 1) & slotMask
        }
      }
    }
    if let found { return found }
    guard voxels.count < Self.maximumVoxels else { throw .tooManyVoxels(Self.maximumVoxels) }
    let slot = voxels.count
    voxels.append(
      Voxel(
        key: key, sumX: 0, sumY: 0, sumZ: 0, count: 0, red: 0, green: 0, blue: 0, frame: frame,
        confidence: 255))
    slots[position] = Int32(slot)
    if 2 * voxels.count > slotMask { growSlots() }
    return slot
  }

  /// Doubles the slot array and puts every voxel back.
  private mutating func growSlots() {
    let capacity = 2 * (slotMask + 1)
    slotMask = capacity - 1
    var slots = [Int32](repeating: -1, count: capacity)
    let mask = slotMask
    slots.withUnsafeMutableBufferPointer { slots in
      for (index, voxel) in voxels.enumerated() {
        var position = home(voxel.key)
        while slots[position] >= 0 { position = (position + 1) & mask }
        slots[position] = Int32(index)
      }
    }
    self.slots = slots
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
