/// Block numbers by packed block coordinate (`TSDFVolume.key`): an open-addressing
/// hash table with linear probing, kept at most half full, hashed by one multiplication
/// (the keys are coordinates, not chosen by anyone, so no seeded hash is needed).
struct BlockTable: Sendable {
  private static let empty = UInt64.max
  private var keys: [UInt64]
  private var values: [Int32]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int = 1024) {
    var size = 16
    while size < 2 * capacity { size *= 2 }
    keys = [UInt64](repeating: Self.empty, count: size)
    values = [Int32](repeating: -1, count: size)
    mask = size - 1
  }

  /// A key's bits mixed by one multiplication; its high bits are the best spread.
  @inline(__always)
  static func hash(_ key: UInt64) -> UInt64 { key &* 0x9E37_79B9_7F4A_7C15 }

  @inline(__always)
  private func slot(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: Self.hash(key) >> 20) & mask
  }

  /// The number stored for `key`, nil when there is none.
  @inline(__always)
  func find(_ key: UInt64) -> Int32? {
    var k = slot(key)
    while true {
      let stored = keys[k]
      if stored == key { return values[k] }
      if stored == Self.empty { return nil }
      k = (k + 1) & mask
    }
  }

  /// Stores `value` for `key`, which must not be in the table yet.
  mutating func insert(_ key: UInt64, _ value: Int32) {
    if 2 * (count + 1) > keys.count { grow() }
    var k = slot(key)
    while keys[k] != Self.empty { k = (k + 1) & mask }
    keys[k] = key
    values[k] = value
    count += 1
  }

  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    keys = [UInt64](repeating: Self.empty, count: oldKeys.count * 2)
    values = [Int32](repeating: -1, count: oldKeys.count * 2)
    mask = keys.count - 1
    count = 0
    for (key, value) in zip(oldKeys, oldValues) where key != Self.empty { insert(key, value) }
  }
}
