import Testing

@testable import CloudScrubCore

/// The fast build (flat bit grids, pointer descent, the parallel descent of the root's
/// subtrees) makes the same tree as the rule written out plainly: node for node, the
/// same cubes, children, points in the same order and the same frame tables.
@Suite struct PointOctreeEquivalenceTests {
  /// The level-of-detail rule, one point at a time, with a `Set` of cells a node and
  /// no shortcut: the specification the fast build must match.
  struct ReferenceTree {
    struct Node {
      var cube: LODCube
      var level: Int
      var positions: [Point3] = []
      var colors: [RGB8] = []
      var confidence: [UInt8] = []
      var frameIndices: [Int] = []
      var frameRanges = [0]
      var children = [Int](repeating: -1, count: 8)
      var isInner = false
      var leafPointCount: Int?
      var cells = Set<UInt32>()
    }

    let resolution: Int
    let leafCapacity: Int
    var nodes: [Node] = []
    var root = -1
    var frames = 0

    func cell(of p: SIMD3<Double>, in cube: LODCube) -> UInt32 {
      let scaled = (p - cube.minimum) * (Double(resolution) / cube.sizeMeters)
      let top = Double(resolution - 1)
      let x = Int(min(max(scaled.x, 0), top))
      let y = Int(min(max(scaled.y, 0), top))
      let z = Int(min(max(scaled.z, 0), top))
      return UInt32(x + resolution * (y + resolution * z))
    }

    mutating func append(_ frame: FramePoints) {
      let index = frames
      frames += 1
      guard !frame.positions.isEmpty else { return }
      if root < 0 {
        let finite = frame.positions.filter { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
        var low = SIMD3<Double>(repeating: 0)
        var high = SIMD3<Double>(repeating: 0)
        if let first = finite.first {
          low = SIMD3(Double(first.x), Double(first.y), Double(first.z))
          high = low
        }
        for p in finite {
          let d = SIMD3(Double(p.x), Double(p.y), Double(p.z))
          low = pointwiseMin(low, d)
          high = pointwiseMax(high, d)
        }
        let extent = max(high.x - low.x, high.y - low.y, high.z - low.z)
        let size = max(extent * 1.01, 0.01)
        nodes.append(
          Node(cube: LODCube(minimum: low - (size - extent) / 2, sizeMeters: size), level: 0))
        root = 0
      }
      var chosen: [Int] = []
      for p in frame.positions {
        var node = root
        if p.x.isFinite && p.y.isFinite && p.z.isFinite {
          let point = SIMD3(Double(p.x), Double(p.y), Double(p.z))
          while !nodes[root].cube.contains(point) { growRoot(toward: point) }
          node = root
          while nodes[node].isInner {
            let cube = nodes[node].cube
            if nodes[node].cells.insert(cell(of: point, in: cube)).inserted { break }
            let octant = cube.octant(of: point)
            if nodes[node].children[octant] < 0 {
              nodes.append(Node(cube: cube.child(octant), level: nodes[node].level + 1))
              nodes[node].children[octant] = nodes.count - 1
            }
            node = nodes[node].children[octant]
          }
        }
        chosen.append(node)
      }
      // Points join their nodes in order; nodes split once the frame is in.
      var order: [Int] = []
      for (i, node) in chosen.enumerated() {
        if nodes[node].frameIndices.last != index {
          nodes[node].frameIndices.append(index)
          nodes[node].frameRanges.append(nodes[node].positions.count)
          order.append(node)
        }
        nodes[node].positions.append(frame.positions[i])
        nodes[node].colors.append(frame.colors[i])
        nodes[node].confidence.append(frame.confidence[i])
        nodes[node].frameRanges[nodes[node].frameRanges.count - 1] = nodes[node].positions.count
      }
      for node in order where !nodes[node].isInner && nodes[node].positions.count > leafCapacity {
        nodes[node].isInner = true
        nodes[node].leafPointCount = nodes[node].positions.count
        let cube = nodes[node].cube
        for p in nodes[node].positions where p.x.isFinite && p.y.isFinite && p.z.isFinite {
          nodes[node].cells.insert(cell(of: SIMD3(Double(p.x), Double(p.y), Double(p.z)), in: cube))
        }
      }
    }

    mutating func growRoot(toward point: SIMD3<Double>) {
      let old = nodes[root].cube
      var minimum = old.minimum
      var octant = 0
      for axis in 0..<3 where point[axis] < old.minimum[axis] {
        minimum[axis] -= old.sizeMeters
        octant |= 1 << axis
      }
      var grown = Node(
        cube: LODCube(minimum: minimum, sizeMeters: old.sizeMeters * 2),
        level: nodes[root].level - 1)
      grown.isInner = true
      grown.children[octant] = root
      nodes.append(grown)
      root = nodes.count - 1
    }
  }

  static func frames(_ store: PointStore) -> [FramePoints] {
    (0..<store.frameCount).map { k in
      let range = store.pointRange(ofAppendedFrames: k...k)
      var frame = FramePoints()
      frame.positions = Array(store.positions[range])
      frame.colors = Array(store.colors[range])
      frame.confidence = Array(store.confidence[range])
      return frame
    }
  }

  /// Positions as bit patterns, so that a NaN equals itself.
  static func bits(_ positions: [Point3]) -> [SIMD3<UInt32>] {
    positions.map { SIMD3($0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern) }
  }

  static func expectSame(_ tree: PointOctree, _ reference: ReferenceTree) {
    #expect(tree.nodes.count == reference.nodes.count)
    #expect(tree.root == reference.root)
    for (k, (node, expected)) in zip(tree.nodes, reference.nodes).enumerated() {
      let same =
        node.cube == expected.cube && node.level == expected.level
        && node.isInner == expected.isInner && node.leafPointCount == expected.leafPointCount
        && node.children == expected.children
        && Self.bits(node.points.positions) == Self.bits(expected.positions)
        && node.points.colors == expected.colors
        && node.points.confidence == expected.confidence
        && node.points.frameIndices == expected.frameIndices
        && node.points.frameRanges == expected.frameRanges
      if !same {
        Issue.record("node \(k) differs")
        return
      }
    }
  }

  @Test(arguments: [(64, 2_000), (8, 300), (4, 40), (2, 5)])
  func theFastBuildMakesTheReferenceTree(_ grid: Int, leaf: Int) throws {
    let store = try PointOctreeTests.syntheticStore(frames: 24)
    var frames = Self.frames(store)
    // A point far outside the first frame's cube, and a non-finite one, mid-way.
    frames[9].positions[5] = Point3(-7, 3, 11)
    frames[13].positions[0] = Point3(.nan, 0, 0)
    var reference = ReferenceTree(resolution: grid, leafCapacity: leaf)
    let options = PointOctree.Options(gridResolution: grid, leafCapacity: leaf)
    var serial = PointOctree(options: options)
    var parallel = PointOctree(options: options)
    parallel.parallelDescentMinimumPoints = 1
    for frame in frames {
      reference.append(frame)
      serial.append(frame)
      parallel.append(frame)
    }
    Self.expectSame(serial, reference)
    Self.expectSame(parallel, reference)
    #expect(reference.nodes.count > 1)
  }

  @Test func syncingInSharesMakesTheSameTreeOnOneThreadAndOnMany() throws {
    let store = try PointOctreeTests.syntheticStore(frames: 12)
    let options = PointOctree.Options(gridResolution: 16, leafCapacity: 500)
    var serial = PointOctree(options: options)
    serial.parallelDescentMinimumPoints = .max
    var parallel = PointOctree(options: options)
    parallel.parallelDescentMinimumPoints = 1
    // Shares of 1,000 points: frames go in as every k-th point first.
    while !serial.sync(with: store, maxPoints: 1_000) {}
    while !parallel.sync(with: store, maxPoints: 1_000) {}
    #expect(serial.nodes.count == parallel.nodes.count && serial.nodes.count > 8)
    for (a, b) in zip(serial.nodes, parallel.nodes) {
      #expect(
        a.cube == b.cube && a.children == b.children
          && Self.bits(a.points.positions) == Self.bits(b.points.positions)
          && a.points.colors == b.points.colors && a.points.frameRanges == b.points.frameRanges)
    }
  }
}
