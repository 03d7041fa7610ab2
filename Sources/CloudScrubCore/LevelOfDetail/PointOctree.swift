import Foundation

/// A spatial level of detail that grows while points arrive, frame by frame, with no
/// conversion step (SimLOD-style incremental building).
///
/// Every point lives in exactly one node. A leaf keeps every point that reaches it
/// until it holds more than `Options.leafCapacity`; then it turns inner: the cells of
/// a grid over its cube (`Options.gridResolution` a side) that its points occupy are
/// marked, and from then on a point reaching it stays only if its cell is still free
/// (the first point of each cell), else it goes on to the child of its octant. So the
/// nodes near the root hold a coarse, evenly spread subsample, their children the
/// rest, and no node ever gives up a point: node stores only grow, and a point once
/// uploaded to a GPU never has to move.
///
/// Within each node the points keep their frames' order, with a node-local frame
/// table (`LODNode.points.frameRanges`, `frameIndices` = positions in the whole
/// store's frame list), so "up to the playhead", "this frame only" and "the last N
/// frames" are one contiguous range of each node (`LODNode.pointRange(ofFrames:)`).
///
/// The root is fitted to the first frame; a point outside it grows the tree upward
/// (the root becomes an octant of a cube twice its size) until it fits. Points with a
/// non-finite coordinate stay in the root of their time (drawing clips them anyway).
public struct PointOctree: Sendable {
  /// How nodes are shaped.
  public struct Options: Equatable, Sendable {
    /// Cells a side of an inner node's grid.
    public var gridResolution: Int
    /// Points a leaf holds before it turns inner.
    public var leafCapacity: Int
    /// Grid cells are never smaller than this: a node that small stays a leaf, so
    /// repeated points cannot split it forever.
    public var minimumCellMeters: Double

    public init(
      gridResolution: Int = 64, leafCapacity: Int = 32_768, minimumCellMeters: Double = 1e-4
    ) {
      self.gridResolution = max(1, min(gridResolution, 1024))
      self.leafCapacity = max(1, leafCapacity)
      self.minimumCellMeters = minimumCellMeters
    }
  }

  public let options: Options
  public private(set) var nodes: [LODNode] = []
  /// The root's node number (it changes when the tree grows upward); -1 while empty.
  public private(set) var root = -1
  /// Points inserted.
  public private(set) var count = 0
  /// Frames inserted (some may have no points): the next frame's position.
  public private(set) var frameCount = 0
  // The descent reads these flat copies of the nodes' shape, not `nodes`, so that the
  // loop over points touches no array inside a node.
  private var cubes: [LODCube] = []
  /// Per node, `gridResolution / sizeMeters`: metres to cells.
  private var cellScales: [Double] = []
  private var innerFlags: [Bool] = []
  /// Eight child numbers a node (−1: none).
  private var childTable: [Int32] = []
  /// Per node, its grid in `grids` (−1 for a leaf).
  private var gridOfNode: [Int32] = []
  /// The occupied grid cells of every inner node.
  private var grids: LODCellGrids
  /// Per node, its slot in a frame's grouping while the frame is inserted; -1 otherwise.
  private var pendingSlot: [Int32] = []
  /// The node each point of the piece being inserted goes to.
  private var targets: [Int32] = []
  /// A large frame going in share by share: every `stride`-th point from `next` on.
  struct Share: Sendable {
    var frame: Int
    var stride: Int
    var next: Int
  }
  var sharing: Share?

  /// Pieces of at least this many points descend the root's subtrees on several
  /// threads (`LODParallelDescent`: the same tree); 1 makes every piece do so, even on
  /// one core (for tests).
  public var parallelDescentMinimumPoints = 1 << 15

  public init(options: Options = Options()) {
    self.options = options
    grids = LODCellGrids(resolution: options.gridResolution)
  }

  /// Bytes the tree holds: its points (16 a point) and its tables.
  public var byteCount: Int {
    nodes.reduce(0) { $0 + $1.points.storageByteCount + $1.points.frameCount * 16 + 128 }
      + grids.byteCount + childTable.count * 4 + cubes.count * 45
  }

  /// Bytes the inner nodes' bit grids hold.
  var gridByteCount: Int { grids.byteCount }

  // MARK: - Inserting

  /// Inserts points as the next frame, or as more of the last frame.
  mutating func insert(_ points: PointColumns, continuingFrame: Bool) {
    let positions = points.positions
    if !continuingFrame { frameCount += 1 }
    let frame = frameCount - 1
    guard !positions.isEmpty else { return }
    if root < 0 { makeRoot(fitting: positions) }
    targets.removeAll(keepingCapacity: true)
    targets.append(contentsOf: repeatElement(-1, count: positions.count))
    var first = 0
    let cores = Parallel.cores
    let forced = parallelDescentMinimumPoints == 1
    if positions.count >= parallelDescentMinimumPoints, cores > 1 || forced,
      positions.count < LODParallelDescent.largestPiece, innerFlags[root]
    {
      first = descendInParallel(positions, cores: max(2, cores))
    }
    while first < positions.count {
      let stop = descend(positions, from: first)
      first = stop.index
      guard first < positions.count else { break }
      let p = positions[first]
      if let parent = stop.parent {
        // The point's cell is taken all the way down to a node without that child: the
        // new child is a leaf, and the point its first.
        targets[first] = Int32(addChild(of: parent, octant: stop.octant))
        first += 1
      } else {
        growRoot(toContain: SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z)))
      }
    }
    count += positions.count
    distribute(points, frame: frame)
  }

  /// Makes the leaf child `octant` of `parent`; returns its number.
  private mutating func addChild(of parent: Int, octant: Int) -> Int {
    let child = addNode(LODNode(cube: cubes[parent].child(octant), level: nodes[parent].level + 1))
    childTable[parent * 8 + octant] = Int32(child)
    nodes[parent].children[octant] = child
    return child
  }

  /// The descent of the piece's leading points that lie in the root, on several threads
  /// (`LODParallelDescent`); then the children it found missing are made in the order
  /// the one-thread descent makes them. Returns the points done.
  private mutating func descendInParallel(_ positions: UnsafeBufferPointer<Point3>, cores: Int)
    -> Int
  {
    let root = self.root
    let rootCube = cubes[root]
    let (end, newChildren) = withDescent { descent, targets in
      LODParallelDescent.run(
        positions, root: root, rootCube: rootCube, descent: descent, targets: targets,
        cores: cores)
    }
    guard !newChildren.isEmpty else { return end }
    var nodeOfCode: [Int32: Int32] = [:]
    for child in newChildren.sorted(by: { $0.point < $1.point }) {
      nodeOfCode[child.code] = Int32(addChild(of: child.parent, octant: child.octant))
    }
    targets.withUnsafeMutableBufferPointer { targets in
      for i in 0..<end where targets[i] < 0 {
        targets[i] = nodeOfCode[targets[i]] ?? Int32(root)
      }
    }
    return end
  }

  /// Where a run of the descent stopped: at `index` (the count when every point found
  /// its node), for a missing child (`parent`, `octant`) or, with no parent, for a
  /// point outside the root. The stopped point's cells were all taken, so descending
  /// it again after the change marks nothing twice.
  private struct DescentStop {
    var index: Int
    var parent: Int?
    var octant = 0
  }

  /// Finds the node of each point from `start` on, writing `targets`, until a point
  /// needs the tree to change shape.
  private mutating func descend(_ positions: UnsafeBufferPointer<Point3>, from start: Int)
    -> DescentStop
  {
    let root = self.root
    let rootCube = cubes[root]
    return withDescent { descent, targets in
      for i in start..<positions.count {
        let p = positions[i]
        var node = root
        if p.x.isFinite && p.y.isFinite && p.z.isFinite {
          let point = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
          guard rootCube.contains(point) else { return DescentStop(index: i) }
          switch descent.descend(point, from: root) {
          case .kept(let kept): node = kept
          case .missingChild(let parent, let octant):
            return DescentStop(index: i, parent: parent, octant: octant)
          }
        }
        targets.base[i] = Int32(node)
      }
      return DescentStop(index: positions.count)
    }
  }

  /// Runs `body` with the shape tables as pointers and the targets to write.
  private mutating func withDescent<R>(_ body: (LODDescent, LODSharedTargets) -> R) -> R {
    let resolution = options.gridResolution
    let wordsPerGrid = grids.wordsPerGrid
    return cubes.withUnsafeBufferPointer { cubes in
      cellScales.withUnsafeBufferPointer { scales in
        innerFlags.withUnsafeBufferPointer { inner in
          childTable.withUnsafeBufferPointer { children in
            gridOfNode.withUnsafeBufferPointer { gridOf in
              targets.withUnsafeMutableBufferPointer { targets in
                grids.withWords { words in
                  body(
                    LODDescent(
                      cubes: cubes, scales: scales, inner: inner, children: children,
                      gridOf: gridOf, words: words, wordsPerGrid: wordsPerGrid,
                      resolution: resolution),
                    LODSharedTargets(base: targets))
                }
              }
            }
          }
        }
      }
    }
  }

  /// Appends the points of a piece to the nodes `targets` names, in their order (each
  /// node's share sorted out once, `LODPieceSort`, on several threads for a large
  /// piece), then turns leaves that grew too large inner.
  private mutating func distribute(_ points: PointColumns, frame: Int) {
    var touched: [Int] = []
    var counts: [Int] = []
    for target in targets {
      let node = Int(target)
      if pendingSlot[node] < 0 {
        pendingSlot[node] = Int32(touched.count)
        touched.append(node)
        counts.append(0)
      }
      counts[Int(pendingSlot[node])] += 1
    }
    let cores = Parallel.cores
    let forced = parallelDescentMinimumPoints == 1
    let threads =
      points.count >= parallelDescentMinimumPoints && (cores > 1 || forced)
      ? min(4, max(2, cores)) : 1
    let sorted = targets.withUnsafeBufferPointer { targets in
      pendingSlot.withUnsafeBufferPointer { slotOf in
        LODPieceSort(points, targets: targets, slotOf: slotOf, counts: counts, threads: threads)
      }
    }
    let frozenTouched = touched
    nodes.withUnsafeMutableBufferPointer { nodes in
      let shared = LODSharedNodes(base: nodes)
      sorted.forEachShare { slot, share in
        shared.base[frozenTouched[slot]].points.append(share, toFrame: frame)
      }
    }
    for node in touched {
      pendingSlot[node] = -1
      if !innerFlags[node] && nodes[node].pointCount > options.leafCapacity {
        split(node)
      }
    }
  }

  /// Turns a full leaf inner: the cells its points occupy are taken.
  private mutating func split(_ node: Int) {
    let cube = nodes[node].cube
    guard cube.sizeMeters / Double(options.gridResolution) >= options.minimumCellMeters else {
      return
    }
    nodes[node].isInner = true
    innerFlags[node] = true
    nodes[node].leafPointCount = nodes[node].pointCount
    let grid = grids.addGrid()
    gridOfNode[node] = grid
    let resolution = options.gridResolution
    for p in nodes[node].points.positions where p.x.isFinite && p.y.isFinite && p.z.isFinite {
      let point = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
      _ = grids.insert(Self.cell(of: point, in: cube, resolution: resolution), grid: grid)
    }
  }

  private mutating func addNode(_ node: LODNode) -> Int {
    nodes.append(node)
    cubes.append(node.cube)
    cellScales.append(Double(options.gridResolution) / node.cube.sizeMeters)
    innerFlags.append(node.isInner)
    childTable.append(contentsOf: node.children.map { Int32($0) })
    gridOfNode.append(node.isInner ? grids.addGrid() : -1)
    pendingSlot.append(-1)
    return nodes.count - 1
  }

  /// A root cube around the first frame's finite points, a little larger so that
  /// its maximum side (open) holds the largest point.
  private mutating func makeRoot(fitting positions: UnsafeBufferPointer<Point3>) {
    var low = SIMD3<Double>(repeating: .infinity)
    var high = SIMD3<Double>(repeating: -.infinity)
    for p in positions where p.x.isFinite && p.y.isFinite && p.z.isFinite {
      let point = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
      low = pointwiseMin(low, point)
      high = pointwiseMax(high, point)
    }
    if low.x > high.x {
      low = .zero
      high = .zero
    }
    let extent = max(high.x - low.x, high.y - low.y, high.z - low.z)
    let size = max(extent * 1.01, 0.01)
    let margin = (size - extent) / 2
    root = addNode(LODNode(cube: LODCube(minimum: low - margin, sizeMeters: size), level: 0))
  }

  /// Adds roots above the current one, each twice the size, until `point` is inside.
  private mutating func growRoot(toContain point: SIMD3<Double>) {
    while !cubes[root].contains(point) {
      let old = cubes[root]
      let size = old.sizeMeters
      var minimum = old.minimum
      var octant = 0
      if point.x < old.minimum.x {
        minimum.x -= size
        octant |= 1
      }
      if point.y < old.minimum.y {
        minimum.y -= size
        octant |= 2
      }
      if point.z < old.minimum.z {
        minimum.z -= size
        octant |= 4
      }
      var grown = LODNode(
        cube: LODCube(minimum: minimum, sizeMeters: size * 2), level: nodes[root].level - 1)
      grown.isInner = true
      grown.children[octant] = root
      root = addNode(grown)
    }
  }

  /// The grid cell of `point` in `cube`: x + resolution × (y + resolution × z).
  static func cell(of point: SIMD3<Double>, in cube: LODCube, resolution: Int) -> UInt32 {
    let scaled = (point - cube.minimum) * (Double(resolution) / cube.sizeMeters)
    let top = Double(resolution - 1)
    let x = Int(min(max(scaled.x, 0), top))
    let y = Int(min(max(scaled.y, 0), top))
    let z = Int(min(max(scaled.z, 0), top))
    return UInt32(x + resolution * (y + resolution * z))
  }
}
