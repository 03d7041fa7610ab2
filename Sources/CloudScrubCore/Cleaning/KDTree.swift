import Foundation

/// A point and its squared distance to a query, as neighbour searches return them.
public struct Neighbour: Equatable, Sendable {
  /// The point's index in the positions the tree was built from.
  public var index: Int
  /// Squared Euclidean distance in metres², computed in `Float` as
  /// `dx * dx + dy * dy + dz * dz` with `dx = point.x − query.x`.
  public var distanceSquared: Float

  public init(index: Int, distanceSquared: Float) {
    self.index = index
    self.distanceSquared = distanceSquared
  }
}

/// A static k-d tree over packed positions, for k-nearest-neighbour and radius queries.
///
/// Design: a balanced tree in implicit form. Every internal node splits its range of
/// points at the median along the axis of its points' widest extent, so a node's range
/// is found by halving and nodes live in heap order (children of `n` at `2n + 1` and
/// `2n + 2`); all leaves sit at the same depth and hold at most `maxLeafSize` points.
/// The points themselves are copied into tree order (16 bytes each: x, y, z and the
/// original index), so a leaf is one contiguous run of memory and queries made in tree
/// order touch nearly the same nodes one after the other.
///
/// Every node keeps the tight bounding box of its points. Scanned surfaces make boxes
/// flat (a floor's leaves have zero height), and a point floating above a floor would
/// otherwise have to open every floor leaf under it: split planes alone bound nothing
/// along an axis that was never split. Queries visit the child whose box is nearer
/// first and skip a box farther than the current k-th distance (or the radius). Box
/// distances are computed in the same `Float` arithmetic as point distances and never
/// exceed them, so the results equal a brute-force scan bit for bit.
///
/// Ordering and ties: results are ordered by `(distanceSquared, index)`, so among
/// points at equal distance the lower index wins; results are deterministic.
///
/// Points with a non-finite coordinate are left out of the tree: they are never
/// returned. Indices are stored as `Int32` (at most 2³¹ − 1 points).
public struct KDTree: Sendable {
  struct Entry {
    var x: Float
    var y: Float
    var z: Float
    var index: Int32

    @inline(__always) func coordinate(_ axis: Int) -> Float {
      axis == 0 ? x : (axis == 1 ? y : z)
    }
  }

  /// An axis-aligned box; `empty` has low > high.
  struct Box {
    var lowX: Float
    var lowY: Float
    var lowZ: Float
    var highX: Float
    var highY: Float
    var highZ: Float

    static let empty = Box(
      lowX: .infinity, lowY: .infinity, lowZ: .infinity, highX: -.infinity,
      highY: -.infinity, highZ: -.infinity)

    @inline(__always) mutating func formUnion(_ other: Box) {
      lowX = min(lowX, other.lowX)
      lowY = min(lowY, other.lowY)
      lowZ = min(lowZ, other.lowZ)
      highX = max(highX, other.highX)
      highY = max(highY, other.highY)
      highZ = max(highZ, other.highZ)
    }

    /// 0, 1 or 2 for the axis along which the box is longest.
    var widestAxis: Int {
      let x = highX - lowX
      let y = highY - lowY
      let z = highZ - lowZ
      if x >= y && x >= z { return 0 }
      return y >= z ? 1 : 2
    }

    mutating func setLow(_ axis: Int, _ value: Float) {
      switch axis {
      case 0: lowX = value
      case 1: lowY = value
      default: lowZ = value
      }
    }

    mutating func setHigh(_ axis: Int, _ value: Float) {
      switch axis {
      case 0: highX = value
      case 1: highY = value
      default: highZ = value
      }
    }

    @inline(__always) mutating func add(_ e: Entry) {
      lowX = min(lowX, e.x)
      lowY = min(lowY, e.y)
      lowZ = min(lowZ, e.z)
      highX = max(highX, e.x)
      highY = max(highY, e.y)
      highZ = max(highZ, e.z)
    }
  }

  /// The most points a leaf holds.
  public static let maxLeafSize = 10

  /// Points with finite coordinates, in tree order.
  let entries: [Entry]
  /// Each node's bounding box, in heap order: internal nodes, then the leaves.
  let boxes: [Box]
  /// Levels of internal nodes; leaves are at this depth.
  let depth: Int
  /// The number of positions the tree was built from, finite or not.
  public let sourceCount: Int

  /// The number of points in the tree (those with finite coordinates).
  public var count: Int { entries.count }

  /// The most points a tree numbers (its entries keep 32-bit indices); callers check
  /// (`CleaningPipeline` throws `CleaningSizeError` past it).
  public static let maximumCount = Int(Int32.max) - 1

  /// Builds the tree over `positions`, using every core for large inputs; at most
  /// `maximumCount` of them.
  ///
  /// `stop` is asked every few thousand points and before each node of that many; once
  /// it says to stop, the build ends early and leaves a tree that finds nothing, which
  /// the caller, asking it again, drops.
  public init(_ positions: [Point3], stop: StopCheck? = nil) {
    precondition(positions.count <= Self.maximumCount, "KDTree holds at most 2^31 - 2 points")
    var entries: [Entry] = []
    entries.reserveCapacity(positions.count)
    for (index, p) in positions.enumerated() where p.x.isFinite && p.y.isFinite && p.z.isFinite {
      if StopChecks.due(stop, at: index) { break }
      entries.append(Entry(x: p.x, y: p.y, z: p.z, index: Int32(index)))
    }
    self.init(entries, sourceCount: positions.count, selecting: true, stop: stop)
  }

  /// Builds the tree over `entries` without moving them: nodes still split their range
  /// at its middle, but no point is selected, so only the boxes are computed.
  ///
  /// Queries rely on the boxes alone, so they stay exact whatever the order; they are
  /// fast when the order keeps near points together, as a grid's cell order does.
  /// `sourceCount` is the number of positions the entries' indices refer to.
  init(keepingOrderOf entries: [Entry], sourceCount: Int, stop: StopCheck? = nil) {
    self.init(entries, sourceCount: sourceCount, selecting: false, stop: stop)
  }

  /// With `selecting`, each node's median along its widest axis is selected first.
  private init(_ entries: [Entry], sourceCount: Int, selecting: Bool, stop: StopCheck?) {
    self.sourceCount = sourceCount
    var depth = 0
    while (entries.count + (1 << depth) - 1) >> depth > Self.maxLeafSize { depth += 1 }
    var boxes = [Box](repeating: Box.empty, count: (2 << depth) - 1)
    var entries = entries
    entries.withUnsafeMutableBufferPointer { entryBuffer in
      boxes.withUnsafeMutableBufferPointer { boxBuffer in
        let builder = KDTreeBuilder(
          entries: entryBuffer.baseAddress, boxes: boxBuffer.baseAddress, depth: depth,
          stop: stop)
        if selecting {
          builder.buildAll(count: entryBuffer.count)
        } else {
          builder.boxAll(count: entryBuffer.count)
        }
      }
    }
    self.entries = entries
    self.boxes = boxes
    self.depth = depth
  }

  // MARK: - Queries

  /// The `k` points nearest to `point`, nearest first (ties: lower index first).
  ///
  /// Returns fewer than `k` when the tree holds fewer points. `excluding` names an index
  /// to skip, typically the query point's own.
  public func nearest(to point: Point3, count k: Int, excluding: Int? = nil) -> [Neighbour] {
    guard k > 0, point.x.isFinite, point.y.isFinite, point.z.isFinite else { return [] }
    var search = NearestSearch(capacity: k)
    defer { search.release() }
    let found = withSearchContext { context in
      search.run(
        context, point.x, point.y, point.z, excluding: excluding.map(Int32.init(clamping:)) ?? -1)
    }
    return (0..<found).map {
      Neighbour(index: Int(search.index($0)), distanceSquared: search.distanceSquared($0))
    }
  }

  /// Every point within `radiusMeters` of `point` (inclusive), nearest first (ties:
  /// lower index first); `excluding` names an index to skip.
  public func within(radiusMeters: Float, of point: Point3, excluding: Int? = nil)
    -> [Neighbour]
  {
    guard radiusMeters >= 0, point.x.isFinite, point.y.isFinite, point.z.isFinite else {
      return []
    }
    var found: [Neighbour] = []
    let skip = excluding.map(Int32.init(clamping:)) ?? -1
    withSearchContext { context in
      context.visit(
        withinSquared: radiusMeters * radiusMeters, point.x, point.y, point.z
      ) { entry, distanceSquared in
        if entry.index != skip {
          found.append(Neighbour(index: Int(entry.index), distanceSquared: distanceSquared))
        }
      }
    }
    found.sort {
      ($0.distanceSquared, $0.index) < ($1.distanceSquared, $1.index)
    }
    return found
  }

  /// Runs `body` with raw access to the tree, for bulk queries.
  func withSearchContext<R>(_ body: (KDTreeSearchContext) -> R) -> R {
    entries.withUnsafeBufferPointer { entryBuffer in
      boxes.withUnsafeBufferPointer { boxBuffer in
        body(KDTreeSearchContext(entries: entryBuffer, boxes: boxBuffer, depth: depth))
      }
    }
  }
}
