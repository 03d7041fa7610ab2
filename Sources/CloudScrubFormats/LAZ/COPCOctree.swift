import Foundation

/// How a COPC export shares its points among the nodes of an octree: every node keeps at
/// most one point in each cell of a 128 × 128 × 128 grid over its cube, so each level
/// is an even sample of the cloud at twice the density of the level above; a point
/// whose cell is taken goes on down to the child that holds it. The points are offered
/// in the records' order: which point of a cell's a level keeps does not change how
/// evenly the level covers the cloud, and neighbours in the file (a frame's points)
/// are neighbours in space, so the cells they ask for are at hand.
struct COPCOctree {
  /// A node's key: its level and its cube's place on that level.
  struct Key: Hashable, Comparable {
    var level: Int32
    var x: Int32
    var y: Int32
    var z: Int32

    static func < (a: Key, b: Key) -> Bool {
      (a.level, a.x, a.y, a.z) < (b.level, b.x, b.y, b.z)
    }
  }

  /// Cells a side of a node's grid (2^7).
  static let grid = 128
  /// The deepest level the octree may reach: a cell's place on it packs in 19 bits.
  static let deepestPossible = 12

  /// The cube: its centre and half its side, in the records' world coordinates.
  let center: SIMD3<Double>
  let halfSize: Double
  /// The deepest level: a point that finds no free cell above it stays there.
  let deepest: Int
  /// The nodes' keys and the records each keeps, coarse levels first.
  let keys: [Key]
  let members: [[UInt32]]

  /// The octree of `positions(i)`, i below `count`, whose coordinates are multiples of
  /// `quantum` (the LAS scale): no level's cells are finer than it, so points that
  /// coincide stop at the first level whose cells are that fine.
  init(count: Int, quantum: Double, positions: (Int) -> SIMD3<Double>) {
    var low = SIMD3<Double>(repeating: .infinity)
    var high = SIMD3<Double>(repeating: -.infinity)
    for index in 0..<count {
      let p = positions(index)
      low = pointwiseMin(low, p)
      high = pointwiseMax(high, p)
    }
    if count == 0 { (low, high) = (.zero, .zero) }
    center = (low + high) / 2
    // A hair larger than the widest side, so the highest point lies inside.
    let half = max((high - low).max() / 2 * (1 + 1e-9), 1e-6)
    halfSize = half
    let rootCell = 2 * half / Double(Self.grid)
    let finest = max(0, log2(rootCell / max(quantum, 1e-12)).rounded(.down))
    let deepest = Int(min(finest, Double(Self.deepestPossible)))
    self.deepest = deepest
    // Every occupied cell, as (level, x, y, z) packed in 64 bits, a table a level: the
    // coarse levels' small tables, where most points find their cell taken, stay in
    // the cache. The node a point went to is packed alike (its cell's place over 128).
    var cells = (0...deepest).map { _ in LAZCellSet() }
    var placed = [UInt64](repeating: 0, count: count)
    let corner = center - SIMD3(repeating: half)
    for index in 0..<count {
      let unit = (positions(index) - corner) / rootCell
      for level in 0...deepest {
        let cellsASide = Double(Self.grid << level)
        let c = (unit * Double(1 << level)).rounded(.down)
        let x = UInt64(min(max(c.x, 0), cellsASide - 1))
        let y = UInt64(min(max(c.y, 0), cellsASide - 1))
        let z = UInt64(min(max(c.z, 0), cellsASide - 1))
        if level == deepest || cells[level].insert(Self.pack(level, x, y, z)) {
          placed[index] = Self.pack(level, x >> 7, y >> 7, z >> 7)
          break
        }
      }
    }
    // The nodes, and each one's records in file order.
    var nodeOf: [UInt64: Int] = [:]
    var nodeKeys: [UInt64] = []
    var sizes: [Int] = []
    for key in placed {
      if let node = nodeOf[key] {
        sizes[node] += 1
      } else {
        nodeOf[key] = nodeKeys.count
        nodeKeys.append(key)
        sizes.append(1)
      }
    }
    var nodeMembers = sizes.map { size -> [UInt32] in
      var members: [UInt32] = []
      members.reserveCapacity(size)
      return members
    }
    for (index, key) in placed.enumerated() {
      nodeMembers[nodeOf[key].unsafelyUnwrapped].append(UInt32(index))
    }
    let kept = Self.foldSparseSubtrees(keys: nodeKeys, nodeOf: nodeOf, members: &nodeMembers)
    let order = kept.sorted { nodeKeys[$0] < nodeKeys[$1] }
    keys = order.map { Self.unpack(nodeKeys[$0]) }
    members = order.map { nodeMembers[$0] }
  }

  /// Subtrees of fewer points than this fold into their top node.
  static let foldBelow = 8192

  /// Folds every subtree of fewer than `foldBelow` points into its top node, deepest
  /// first, so sparse parts of the cloud (and the deepest levels) are not thousands of
  /// nodes of a few points each; such a node has no children, and its points are no
  /// longer one a cell. Returns the nodes that are left.
  private static func foldSparseSubtrees(
    keys: [UInt64], nodeOf: [UInt64: Int], members: inout [[UInt32]]
  ) -> [Int] {
    let count = keys.count
    var total = members.map(\.count)
    // Whether a node holds its whole subtree (a leaf, or folded).
    var whole = [Bool](repeating: true, count: count)
    var children = [[Int]](repeating: [], count: count)
    var folded = [Bool](repeating: false, count: count)
    for node in keys.indices.sorted(by: { keys[$0] > keys[$1] }) {
      if !children[node].isEmpty {
        if whole[node], total[node] < foldBelow {
          for child in children[node] {
            members[node] += members[child]
            members[child] = []
            folded[child] = true
          }
        } else {
          whole[node] = false
        }
      }
      let level = Int(keys[node] >> 57)
      guard level > 0 else { continue }
      let key = unpack(keys[node])
      let parentKey = pack(
        level - 1, UInt64(key.x >> 1), UInt64(key.y >> 1), UInt64(key.z >> 1))
      let parent = nodeOf[parentKey].unsafelyUnwrapped
      children[parent].append(node)
      total[parent] += total[node]
      if !whole[node] { whole[parent] = false }
    }
    return keys.indices.filter { !folded[$0] }
  }

  /// (level, x, y, z): the level in the top 5 bits, then 19 bits an axis, so packed keys
  /// sort by level first.
  static func pack(_ level: Int, _ x: UInt64, _ y: UInt64, _ z: UInt64) -> UInt64 {
    UInt64(level) << 57 | x << 38 | y << 19 | z
  }

  static func unpack(_ key: UInt64) -> Key {
    let mask: UInt64 = (1 << 19) - 1
    return Key(
      level: Int32(key >> 57), x: Int32(key >> 38 & mask), y: Int32(key >> 19 & mask),
      z: Int32(key & mask))
  }
}

/// A set of 64-bit keys (below `UInt64.max`) in one open-addressed table (linear
/// probing) that doubles when half full: the octree's occupied cells of a level, one
/// insert per point offered, without the chained buckets of a `Set`.
struct LAZCellSet {
  private var slots = [UInt64](repeating: 0, count: 1024)
  private var mask = 1023
  private var count = 0

  /// Fibonacci hashing: the top bits of the key times 2^64 / φ, which every key bit
  /// moves.
  private static func slot(_ stored: UInt64, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) >> (64 - mask.nonzeroBitCount))
  }

  /// Adds `key`; false when it was there. Keys are kept plus one: 0 is an empty slot.
  mutating func insert(_ key: UInt64) -> Bool {
    let stored = key &+ 1
    let mask = self.mask
    let added = slots.withUnsafeMutableBufferPointer { slots in
      var at = Self.slot(stored, mask)
      while true {
        let slot = slots[at]
        if slot == stored { return false }
        if slot == 0 {
          slots[at] = stored
          return true
        }
        at = (at + 1) & mask
      }
    }
    if added {
      count += 1
      if 2 * count > slots.count { grow() }
    }
    return added
  }

  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: old.count * 2)
    mask = slots.count - 1
    let mask = self.mask
    slots.withUnsafeMutableBufferPointer { slots in
      for stored in old where stored != 0 {
        var at = Self.slot(stored, mask)
        while slots[at] != 0 { at = (at + 1) & mask }
        slots[at] = stored
      }
    }
  }
}
