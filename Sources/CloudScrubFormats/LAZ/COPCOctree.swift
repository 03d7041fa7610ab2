import CloudScrubCore
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
    let placed = Self.place(
      count: count, corner: center - SIMD3(repeating: half), rootCell: rootCell,
      deepest: deepest, positions: positions)
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

  /// Each point's node, packed as `pack` packs its level and its cell's place over 128:
  /// the first level, from the root, whose cell holding the point is still free when
  /// the points are offered in file order.
  ///
  /// The root is filled in one pass; the points it does not keep go on to the root's
  /// octant they lie in. No cell below the root spans two octants, so the eight
  /// octants go on in parallel, each in file order, and place every point where one
  /// pass over all of them would.
  static func place(
    count: Int, corner: SIMD3<Double>, rootCell: Double, deepest: Int,
    positions: (Int) -> SIMD3<Double>
  ) -> [UInt64] {
    var placed = [UInt64](repeating: 0, count: count)
    // The taken cells of each level (`LAZCellSet`): the root's here, the others an
    // octant's each below.
    var root = LAZCellSet()
    var octants = [[UInt32]](repeating: [], count: 8)
    for index in 0..<count {
      let unit = (positions(index) - corner) / rootCell
      let c = Self.cell(unit, level: 0)
      if deepest == 0 || root.insert(Self.pack(0, c.x, c.y, c.z)) {
        placed[index] = Self.pack(0, 0, 0, 0)
        continue
      }
      let below = Self.cell(unit, level: 1) &>> 7
      octants[Int(below.x << 2 | below.y << 1 | below.z)].append(UInt32(index))
    }
    let lists = octants
    placed.withUnsafeMutableBufferPointer { placed in
      nonisolated(unsafe) let placed = placed
      withoutActuallyEscaping(positions) { positions in
        nonisolated(unsafe) let positions = positions
        Parallel.perform(iterations: lists.count) { octant in
          var cells = (0...deepest).map { _ in LAZCellSet() }
          for index in lists[octant] {
            let unit = (positions(Int(index)) - corner) / rootCell
            for level in 1...deepest {
              let c = Self.cell(unit, level: level)
              if level == deepest || cells[level].insert(Self.pack(level, c.x, c.y, c.z)) {
                placed[Int(index)] = Self.pack(level, c.x >> 7, c.y >> 7, c.z >> 7)
                break
              }
            }
          }
        }
      }
    }
    return placed
  }

  /// The cell of level `level` holding a point at `unit` (its place in root cells from
  /// the cube's corner), kept inside the level's grid.
  @inline(__always)
  private static func cell(_ unit: SIMD3<Double>, level: Int) -> SIMD3<UInt64> {
    let cellsASide = Double(Self.grid << level)
    let c = (unit * Double(1 << level)).rounded(.down)
    return SIMD3(
      UInt64(min(max(c.x, 0), cellsASide - 1)), UInt64(min(max(c.y, 0), cellsASide - 1)),
      UInt64(min(max(c.z, 0), cellsASide - 1)))
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

/// A set of octree cells (`COPCOctree.pack` keys): the cells of each 16 × 16 × 16 block
/// as one 4,096-bit map, the blocks in one open-addressed table (linear probing) that
/// doubles when half full. Points that are neighbours in the file ask for cells of the
/// same block, whose map is then at hand (and the last block is kept aside), rather
/// than for slots scattered over a table of every cell; a block costs 520 bytes, about
/// 2 bytes a cell taken where a surface passes through it.
struct LAZCellSet {
  /// Blocks' keys plus one (0: an empty slot), and each one's map's place in `bits`.
  private var slots = [UInt64](repeating: 0, count: 256)
  private var maps = [Int32](repeating: 0, count: 256)
  private var mask = 255
  /// 64 words a block.
  private var bits: [UInt64] = []
  private var lastBlock: UInt64 = 0
  private var lastMap = 0

  /// A key's block: the key without the low 4 bits of each axis's place.
  private static let blockMask: UInt64 = ~(0xF << 38 | 0xF << 19 | 0xF)

  /// Fibonacci hashing: the top bits of the key times 2^64 / φ, which every key bit
  /// moves.
  private static func slot(_ stored: UInt64, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) >> (64 - mask.nonzeroBitCount))
  }

  /// Adds `key`; false when it was there.
  mutating func insert(_ key: UInt64) -> Bool {
    let block = key & Self.blockMask &+ 1
    let map = block == lastBlock ? lastMap : self.map(of: block)
    lastBlock = block
    lastMap = map
    // The low 4 bits of each axis's place: the cell's bit in its block's map.
    let cell = Int(truncatingIfNeeded: key & 15 | key >> 15 & 0xF0 | key >> 30 & 0xF00)
    let word = map + cell >> 6
    let bit: UInt64 = 1 << UInt64(cell & 63)
    if bits[word] & bit != 0 { return false }
    bits[word] |= bit
    return true
  }

  /// Where `block`'s map starts in `bits`, made empty if the block is new.
  private mutating func map(of block: UInt64) -> Int {
    var at = Self.slot(block, mask)
    while slots[at] != 0 {
      if slots[at] == block { return Int(maps[at]) * 64 }
      at = (at + 1) & mask
    }
    let index = bits.count / 64
    slots[at] = block
    maps[at] = Int32(index)
    bits += repeatElement(0, count: 64)
    // Blocks so far: one map each.
    if 2 * (index + 1) > slots.count { grow() }
    return index * 64
  }

  private mutating func grow() {
    let old = zip(slots, maps).filter { $0.0 != 0 }
    slots = [UInt64](repeating: 0, count: slots.count * 2)
    maps = [Int32](repeating: 0, count: slots.count)
    mask = slots.count - 1
    for (block, map) in old {
      var at = Self.slot(block, mask)
      while slots[at] != 0 { at = (at + 1) & mask }
      slots[at] = block
      maps[at] = map
    }
  }
}
