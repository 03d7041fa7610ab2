import Foundation

/// A reusable k-nearest-neighbour query: its result buffers are allocated once and kept
/// sorted by `(distanceSquared, index)` while the tree is searched.
///
/// Not copyable in spirit: call `release()` once when done.
struct NearestSearch {
  let capacity: Int
  /// Found neighbours, nearest first: a squared distance's bits above its index.
  /// Distances are never negative, so their bit patterns order like the values and one
  /// integer comparison orders by `(distanceSquared, index)`.
  let keys: UnsafeMutablePointer<UInt64>
  /// The tree position of each found neighbour, in the order of `keys`; it lets the next
  /// query recompute these neighbours' distances without a lookup by index.
  let treePositions: UnsafeMutablePointer<Int32>
  /// Sibling subtrees on the way down to a query's own leaf: node, first, end.
  private let path: UnsafeMutablePointer<SIMD4<Int32>>
  private(set) var count = 0
  /// The k-th distance found so far, or the bound the search started with.
  private var worst = Float.infinity
  private var x: Float = 0
  private var y: Float = 0
  private var z: Float = 0
  private var excluding: Int32 = -1

  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    keys = .allocate(capacity: self.capacity)
    treePositions = .allocate(capacity: self.capacity)
    path = .allocate(capacity: 64)
  }

  func release() {
    keys.deallocate()
    treePositions.deallocate()
    path.deallocate()
  }

  @inline(__always) func distanceSquared(_ j: Int) -> Float {
    Float(bitPattern: UInt32(truncatingIfNeeded: keys[j] >> 32))
  }

  @inline(__always) func index(_ j: Int) -> Int32 {
    Int32(bitPattern: UInt32(truncatingIfNeeded: keys[j]))
  }

  /// Finds the `capacity` points nearest to (x, y, z), skipping the entry whose index is
  /// `excluding` (−1 skips none); returns how many were found.
  ///
  /// `upperBound`, when given, is a squared distance within which at least `capacity`
  /// points are known to lie: the search then prunes from the start. Should the bound
  /// prove wrong (fewer found), the search runs again without it.
  mutating func run(
    _ context: KDTreeSearchContext, _ x: Float, _ y: Float, _ z: Float, excluding: Int32,
    upperBound: Float = .infinity
  ) -> Int {
    guard !context.entries.isEmpty else {
      count = 0
      return 0
    }
    start(x, y, z, excluding: excluding, bound: upperBound.isNaN ? .infinity : upperBound)
    descend(context, 0, 0, context.entries.count, 0)
    if count < capacity && worst < .infinity {
      start(x, y, z, excluding: excluding, bound: .infinity)
      descend(context, 0, 0, context.entries.count, 0)
    }
    return count
  }

  /// Finds the `capacity` points nearest to the tree's point at `position`, other than
  /// itself; returns how many were found.
  ///
  /// The search starts in the point's own leaf and climbs, opening each sibling subtree
  /// that could hold a nearer point, so it skips the box tests on the way down that a
  /// search from the root makes. `upperBound` is a squared distance within which at
  /// least `capacity` other points are known to lie (see `boundForNext`): everything
  /// farther is pruned from the start. Should it prove wrong, the search runs again
  /// without it.
  mutating func run(
    _ c: KDTreeSearchContext, treePosition position: Int, upperBound: Float
  ) -> Int {
    let e = c.entries[position]
    start(e.x, e.y, e.z, excluding: e.index, bound: upperBound.isNaN ? .infinity : upperBound)
    climb(c, position)
    if count < capacity && worst < .infinity {
      start(e.x, e.y, e.z, excluding: e.index, bound: .infinity)
      climb(c, position)
    }
    return count
  }

  /// Empties the result for a query at (x, y, z) that skips index `excluding` and
  /// keeps nothing farther than `bound`.
  mutating func start(_ x: Float, _ y: Float, _ z: Float, excluding: Int32, bound: Float) {
    self.x = x
    self.y = y
    self.z = z
    self.excluding = excluding
    count = 0
    worst = bound
  }

  /// Scans the leaf holding `position`, then the siblings of its ancestors, deepest first.
  private mutating func climb(_ c: KDTreeSearchContext, _ position: Int) {
    var node = 0
    var lo = 0
    var hi = c.entries.count
    for level in 0..<c.depth {
      let mid = lo + (hi - lo) / 2
      if position < mid {
        path[level] = SIMD4(Int32(truncatingIfNeeded: 2 * node + 2), Int32(mid), Int32(hi), 0)
        node = 2 * node + 1
        hi = mid
      } else {
        path[level] = SIMD4(Int32(truncatingIfNeeded: 2 * node + 1), Int32(lo), Int32(mid), 0)
        node = 2 * node + 2
        lo = mid
      }
    }
    scan(c.entries, lo, hi)
    for level in stride(from: c.depth - 1, through: 0, by: -1) {
      let sibling = path[level]
      let node = Int(sibling[0])
      if c.nearSquared(node, x, y, z) <= worst {
        descend(c, node, Int(sibling[1]), Int(sibling[2]), level + 1)
      }
    }
  }

  /// After a search for the point at tree position `current`, a squared distance within
  /// which `capacity` points other than the one at `next` surely lie as seen from it:
  /// the `capacity`-th smallest of the distances from `next` to the neighbours just
  /// found and to `current` itself. These are computed exactly as the search computes
  /// them, so the bound is exact and usually much tighter than a triangle inequality.
  func boundForNext(
    _ entries: UnsafeBufferPointer<KDTree.Entry>, current: Int, next: Int
  ) -> Float {
    guard count == capacity else { return .infinity }
    let t = entries[next]
    var largest = -Float.infinity
    var secondLargest = -Float.infinity
    @inline(__always) func add(_ d: Float) {
      if d > largest {
        secondLargest = largest
        largest = d
      } else if d > secondLargest {
        secondLargest = d
      }
    }
    var sawNext = false
    for j in 0..<count {
      let position = Int(treePositions[j])
      if position == next {
        sawNext = true
        continue
      }
      add(KDTreeSearchContext.distanceSquared(entries[position], t.x, t.y, t.z))
    }
    add(KDTreeSearchContext.distanceSquared(entries[current], t.x, t.y, t.z))
    // Without `next` among them there are capacity + 1 candidates: drop the farthest.
    return sawNext ? largest : secondLargest
  }

  /// Considers the points at positions `lo..<hi` of `entries`.
  ///
  /// (A four-wide vector version of this loop measured no faster: most of the time goes
  /// to the insertions, not the distances.)
  @inline(__always) mutating func scan(
    _ entries: UnsafeBufferPointer<KDTree.Entry>, _ lo: Int, _ hi: Int
  ) {
    for i in lo..<hi {
      let e = entries[i]
      let d = KDTreeSearchContext.distanceSquared(e, x, y, z)
      if d <= worst && e.index != excluding { consider(d, e.index, Int32(truncatingIfNeeded: i)) }
    }
  }

  private mutating func descend(
    _ c: KDTreeSearchContext, _ node: Int, _ lo: Int, _ hi: Int, _ level: Int
  ) {
    if level == c.depth {
      scan(c.entries, lo, hi)
      return
    }
    let mid = lo + (hi - lo) / 2
    let left = 2 * node + 1
    let right = left + 1
    let toLeft = c.nearSquared(left, x, y, z)
    let toRight = c.nearSquared(right, x, y, z)
    // Nearer box first; `worst` shrinks while it is searched.
    if toLeft <= toRight {
      if toLeft <= worst { descend(c, left, lo, mid, level + 1) }
      if toRight <= worst { descend(c, right, mid, hi, level + 1) }
    } else {
      if toRight <= worst { descend(c, right, mid, hi, level + 1) }
      if toLeft <= worst { descend(c, left, lo, mid, level + 1) }
    }
  }

  /// Inserts a candidate in `(distance, index)` order, dropping the last when full.
  @inline(__always) private mutating func consider(_ d: Float, _ index: Int32, _ position: Int32) {
    let key = UInt64(d.bitPattern) << 32 | UInt64(UInt32(bitPattern: index))
    if count == capacity {
      if key > keys[count - 1] { return }
      count -= 1
    }
    var j = count
    while j > 0 && keys[j - 1] > key {
      keys[j] = keys[j - 1]
      treePositions[j] = treePositions[j - 1]
      j -= 1
    }
    keys[j] = key
    treePositions[j] = position
    count += 1
    if count == capacity { worst = distanceSquared(count - 1) }
  }
}

extension KDTree {
  /// Finds the `k` nearest other points of every point in the tree, on every core, and
  /// hands each result to `body` with the point's entry and how many were found.
  ///
  /// Queries run in tree order, so consecutive points are close and each result bounds
  /// the next search. The points are cut into a few chunks a core, handed out as threads
  /// come free, so that a core busy with another process does not hold the others up;
  /// `body` is called from several threads at once.
  ///
  /// `stop`, asked every 1,024 points on each core, ends the search early.
  func forEachNearest(
    count k: Int, stop: StopCheck? = nil,
    _ body: @Sendable (_ entry: Entry, _ search: NearestSearch, _ found: Int) -> Void
  ) {
    let cores = Parallel.cores
    let chunks = max(1, min(count >> 12, 8 * cores))
    VoxelBuckets.forEachChunk(count, chunks) { _, range in
      var search = NearestSearch(capacity: k)
      defer { search.release() }
      withSearchContext { context in
        var bound = Float.infinity
        for position in range {
          // At each chunk's start too, so a chunk begun after a stop does nothing.
          if position == range.lowerBound || position & 1023 == 0, let stop, stop() { break }
          let found = search.run(context, treePosition: position, upperBound: bound)
          if position + 1 < range.upperBound {
            bound = search.boundForNext(context.entries, current: position, next: position + 1)
          }
          body(context.entries[position], search, found)
        }
      }
    }
  }
}
