/// Raw, read-only access to a `KDTree`'s arrays for the duration of a query batch.
struct KDTreeSearchContext {
  let entries: UnsafeBufferPointer<KDTree.Entry>
  let boxes: UnsafeBufferPointer<KDTree.Box>
  let depth: Int
  /// Squared distance in the one arithmetic every search and reference uses.
  @inline(__always) static func distanceSquared(
    _ e: KDTree.Entry, _ x: Float, _ y: Float, _ z: Float
  ) -> Float {
    let dx = e.x - x
    let dy = e.y - y
    let dz = e.z - z
    return dx * dx + dy * dy + dz * dz
  }

  /// A lower bound on the squared distance from (x, y, z) to any point in `box`.
  ///
  /// Each axis offset is at most the matching coordinate difference of any point in the
  /// box (rounding is monotonic), and the squares are summed in the same order as
  /// `distanceSquared`, so the bound never exceeds a point's computed distance.
  @inline(__always) func nearSquared(_ node: Int, _ x: Float, _ y: Float, _ z: Float) -> Float {
    let b = boxes[node]
    let ox = max(max(b.lowX - x, 0), x - b.highX)
    let oy = max(max(b.lowY - y, 0), y - b.highY)
    let oz = max(max(b.lowZ - z, 0), z - b.highZ)
    return ox * ox + oy * oy + oz * oz
  }

  /// An upper bound on the squared distance from (x, y, z) to any point in `box`.
  @inline(__always) func farSquared(_ node: Int, _ x: Float, _ y: Float, _ z: Float) -> Float {
    let b = boxes[node]
    let ox = max(abs(b.lowX - x), abs(b.highX - x))
    let oy = max(abs(b.lowY - y), abs(b.highY - y))
    let oz = max(abs(b.lowZ - z), abs(b.highZ - z))
    return ox * ox + oy * oy + oz * oz
  }

  // MARK: - Radius

  /// How many points other than the one at tree position `excludingPosition` (−1 for
  /// none) lie within `radiusSquared` (inclusive) of (x, y, z), counting no further than
  /// `limit`.
  func count(
    withinSquared radiusSquared: Float, _ x: Float, _ y: Float, _ z: Float,
    excludingPosition: Int, limit: Int
  ) -> Int {
    guard !entries.isEmpty, limit > 0 else { return 0 }
    var found = 0
    countNode(0, 0, entries.count, 0, radiusSquared, x, y, z, excludingPosition, limit, &found)
    return found
  }

  private func countNode(
    _ node: Int, _ lo: Int, _ hi: Int, _ level: Int, _ r2: Float, _ x: Float, _ y: Float,
    _ z: Float, _ excluding: Int, _ limit: Int, _ found: inout Int
  ) {
    guard nearSquared(node, x, y, z) <= r2 else { return }
    if farSquared(node, x, y, z) <= r2 {
      // The whole box lies inside the ball.
      found += hi - lo - (lo <= excluding && excluding < hi ? 1 : 0)
      return
    }
    if level == depth {
      for i in lo..<hi where i != excluding {
        if Self.distanceSquared(entries[i], x, y, z) <= r2 { found += 1 }
      }
      return
    }
    let mid = lo + (hi - lo) / 2
    countNode(2 * node + 1, lo, mid, level + 1, r2, x, y, z, excluding, limit, &found)
    if found < limit {
      countNode(2 * node + 2, mid, hi, level + 1, r2, x, y, z, excluding, limit, &found)
    }
  }

  /// Calls `body` with every point within `radiusSquared` (inclusive) of (x, y, z), in
  /// no particular order.
  func visit(
    withinSquared radiusSquared: Float, _ x: Float, _ y: Float, _ z: Float,
    _ body: (KDTree.Entry, Float) -> Void
  ) {
    guard !entries.isEmpty else { return }
    visitNode(0, 0, entries.count, 0, radiusSquared, x, y, z, body)
  }

  private func visitNode(
    _ node: Int, _ lo: Int, _ hi: Int, _ level: Int, _ r2: Float, _ x: Float, _ y: Float,
    _ z: Float, _ body: (KDTree.Entry, Float) -> Void
  ) {
    guard nearSquared(node, x, y, z) <= r2 else { return }
    if level == depth {
      for i in lo..<hi {
        let d = Self.distanceSquared(entries[i], x, y, z)
        if d <= r2 { body(entries[i], d) }
      }
      return
    }
    let mid = lo + (hi - lo) / 2
    visitNode(2 * node + 1, lo, mid, level + 1, r2, x, y, z, body)
    visitNode(2 * node + 2, mid, hi, level + 1, r2, x, y, z, body)
  }
}

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
  }

  func release() {
    keys.deallocate()
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
    self.x = x
    self.y = y
    self.z = z
    self.excluding = excluding
    count = 0
    worst = upperBound.isNaN ? .infinity : upperBound
    descend(context, 0, 0, context.entries.count, 0)
    if count < capacity && worst < .infinity {
      count = 0
      worst = .infinity
      descend(context, 0, 0, context.entries.count, 0)
    }
    return count
  }

  /// After a search from (x, y, z), a squared distance within which `capacity` points
  /// other than `excluding` surely lie as seen from (x2, y2, z2): the k-th distance
  /// plus the step between the two (triangle inequality; the point searched from stands
  /// in for the one the next query skips), with a margin for rounding.
  func boundForNext(_ x2: Float, _ y2: Float, _ z2: Float) -> Float {
    guard count == capacity else { return .infinity }
    let dx = x2 - x
    let dy = y2 - y
    let dz = z2 - z
    let reach = distanceSquared(count - 1).squareRoot() + (dx * dx + dy * dy + dz * dz).squareRoot()
    return reach * reach * 1.0001 + Float.leastNormalMagnitude
  }

  private mutating func descend(
    _ c: KDTreeSearchContext, _ node: Int, _ lo: Int, _ hi: Int, _ level: Int
  ) {
    if level == c.depth {
      for i in lo..<hi {
        let e = c.entries[i]
        let d = KDTreeSearchContext.distanceSquared(e, x, y, z)
        if d <= worst && e.index != excluding { consider(d, e.index) }
      }
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
  @inline(__always) private mutating func consider(_ d: Float, _ index: Int32) {
    let key = UInt64(d.bitPattern) << 32 | UInt64(UInt32(bitPattern: index))
    if count == capacity {
      if key > keys[count - 1] { return }
      count -= 1
    }
    var j = count
    while j > 0 && keys[j - 1] > key {
      keys[j] = keys[j - 1]
      j -= 1
    }
    keys[j] = key
    count += 1
    if count == capacity { worst = distanceSquared(count - 1) }
  }
}

extension KDTree {
  /// Finds the `k` nearest other points of every point in the tree, on every core, and
  /// hands each result to `body` with the point's entry and how many were found.
  ///
  /// Queries run in tree order, so consecutive points are close and each result bounds
  /// the next search; `body` is called from several threads at once.
  func forEachNearest(
    count k: Int, _ body: @Sendable (_ entry: Entry, _ search: NearestSearch, _ found: Int) -> Void
  ) {
    Parallel.forEachRange(count, minimumPerTask: 1 << 12) { range in
      var search = NearestSearch(capacity: k)
      defer { search.release() }
      withSearchContext { context in
        var bound = Float.infinity
        for position in range {
          let e = context.entries[position]
          let found = search.run(context, e.x, e.y, e.z, excluding: e.index, upperBound: bound)
          if position + 1 < range.upperBound {
            let next = context.entries[position + 1]
            bound = search.boundForNext(next.x, next.y, next.z)
          }
          body(e, search, found)
        }
      }
    }
  }
}
