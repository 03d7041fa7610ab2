import Foundation

/// One thread's working memory for `NeighbourGrid.forEachNearestDistances`: the points
/// of a block of cells in structure-of-arrays form, and the last query's result.
///
/// A query takes four steps, none of them a tree walk:
/// 1. the squared distances to every point of the block, eight at a time;
/// 2. a bound from the last result: the point queried before and its `k` neighbours are
///    `k + 1` known points, so the query's `k`-th distance is at most the `k`-th
///    smallest of its distances to them (excluding itself, should it be one of them);
/// 3. the block's points within that bound (usually under twice `k`);
/// 4. the `k` nearest of those, in order, by counting for each how many are nearer
///    (eight comparisons at a time, with no branch). The count runs first over the few
///    within a narrower guess (`rankNearest`), then over all within the bound should
///    fewer than `k` lie inside the guess. A tie between equal distances leaves a rank
///    empty; then, and when more than `rankLimit` points are within the bound, a sorted
///    insertion takes over.
final class BlockSearch {
  let k: Int
  /// Points in the block.
  private(set) var count = 0
  /// Where the query's own cell's run of three cells starts in the block.
  var middleOffset = 0
  /// Whether the block was left empty because it holds too many points to be worth
  /// searching (see `NeighbourGrid.blockLimit`).
  private(set) var isOversized = false
  /// The `k` nearest squared distances found by the last query, nearest first.
  var result: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: sorted, count: resultCount) }
  var kthDistanceSquared: Float { sorted[k - 1] }
  /// The last search's bound from the result before it (step 2): a squared distance
  /// within which `k` points other than the query surely lie, or infinity.
  private(set) var lastBound = Float.infinity

  /// Above this many points within the bound, ranking by counting costs more than a
  /// sorted insertion.
  static let rankLimit = 64

  private var capacity = 0
  private var x: UnsafeMutablePointer<Float>
  private var y: UnsafeMutablePointer<Float>
  private var z: UnsafeMutablePointer<Float>
  private var index: UnsafeMutablePointer<Int32>
  private var distance: UnsafeMutablePointer<Float>
  private var survivor: UnsafeMutablePointer<Float>
  private var survivorSlot: UnsafeMutablePointer<Int32>
  private var nearest: UnsafeMutablePointer<Float>
  private var nearestSlot: UnsafeMutablePointer<Int32>
  /// `k + 1` slots: the result, and one where ranks past `k` land.
  private let sorted: UnsafeMutablePointer<Float>
  private let sortedSlot: UnsafeMutablePointer<Int32>
  private var resultCount = 0
  private let keys: UnsafeMutablePointer<UInt64>
  /// The last query and its neighbours; `lastCount` is 0 when there is none to use.
  private let lastX: UnsafeMutablePointer<Float>
  private let lastY: UnsafeMutablePointer<Float>
  private let lastZ: UnsafeMutablePointer<Float>
  private let lastIndex: UnsafeMutablePointer<Int32>
  private var lastCount = 0
  private var lastQuery = KDTree.Entry(x: 0, y: 0, z: 0, index: -1)

  init(neighbours k: Int) {
    self.k = k
    x = .allocate(capacity: 0)
    y = .allocate(capacity: 0)
    z = .allocate(capacity: 0)
    index = .allocate(capacity: 0)
    distance = .allocate(capacity: 0)
    survivor = .allocate(capacity: 0)
    survivorSlot = .allocate(capacity: 0)
    nearest = .allocate(capacity: 0)
    nearestSlot = .allocate(capacity: 0)
    sorted = .allocate(capacity: k + 1)
    sortedSlot = .allocate(capacity: k + 1)
    keys = .allocate(capacity: k)
    lastX = .allocate(capacity: k)
    lastY = .allocate(capacity: k)
    lastZ = .allocate(capacity: k)
    lastIndex = .allocate(capacity: k)
  }

  deinit {
    for pointer in [x, y, z, distance, survivor, nearest, sorted, lastX, lastY, lastZ] {
      pointer.deallocate()
    }
    for pointer in [index, survivorSlot, nearestSlot, sortedSlot, lastIndex] {
      pointer.deallocate()
    }
    keys.deallocate()
  }

  // MARK: - Loading

  /// Empties the block for `count` points, growing the buffers when needed.
  func reset(count newCount: Int) {
    count = 0
    isOversized = false
    let needed = Self.padded(newCount) + 8
    guard needed > capacity else { return }
    for pointer in [x, y, z, distance, survivor, nearest] { pointer.deallocate() }
    for pointer in [index, survivorSlot, nearestSlot] { pointer.deallocate() }
    capacity = max(needed, 2 * capacity)
    x = .allocate(capacity: capacity)
    y = .allocate(capacity: capacity)
    z = .allocate(capacity: capacity)
    index = .allocate(capacity: capacity)
    distance = .allocate(capacity: capacity)
    survivor = .allocate(capacity: capacity)
    survivorSlot = .allocate(capacity: capacity)
    nearest = .allocate(capacity: capacity)
    nearestSlot = .allocate(capacity: capacity)
  }

  /// Leaves the block empty: its cells hold too many points.
  func markOversized() {
    count = 0
    isOversized = true
  }

  func append(_ points: UnsafeBufferPointer<KDTree.Entry>, _ range: Range<Int>) {
    for i in range {
      let e = points[i]
      x[count] = e.x
      y[count] = e.y
      z[count] = e.z
      index[count] = e.index
      count += 1
    }
  }

  /// Pads the block to a multiple of eight with points whose distances are NaN, which
  /// no bound admits.
  func finishLoading() {
    for i in count..<Self.padded(count) {
      x[i] = .nan
      y[i] = .nan
      z[i] = .nan
      index[i] = -1
    }
  }

  // MARK: - Searching

  /// Finds the `k` nearest points of the block to `e`, which is the block's point at
  /// `own`; returns false when the block holds fewer than `k` other points.
  func search(_ e: KDTree.Entry, own: Int) -> Bool {
    computeDistances(e)
    distance[own] = .nan
    lastBound = bound(e)
    var within = keepWithin(lastBound)
    if within < k { within = keepWithin(.infinity) }
    guard within >= k else {
      resultCount = 0
      lastCount = 0
      return false
    }
    for i in within..<Self.padded(within) {
      survivor[i] = .infinity
      survivorSlot[i] = -1
    }
    if !rankNearest(within) && (within > Self.rankLimit || !rank(survivor, survivorSlot, within)) {
      insert(within)
    }
    resultCount = k
    for j in 0..<k {
      let slot = Int(sortedSlot[j])
      lastX[j] = x[slot]
      lastY[j] = y[slot]
      lastZ[j] = z[slot]
      lastIndex[j] = index[slot]
    }
    lastCount = k
    lastQuery = e
    return true
  }

  /// Takes a k-d tree search's result for `e` in place of the block's.
  func take(_ search: NearestSearch, found: Int, _ entries: UnsafeBufferPointer<KDTree.Entry>) {
    resultCount = found
    for j in 0..<found {
      sorted[j] = search.distanceSquared(j)
      let e = entries[Int(search.treePositions[j])]
      lastX[j] = e.x
      lastY[j] = e.y
      lastZ[j] = e.z
      lastIndex[j] = e.index
    }
    lastCount = found == k ? k : 0
  }

  /// Step 1, in the arithmetic of `KDTreeSearchContext.distanceSquared`.
  @inline(__always) private func computeDistances(_ e: KDTree.Entry) {
    let qx = SIMD8<Float>(repeating: e.x)
    let qy = SIMD8<Float>(repeating: e.y)
    let qz = SIMD8<Float>(repeating: e.z)
    for i in stride(from: 0, to: Self.padded(count), by: 8) {
      let dx = Self.load(x + i) - qx
      let dy = Self.load(y + i) - qy
      let dz = Self.load(z + i) - qz
      UnsafeMutableRawPointer(distance + i).storeBytes(
        of: dx * dx + dy * dy + dz * dz, as: SIMD8<Float>.self)
    }
  }

  /// Step 2: infinity when there is no last result. Also a bound for a query the tree
  /// answers instead.
  @inline(__always) func bound(_ e: KDTree.Entry) -> Float {
    guard lastCount == k else { return .infinity }
    var largest = KDTreeSearchContext.distanceSquared(lastQuery, e.x, e.y, e.z)
    var secondLargest = -Float.infinity
    var includesQuery = false
    for j in 0..<k {
      let dx = lastX[j] - e.x
      let dy = lastY[j] - e.y
      let dz = lastZ[j] - e.z
      let d = dx * dx + dy * dy + dz * dz
      if d > largest {
        secondLargest = largest
        largest = d
      } else if d > secondLargest {
        secondLargest = d
      }
      includesQuery = includesQuery || lastIndex[j] == e.index
    }
    // With the query among them, its own distance is one of the k + 1.
    return includesQuery ? largest : secondLargest
  }

  /// Step 3: gathers the distances at most `bound`, and their slots; returns how many.
  /// Every distance is written and the count advances by the comparison, so no branch
  /// depends on the data.
  @inline(__always) private func keepWithin(_ bound: Float) -> Int {
    let limit = SIMD8<Float>(repeating: bound)
    var kept = 0
    for i in stride(from: 0, to: Self.padded(count), by: 8) {
      let d = Self.load(distance + i)
      // A true lane is −1; padding's NaN distances are never within.
      let within = unsafeBitCast(d .<= limit, to: SIMD8<Int32>.self)
      for lane in 0..<8 {
        survivor[kept] = d[lane]
        survivorSlot[kept] = Int32(truncatingIfNeeded: i + lane)
        kept &-= Int(within[lane])
      }
    }
    return kept
  }

  /// Step 4 on fewer points: on a surface the squared distances within the bound spread
  /// about evenly, so some `k + 4` of the `within` lie within that share of the bound.
  /// Ranks those; false when fewer than `k` do (or on a tie), and all must be ranked.
  @inline(__always) private func rankNearest(_ within: Int) -> Bool {
    guard lastBound.isFinite, within > k + 8 else { return false }
    let limit = SIMD8<Float>(repeating: lastBound * Float(k + 4) / Float(within))
    var kept = 0
    for i in stride(from: 0, to: Self.padded(within), by: 8) {
      let d = Self.load(survivor + i)
      let near = unsafeBitCast(d .<= limit, to: SIMD8<Int32>.self)
      for lane in 0..<8 {
        nearest[kept] = d[lane]
        nearestSlot[kept] = survivorSlot[i + lane]
        kept &-= Int(near[lane])
      }
    }
    guard kept >= k else { return false }
    for i in kept..<Self.padded(kept) { nearest[i] = .infinity }
    return rank(nearest, nearestSlot, kept)
  }

  /// Step 4 by counting, over `values[0..<count]` (padded with infinity to a multiple of
  /// eight) and their block slots; false when a tie left a rank empty.
  @inline(__always) private func rank(
    _ values: UnsafeMutablePointer<Float>, _ slots: UnsafeMutablePointer<Int32>, _ count: Int
  ) -> Bool {
    let end = Self.padded(count)
    for r in 0..<k { sorted[r] = -1 }
    for i in 0..<count {
      let s = values[i]
      let value = SIMD8<Float>(repeating: s)
      var nearer = SIMD8<Int32>()
      for j in stride(from: 0, to: end, by: 8) {
        // A true lane is −1.
        nearer &+= unsafeBitCast(Self.load(values + j) .< value, to: SIMD8<Int32>.self)
      }
      let slot = min(Int(-nearer.wrappedSum()), k)
      sorted[slot] = s
      sortedSlot[slot] = slots[i]
    }
    for r in 0..<k where sorted[r] < 0 { return false }
    return true
  }

  /// Step 4 by sorted insertion of `(distance, slot)` keys.
  private func insert(_ within: Int) {
    var found = 0
    for i in 0..<within {
      let key = UInt64(survivor[i].bitPattern) << 32 | UInt64(UInt32(bitPattern: survivorSlot[i]))
      if found == k {
        if key > keys[k - 1] { continue }
        found -= 1
      }
      var j = found
      while j > 0 && keys[j - 1] > key {
        keys[j] = keys[j - 1]
        j -= 1
      }
      keys[j] = key
      found += 1
    }
    for j in 0..<k {
      sorted[j] = Float(bitPattern: UInt32(truncatingIfNeeded: keys[j] >> 32))
      sortedSlot[j] = Int32(bitPattern: UInt32(truncatingIfNeeded: keys[j]))
    }
  }

  @inline(__always) private static func load(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
  }

  @inline(__always) private static func padded(_ n: Int) -> Int { (n + 7) & ~7 }
}
