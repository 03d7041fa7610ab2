import Foundation

/// Numbers the voxels a stream of points reaches, in the order each is first reached:
/// an open-addressing table from voxel key to that number, growing as voxels come.
///
/// The streaming voxel merge keeps one record a number; the ingest-time merge only
/// asks whether a voxel is new. Each slot holds its voxel's key beside the number, so
/// a lookup reads one place in memory (the time of both merges goes into these
/// reads: the table is far larger than the caches). 32 bytes a slot, at most half of
/// them full: 64 to 128 bytes a voxel.
struct VoxelIndex {
  /// One slot of the table: a voxel's key and number, or empty (`number` -1).
  struct Slot {
    var key: WideVoxelKeying.Key
    var number: Int32
  }

  let keying: WideVoxelKeying
  private var slots: [Slot]
  private var slotMask: Int
  private(set) var count = 0

  /// The most voxels one index numbers (its numbers are 32-bit).
  static let maximumCount = Int(Int32.max) / 2

  /// Bytes a slot takes.
  static let bytesPerSlot = MemoryLayout<Slot>.stride

  private static let empty = Slot(key: WideVoxelKeying.Key(x: 0, y: 0, z: 0), number: -1)

  /// An empty index for voxels of `sizeMeters`, which must be positive and finite.
  init(sizeMeters: Float) {
    precondition(sizeMeters > 0 && sizeMeters.isFinite, "voxel size must be positive")
    keying = WideVoxelKeying(size: Double(sizeMeters))
    slots = [Slot](repeating: Self.empty, count: 1 << 16)
    slotMask = (1 << 16) - 1
  }

  /// Bytes held for the table.
  var storageByteCount: Int { slots.count * Self.bytesPerSlot }

  /// The keys of the voxels numbered so far, in slot order.
  var keys: [WideVoxelKeying.Key] { slots.compactMap { $0.number >= 0 ? $0.key : nil } }

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
    let mask = slotMask
    let next = count
    guard next < Self.maximumCount else {
      // Only a new voxel would pass the limit: look the key up first.
      if let found = find(key, hash: hash) { return (found, false) }
      throw .tooManyVoxels(Self.maximumCount)
    }
    let (number, isNew): (Int, Bool) = slots.withUnsafeMutableBufferPointer { slots in
      var position = Int(truncatingIfNeeded: hash) & mask
      while true {
        let slot = slots[position]
        if slot.number < 0 {
          slots[position] = Slot(key: key, number: Int32(next))
          return (next, true)
        }
        if slot.key == key { return (Int(slot.number), false) }
        position = (position + 1) & mask
      }
    }
    if isNew {
      count += 1
      if 2 * count > slotMask { growSlots() }
    }
    return (number, isNew)
  }

  /// The number of the voxel with `key`, if it has one.
  private func find(_ key: WideVoxelKeying.Key, hash: UInt64) -> Int? {
    slots.withUnsafeBufferPointer { slots in
      var position = Int(truncatingIfNeeded: hash) & slotMask
      while true {
        let slot = slots[position]
        if slot.number < 0 { return nil }
        if slot.key == key { return Int(slot.number) }
        position = (position + 1) & slotMask
      }
    }
  }

  /// The number in the slot where a key of `hash` is first looked for (-1: empty): read
  /// only to bring that slot in early (`VoxelLookupBatch`).
  @inline(__always)
  func slotNumber(atHomeOf hash: UInt64) -> Int {
    slots.withUnsafeBufferPointer { Int($0[Int(truncatingIfNeeded: hash) & slotMask].number) }
  }

  /// `count` empty slots, in huge pages where the kernel offers them: the lookups land
  /// anywhere in a table of hundreds of megabytes, and with 4 KB pages nearly each one
  /// would also miss the address translation cache.
  private static func emptySlots(_ count: Int) -> [Slot] {
    [Slot](unsafeUninitializedCapacity: count) { buffer, initialized in
      if let base = buffer.baseAddress {
        adviseHugePages(UnsafeMutableRawPointer(base), byteCount: count * bytesPerSlot)
      }
      buffer.initialize(repeating: empty)
      initialized = count
    }
  }

  /// Doubles the table and puts every voxel back.
  private mutating func growSlots() {
    let capacity = 2 * (slotMask + 1)
    let mask = capacity - 1
    var grown = Self.emptySlots(capacity)
    grown.withUnsafeMutableBufferPointer { grown in
      slots.withUnsafeBufferPointer { old in
        for slot in old where slot.number >= 0 {
          var position = Int(truncatingIfNeeded: keying.hash(slot.key)) & mask
          while grown[position].number >= 0 { position = (position + 1) & mask }
          grown[position] = slot
        }
      }
    }
    slots = grown
    slotMask = mask
  }
}
