import Foundation

/// The per-point inputs a voxel merge reads, absent fields as empty arrays.
struct VoxelInputs: Sendable {
  var positions: [Point3]
  var colors: [RGB8]
  var normals: [Point3]
  /// "confidence" as `.uint8`, 255 meaning unknown.
  var confidence: [UInt8]
  /// Floating-point attributes, averaged.
  var floatAttributes: [AttributeValues]

  /// Doubles accumulated per voxel besides position: normal, then one a float attribute.
  var extraStride: Int { (normals.isEmpty ? 0 : 3) + floatAttributes.count }
}

/// One point as the bucket pass reads it, scattered next to the other points of its
/// bucket so that the pass streams through memory instead of jumping around the cloud.
struct VoxelEntry {
  var index: UInt32
  var position: Point3
  /// Red, green, blue and confidence, one byte each from the low end.
  var colorAndConfidence: UInt32
}

/// What one voxel has gathered so far.
struct VoxelRecord<Key> {
  var key: Key
  var sumX: Double
  var sumY: Double
  var sumZ: Double
  /// Index of the voxel's first point in the input.
  var firstIndex: Int
  var count: Int
  var red: UInt64
  var green: UInt64
  var blue: UInt64
  /// Highest known confidence, 255 while none is known.
  var confidence: UInt8
}

/// An open-addressing table from voxel key to record, for one bucket at a time.
///
/// A bucket holds a few thousand voxels, so the table stays in the core's cache. One task
/// reuses its table for every bucket it handles.
struct VoxelTable<Key: Equatable & Sendable> {
  private(set) var records: UnsafeMutablePointer<VoxelRecord<Key>>
  private(set) var extras: UnsafeMutablePointer<Double>
  private(set) var count = 0
  private var recordCapacity = 0
  let extraStride: Int
  private var slots: UnsafeMutablePointer<Int32>
  private var slotCapacity = 0
  private var slotMask = 0

  init(extraStride: Int) {
    self.extraStride = extraStride
    records = .allocate(capacity: 1)
    extras = .allocate(capacity: 1)
    slots = .allocate(capacity: 1)
  }

  func free() {
    records.deallocate()
    extras.deallocate()
    slots.deallocate()
  }

  /// Empties the table for a bucket of `entryCount` points (at most as many voxels).
  ///
  /// Room for a few thousand voxels is made up front; a bucket with more (a voxel size
  /// coarse next to the cloud puts many points in few voxels, but a fine one the
  /// reverse) grows the table as it fills.
  mutating func reset(entryCount: Int) {
    count = 0
    let expected = min(entryCount, 1 << 14)
    if expected > recordCapacity { reserveRecords(expected) }
    var capacity = 64
    // Load at most one half, so that probes stay short.
    while capacity < 2 * expected { capacity *= 2 }
    if capacity > slotCapacity {
      slots.deallocate()
      slots = .allocate(capacity: capacity)
      slotCapacity = capacity
    }
    slotMask = capacity - 1
    slots.initialize(repeating: -1, count: capacity)
  }

  private mutating func reserveRecords(_ capacity: Int) {
    let newRecords = UnsafeMutablePointer<VoxelRecord<Key>>.allocate(capacity: capacity)
    newRecords.moveInitialize(from: records, count: count)
    records.deallocate()
    records = newRecords
    let newExtras = UnsafeMutablePointer<Double>.allocate(capacity: max(1, capacity * extraStride))
    newExtras.moveInitialize(from: extras, count: count * extraStride)
    extras.deallocate()
    extras = newExtras
    recordCapacity = capacity
  }

  /// Doubles the slot array and puts every voxel back.
  private mutating func growSlots<K: VoxelKeying>(keying: K) where K.Key == Key {
    precondition(slotMask < Int(Int32.max), "too many voxels in one bucket")
    let capacity = 2 * (slotMask + 1)
    if capacity > slotCapacity {
      slots.deallocate()
      slots = .allocate(capacity: capacity)
      slotCapacity = capacity
    }
    slotMask = capacity - 1
    slots.initialize(repeating: -1, count: capacity)
    for slot in 0..<count {
      var position = Int(truncatingIfNeeded: keying.hash(records[slot].key)) & slotMask
      while slots[position] >= 0 { position = (position + 1) & slotMask }
      slots[position] = Int32(slot)
    }
  }

  /// Adds the bucket's points, in input order.
  mutating func accumulate<K: VoxelKeying>(
    _ entries: UnsafeBufferPointer<VoxelEntry>, _ inputs: VoxelInputs, keying: K
  ) where K.Key == Key {
    let hasExtras = extraStride > 0
    for entry in entries {
      // Finite by construction: non-finite points never reach a bucket.
      guard let key = keying.key(entry.position) else { continue }
      let slot = findOrInsert(
        key, hash: keying.hash(key), firstIndex: Int(entry.index), keying: keying)
      let record = records + slot
      record.pointee.sumX += Double(entry.position.x)
      record.pointee.sumY += Double(entry.position.y)
      record.pointee.sumZ += Double(entry.position.z)
      record.pointee.count += 1
      let packed = entry.colorAndConfidence
      record.pointee.red += UInt64(packed & 0xFF)
      record.pointee.green += UInt64((packed >> 8) & 0xFF)
      record.pointee.blue += UInt64((packed >> 16) & 0xFF)
      let confidence = UInt8(packed >> 24)
      let best = record.pointee.confidence
      if confidence != 255 && (best == 255 || confidence > best) {
        record.pointee.confidence = confidence
      }
      if hasExtras { addExtras(inputs, index: Int(entry.index), slot: slot) }
    }
  }

  /// Normals and float attributes: read at random, which is slow but rare.
  private func addExtras(_ inputs: VoxelInputs, index: Int, slot: Int) {
    var k = slot * extraStride
    if !inputs.normals.isEmpty {
      let normal = inputs.normals[index]
      extras[k] += Double(normal.x)
      extras[k + 1] += Double(normal.y)
      extras[k + 2] += Double(normal.z)
      k += 3
    }
    for values in inputs.floatAttributes {
      extras[k] += values.double(at: index)
      k += 1
    }
  }

  @inline(__always)
  private mutating func findOrInsert<K: VoxelKeying>(
    _ key: Key, hash: UInt64, firstIndex: Int, keying: K
  ) -> Int where K.Key == Key {
    var position = Int(truncatingIfNeeded: hash) & slotMask
    while true {
      let slot = Int(slots[position])
      if slot < 0 { break }
      if records[slot].key == key { return slot }
      position = (position + 1) & slotMask
    }
    let slot = count
    if slot == recordCapacity { reserveRecords(max(64, 2 * recordCapacity)) }
    (records + slot).initialize(
      to: VoxelRecord(
        key: key, sumX: 0, sumY: 0, sumZ: 0, firstIndex: firstIndex, count: 0, red: 0, green: 0,
        blue: 0, confidence: 255))
    (extras + slot * extraStride).initialize(repeating: 0, count: extraStride)
    count += 1
    slots[position] = Int32(slot)
    if 2 * count > slotMask { growSlots(keying: keying) }
    return slot
  }
}
