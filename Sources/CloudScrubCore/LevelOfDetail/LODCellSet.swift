/// The occupied cells of one level-of-detail node's grid: an open-addressing hash set
/// of cell numbers, so that "is this cell taken?" costs one or two probes and no
/// allocation per point.
struct LODCellSet: Sendable {
  /// Cell number + 1 in each slot; 0 marks an empty slot.
  private var slots: [UInt32]
  private(set) var count = 0

  init() { slots = Array(repeating: 0, count: 64) }

  /// Marks `cell` taken; returns whether it was free.
  mutating func insert(_ cell: UInt32) -> Bool {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    let stored = cell &+ 1
    let mask = slots.count - 1
    var slot = Self.hash(stored) & mask
    while true {
      let value = slots[slot]
      if value == stored { return false }
      if value == 0 {
        slots[slot] = stored
        count += 1
        return true
      }
      slot = (slot + 1) & mask
    }
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    let mask = slots.count - 1
    for value in old where value != 0 {
      var slot = Self.hash(value) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = value
    }
  }

  /// Bytes the set holds.
  var byteCount: Int { slots.count * MemoryLayout<UInt32>.stride }

  private static func hash(_ value: UInt32) -> Int {
    Int(truncatingIfNeeded: (UInt64(value) &* 0x9E37_79B9_7F4A_7C15) >> 32)
  }
}
