/// An axis-aligned cube of space, in world metres (Double, so that growing the root
/// by doubling never loses a Float point's precision).
public struct LODCube: Equatable, Sendable {
  public var minimum: SIMD3<Double>
  public var sizeMeters: Double

  public init(minimum: SIMD3<Double>, sizeMeters: Double) {
    self.minimum = minimum
    self.sizeMeters = sizeMeters
  }

  public var maximum: SIMD3<Double> { minimum + SIMD3(repeating: sizeMeters) }
  public var center: SIMD3<Double> { minimum + SIMD3(repeating: sizeMeters / 2) }

  /// Whether `p` lies in the cube (minimum side closed, maximum side open).
  func contains(_ p: SIMD3<Double>) -> Bool {
    let hi = maximum
    return p.x >= minimum.x && p.y >= minimum.y && p.z >= minimum.z && p.x < hi.x && p.y < hi.y
      && p.z < hi.z
  }

  /// The octant of the cube that `p` falls in: bit 0 x, bit 1 y, bit 2 z (upper half).
  func octant(of p: SIMD3<Double>) -> Int {
    let c = center
    return (p.x >= c.x ? 1 : 0) | (p.y >= c.y ? 2 : 0) | (p.z >= c.z ? 4 : 0)
  }

  /// The cube of octant `index`.
  func child(_ index: Int) -> LODCube {
    let half = sizeMeters / 2
    let offset = SIMD3<Double>(
      index & 1 == 0 ? 0 : half, index & 2 == 0 ? 0 : half, index & 4 == 0 ? 0 : half)
    return LODCube(minimum: minimum + offset, sizeMeters: half)
  }
}

/// One node of a `PointOctree`: a cube, the points kept at this level (in frame
/// order, with a node-local frame table), and up to eight children.
///
/// The points are a `PointStore` of their own whose `frameIndices` are positions in the
/// whole store's frame list (not recording indices), so the points of the whole
/// store's frames a…b that lie in this node are one contiguous range, found by binary
/// search in that table without touching a point.
public struct LODNode: Sendable {
  public let cube: LODCube
  /// Levels below the root the node was made at (the root is 0; growing the root
  /// makes new roots with negative levels).
  public let level: Int
  /// The node's points, in the order their frames arrived.
  public internal(set) var points = PointStore()
  /// Node numbers of the eight octants' children; -1 where there is none.
  public internal(set) var children = [Int](repeating: -1, count: 8)
  /// Whether points that find their grid cell taken go on to a child (an inner node);
  /// a leaf keeps every point that reaches it until it holds too many.
  public internal(set) var isInner = false
  /// Points the node held when it turned inner (nil for a leaf, and for a root added
  /// above the tree, which was inner from the start).
  public internal(set) var leafPointCount: Int?

  init(cube: LODCube, level: Int) {
    self.cube = cube
    self.level = level
  }

  public var pointCount: Int { points.count }

  /// Bytes a node of a one-frame cloud takes beside its points, at most: the node
  /// itself in the tree's node array; its row in the descent's flat tables (cube, cell
  /// scale, inner flag, eight child numbers, grid number, pending slot); and its six
  /// heap blocks (the store's five arrays and the children), each with a 32-byte header
  /// and up to 16 bytes of allocator rounding, holding a two-entry frame start table,
  /// a one-entry frame table and eight child numbers. A frame more in a node adds 16.
  public static let tableBytes =
    MemoryLayout<LODNode>.stride + MemoryLayout<LODCube>.stride + 8 + 1 + 8 * 4 + 4 + 4
    + 6 * (32 + 16) + 2 * 8 + 8 + 8 * 8

  /// The node's points of the whole store's frames `frames` (positions in its frame
  /// list): one contiguous range of `points`.
  public func pointRange(ofFrames frames: ClosedRange<Int>) -> Range<Int> {
    let table = points.frameIndices
    let low = Self.firstIndex(in: table, notBelow: frames.lowerBound)
    let high = Self.firstIndex(in: table, notBelow: frames.upperBound &+ 1)
    return points.frameRanges[low]..<points.frameRanges[high]
  }

  /// The whole store's frame position of the node's point `index`.
  public func frame(ofPoint index: Int) -> Int {
    let ranges = points.frameRanges
    var low = 0
    var high = points.frameCount - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if ranges[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return points.frameIndices[low]
  }

  /// Points `range` of the node split where its frames start, each piece with its
  /// whole-store frame position (colouring by frame draws a piece in one colour).
  public func framePieces(of range: Range<Int>) -> [(points: Range<Int>, frame: Int)] {
    guard !range.isEmpty else { return [] }
    let starts = points.frameRanges
    var pieces: [(points: Range<Int>, frame: Int)] = []
    // The node-local frame holding the range's first point: the last that starts at or
    // before it (frames with no point here start where the next one does).
    var k = Self.firstIndex(in: starts, notBelow: range.lowerBound + 1) - 1
    var first = range.lowerBound
    while first < range.upperBound && k < points.frameCount {
      let end = min(range.upperBound, starts[k + 1])
      if end > first { pieces.append((first..<end, points.frameIndices[k])) }
      first = max(first, end)
      k += 1
    }
    return pieces
  }

  /// The first position in the sorted `table` whose value is at least `value`.
  static func firstIndex(in table: [Int], notBelow value: Int) -> Int {
    var low = 0
    var high = table.count
    while low < high {
      let middle = (low + high) / 2
      if table[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
