import Foundation

/// Numbers the voxels a stream of points reaches, in the order each is first reached:
/// an open-addressing table from voxel key to that number, growing as voxels come.
///
/// The streaming voxel merge keeps one record a number; the ingest-time merge only
/// asks whether a voxel is new. About 32 bytes a voxel.
struct VoxelIndex {
  let keying: WideVoxelKeying
  private(set) var keys: [WideVoxelKeying.Key] = []
  /// Voxel numbers, -1 when empty; at most half full.
  private var slots: [Int32]
  private var slotMask: Int

  /// The most voxels one index numbers (its slots are 32-bit).
  static let maximumCount = Int(Int32.max) / 2

  /// An empty index for voxels of `sizeMeters`, which must be positive and finite.
  init(sizeMeters: Float) {
    precondition(sizeMeters > 0 && sizeMeters.isFinite, "voxel size must be positive")
    keying = WideVoxelKeying(size: Double(sizeMeters))
    slots = [Int32](repeating: -1, count: 1 << 16)
    slotMask = (1 << 16) - 1
  }

  var count: Int { keys.count }

  /// Bytes held for the keys and slots.
  var storageByteCount: Int {
    keys.capacity * MemoryLayout<WideVoxelKeying.Key>.stride + slots.count * 4
  }

  /// The number of the voxel holding `point`, and whether this point reached it first;
  /// nil for a point with a NaN or infinite coordinate.
  ///
  /// - Throws: `VoxelAccumulatorError.tooManyVoxels` past `maximumCount`.
  @inline(__always)
  mutating func number(of point: Point3) throws(VoxelAccumulatorError) -> (
    number: Int, isNew: Bool
  )? {
    guard let key = keying.key(point) else { return nil }
    return try number(of: key, hash: keying.hash(key))
  }

  /// The number of the voxel with `key`, whose `keying.hash` is `hash`, and whether it
  /// is new.
  @inline(__always)
  mutating func number(
    of key: WideVoxelKeying.Key, hash: UInt64
  ) throws(VoxelAccumulatorError) -> (number: Int, isNew: Bool) {
    var position = Int(truncatingIfNeeded: hash) & slotMask
    let mask = slotMask
    let found: Int? = slots.withUnsafeBufferPointer { slots in
      keys.withUnsafeBufferPointer { keys in
        while true {
          let slot = Int(slots[position])
          if slot < 0 { return nil }
          if keys[slot] == key { return slot }
          position = (position + 1) & mask
        }
      }
    }
    if let found { return (found, false) }
    guard keys.count < Self.maximumCount else { throw .tooManyVoxels(Self.maximumCount) }
    let number = keys.count
    keys.append(key)
    slots[position] = Int32(number)
    if 2 * keys.count > slotMask { growSlots() }
    return (number, true)
  }

  /// Doubles the slot array and puts every voxel back.
  private mutating func growSlots() {
    let capacity = 2 * (slotMask + 1)
    slotMask = capacity - 1
    var slots = [Int32](repeating: -1, count: capacity)
    let mask = slotMask
    slots.withUnsafeMutableBufferPointer { slots in
      for (index, key) in keys.enumerated() {
        var position = Int(truncatingIfNeeded: keying.hash(key)) & mask
        while slots[position] >= 0 { position = (position + 1) & mask }
        slots[position] = Int32(index)
      }
    }
    self.slots = slots
  }
}
