import Foundation
import Testing

@testable import CloudScrubCore

/// The level of detail's structure: every point in exactly one node, frame order and
/// frame tables inside each node, growth while frames arrive.
@Suite struct PointOctreeTests {
  /// A point whose colour and confidence spell `id` (24 + 8 bits), so that a point is
  /// recognised wherever the tree put it.
  static func tagged(_ positions: [Point3], firstID: Int) -> FramePoints {
    var frame = FramePoints()
    for (k, p) in positions.enumerated() {
      let id = UInt32(firstID + k)
      frame.positions.append(p)
      frame.colors.append(
        RGB8(UInt8(id & 255), UInt8(id >> 8 & 255), UInt8(id >> 16 & 255)))
      frame.confidence.append(UInt8(id >> 24))
    }
    return frame
  }

  static func id(_ store: PointStore, _ index: Int) -> Int {
    let c = store.colors[index]
    return Int(c.r) | Int(c.g) << 8 | Int(c.b) << 16 | Int(store.confidence[index]) << 24
  }

  /// A synthetic capture's frames (64 × 48 depth, 30 frames), each point tagged with its
  /// index in the whole store.
  static func syntheticStore(frames: Int = 30) throws -> PointStore {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: frames, depthWidth: 64, depthHeight: 48, colorWidth: 64, colorHeight: 48,
        depthNoiseMeters: 0.003))
    let loader = RecordingLoader(source: source)
    var store = PointStore()
    for k in 0..<frames {
      let points = try loader.points(ofFrame: k)
      store.append(Self.tagged(points.positions, firstID: store.count), frameIndex: k)
    }
    return store
  }

  static func near(_ a: LODCube, _ b: LODCube) -> Bool {
    abs(a.sizeMeters - b.sizeMeters) < 1e-12
      && ((a.minimum - b.minimum) * (a.minimum - b.minimum)).sum() < 1e-24
  }

  @Test func handCountedTree() {
    // Grid 2 × 2 × 2, leaves of at most 2 points. Frame 0 fits the root (a cube of
    // 1.01 m from −0.005); frame 1 overfills it, so the root turns inner with cells 0
    // and 7 taken; in frame 2, (0.6, 0.1, 0.1) finds cell 1 free and stays, the other
    // two find theirs taken and go to octants 0 and 7.
    var tree = PointOctree(options: .init(gridResolution: 2, leafCapacity: 2))
    tree.append(Self.tagged([Point3(0, 0, 0), Point3(1, 1, 1)], firstID: 0))
    #expect(tree.nodes.count == 1)
    #expect(
      Self.near(tree.nodes[0].cube, LODCube(minimum: SIMD3(repeating: -0.005), sizeMeters: 1.01)))
    tree.append(
      Self.tagged(
        [Point3(0.1, 0.1, 0.1), Point3(0.9, 0.9, 0.9), Point3(0.2, 0.1, 0.1)], firstID: 2))
    #expect(tree.nodes[0].isInner)
    tree.append(
      Self.tagged(
        [Point3(0.6, 0.1, 0.1), Point3(0.05, 0.05, 0.05), Point3(0.95, 0.95, 0.95)], firstID: 5))
    #expect(tree.count == 8 && tree.frameCount == 3)
    let root = tree.nodes[tree.root]
    #expect((0..<root.pointCount).map { Self.id(root.points, $0) } == [0, 1, 2, 3, 4, 5])
    #expect(root.points.frameIndices == [0, 1, 2])
    #expect(root.pointRange(ofFrames: 0...0) == 0..<2)
    #expect(root.pointRange(ofFrames: 1...1) == 2..<5)
    #expect(root.pointRange(ofFrames: 2...2) == 5..<6)
    #expect(root.pointRange(ofFrames: 1...2) == 2..<6)
    #expect(root.frame(ofPoint: 4) == 1)
    let low = tree.nodes[root.children[0]]
    let high = tree.nodes[root.children[7]]
    #expect(root.children.filter { $0 >= 0 }.count == 2)
    #expect(Self.id(low.points, 0) == 6 && low.points.frameIndices == [2])
    #expect(Self.id(high.points, 0) == 7 && high.pointRange(ofFrames: 0...1).isEmpty)
    #expect(Self.near(low.cube, LODCube(minimum: SIMD3(repeating: -0.005), sizeMeters: 0.505)))
  }

  @Test(arguments: [(64, 32_768), (8, 400), (4, 50)])
  func everyPointLivesInExactlyOneNodeInFrameOrder(_ grid: Int, leaf: Int) throws {
    let store = try Self.syntheticStore()
    var tree = PointOctree(options: .init(gridResolution: grid, leafCapacity: leaf))
    // Frames join a few at a time, as they do while a recording loads.
    var partial = PointStore()
    for k in 0..<store.frameCount {
      let range = store.pointRange(ofAppendedFrames: k...k)
      var frame = FramePoints()
      frame.positions = Array(store.positions[range])
      frame.colors = Array(store.colors[range])
      frame.confidence = Array(store.confidence[range])
      partial.append(frame, frameIndex: k)
      if k % 4 == 3 || k == store.frameCount - 1 { tree.sync(with: partial) }
    }
    #expect(tree.count == store.count && tree.frameCount == store.frameCount)
    var seen: [Int] = []
    for node in tree.nodes {
      let ids = (0..<node.pointCount).map { Self.id(node.points, $0) }
      // Store order is frame order: increasing ids within a node.
      #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
      for (local, id) in ids.enumerated() {
        let frame = FrameOfPoint.frame(ofPoint: id, frameRanges: store.frameRanges)
        if node.frame(ofPoint: local) != frame { Issue.record("point \(id): wrong frame") }
        let p = store.positions[id]
        if !node.cube.contains(SIMD3(Double(p.x), Double(p.y), Double(p.z))) {
          Issue.record("point \(id) outside its node")
        }
      }
      seen += ids
    }
    #expect(seen.sorted() == Array(0..<store.count))
    if leaf < 1000 { #expect(tree.nodes.count > 10) }
  }

  @Test func anInnerNodeTakesAPointOnlyIntoAFreeCell() throws {
    let store = try Self.syntheticStore(frames: 12)
    let options = PointOctree.Options(gridResolution: 8, leafCapacity: 300)
    let tree = PointOctree(store: store, options: options)
    var inner = 0
    for node in tree.nodes where node.isInner {
      guard let leafPoints = node.leafPointCount else { continue }
      inner += 1
      #expect(leafPoints > options.leafCapacity)
      var cells = Set<UInt32>()
      for k in 0..<node.pointCount {
        let p = node.points.positions[k]
        let cell = PointOctree.cell(
          of: SIMD3(Double(p.x), Double(p.y), Double(p.z)), in: node.cube, resolution: 8)
        // After the node turned inner, each point is the first in its cell.
        if k >= leafPoints && cells.contains(cell) { Issue.record("cell \(cell) taken twice") }
        cells.insert(cell)
      }
    }
    #expect(inner > 3)
  }

  @Test func pointsOutsideTheRootGrowTheTreeUpward() {
    var tree = PointOctree(options: .init(gridResolution: 4, leafCapacity: 2))
    tree.append(Self.tagged([Point3(0, 0, 0), Point3(1, 1, 1), Point3(0.5, 0.5, 0.5)], firstID: 0))
    let firstRoot = tree.root
    tree.append(Self.tagged([Point3(-3, 0.5, 7), Point3(0.2, 0.2, 0.2)], firstID: 3))
    #expect(tree.root != firstRoot)
    let root = tree.nodes[tree.root]
    #expect(root.cube.contains(SIMD3(-3, 0.5, 7)) && root.cube.contains(SIMD3(1, 1, 1)))
    let ids = tree.nodes.flatMap { node in (0..<node.pointCount).map { Self.id(node.points, $0) } }
    #expect(ids.sorted() == [0, 1, 2, 3, 4])
  }

  @Test func nonFinitePointsStayInTheRoot() {
    var tree = PointOctree(options: .init(gridResolution: 4, leafCapacity: 2))
    tree.append(
      Self.tagged([Point3(0, 0, 0), Point3(.nan, 0, 0), Point3(1, .infinity, 1)], firstID: 0))
    #expect(tree.count == 3)
    #expect(tree.nodes[tree.root].pointCount == 3)
    #expect(tree.nodes[tree.root].cube.sizeMeters == 0.01)
  }

  @Test func viewerContentGrowsItsLevelOfDetailAStepAtATime() throws {
    let store = try Self.syntheticStore(frames: 6)
    // Frames 0–4 as they are; frame 5 is every point again, as one large frame (a PLY
    // cloud), which goes in over several steps.
    var frames: [LoadedFrame] = (0..<5).map { k in
      let range = store.pointRange(ofAppendedFrames: k...k)
      var points = FramePoints()
      points.positions = Array(store.positions[range])
      points.colors = Array(store.colors[range])
      points.confidence = Array(store.confidence[range])
      return LoadedFrame(frameIndex: k, timestampSeconds: Double(k), info: nil, points: points)
    }
    var all = FramePoints()
    all.positions = store.positions
    all.colors = store.colors.map { RGB8($0.r, $0.g, $0.b) }
    all.confidence = store.confidence
    frames.append(LoadedFrame(frameIndex: 9, timestampSeconds: 9, info: nil, points: all))
    let log = StepLog()
    let builder = LevelOfDetailBuilder(stepPoints: 1_000) { _ in log.recordCount() }
    log.builder = builder
    var content = ViewerContent(levelOfDetail: true, builder: builder)
    _ = content.absorb(frames)
    #expect(builder.waitUntilIdle(timeout: 120))
    #expect(content.levelOfDetailIsComplete)
    let total = content.store.count
    let steps = log.counts + [builder.count]
    #expect(steps.first == 0)
    for (before, now) in zip(steps, steps.dropFirst()) {
      // At most one step's points a step, and every step inserts some.
      #expect(now - before <= 1_000 && now > before)
    }
    let checked = content.withLevelOfDetail { tree in
      #expect(tree.count == total && tree.frameCount == 6)
      // Frame 5's points, in every node, are one range after the earlier frames'.
      let lastFrame = tree.nodes.reduce(0) { $0 + $1.pointRange(ofFrames: 5...5).count }
      #expect(lastFrame == store.count)
      for node in tree.nodes {
        #expect(Set(node.points.frameIndices).count == node.points.frameCount)
      }
      let ids = tree.nodes.flatMap { node in
        (0..<node.pointCount).map { Self.id(node.points, $0) }
      }
      // The ids of frames 0–4 twice (there and in the large frame), frame 5's once.
      let firstFive = store.frameRanges[5]
      let expected = (0..<store.count).flatMap { $0 < firstFive ? [$0, $0] : [$0] }
      #expect(ids.sorted() == expected, "points lost or doubled")
      return true
    }
    #expect(checked == true)
    #expect(!ViewerContent().hasLevelOfDetail)
  }

  @Test func aLargeFrameGoesInAsAnEvenSampleFirst() throws {
    // One frame of 10 000 points, 3 000 a call: every 4th point (2 500), then the next
    // residue…; the first call's points span the whole cloud.
    var store = PointStore()
    store.append(
      Self.tagged((0..<10_000).map { Point3(Float($0) / 1000, 0, 0) }, firstID: 0), frameIndex: 0)
    var tree = PointOctree(options: .init(gridResolution: 8, leafCapacity: 400))
    let firstDone = tree.sync(with: store, maxPoints: 3_000)
    #expect(!firstDone)
    let ids = tree.nodes.flatMap { node in (0..<node.pointCount).map { Self.id(node.points, $0) } }
    // Shares 0 and 1 (the second starts while 500 of the budget is left).
    #expect(ids.sorted() == (0..<10_000).filter { $0 % 4 < 2 })
    #expect(tree.frameCount == 1 && tree.count == 5_000)
    // Shares 2 and 3 finish it.
    let secondDone = tree.sync(with: store, maxPoints: 3_000)
    #expect(secondDone)
    #expect(tree.count == 10_000)
    #expect(tree.nodes.reduce(0) { $0 + $1.pointRange(ofFrames: 0...0).count } == 10_000)
  }

  @Test func aCloudIsOneFrame() throws {
    let store = try Self.syntheticStore(frames: 3)
    var one = PointStore()
    var frame = FramePoints()
    frame.positions = store.positions
    frame.colors = store.colors
    frame.confidence = store.confidence
    one.append(frame, frameIndex: 0)
    let tree = PointOctree(store: one, options: .init(gridResolution: 16, leafCapacity: 500))
    #expect(tree.frameCount == 1 && tree.count == store.count)
    #expect(tree.nodes.reduce(0) { $0 + $1.pointRange(ofFrames: 0...0).count } == store.count)
  }
}

/// The whole store's frame of a point, by binary search in the prefix sums.
enum FrameOfPoint {
  static func frame(ofPoint index: Int, frameRanges: [Int]) -> Int {
    var frame = 0
    while frameRanges[frame + 1] <= index { frame += 1 }
    return frame
  }
}

/// The builder's point count before each of its steps, read on its worker between
/// steps (the builder is set before the first frame is submitted).
private final class StepLog: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [Int] = []
  weak var builder: LevelOfDetailBuilder?

  func recordCount() {
    guard let count = builder?.count else { return }
    lock.lock()
    recorded.append(count)
    lock.unlock()
  }

  var counts: [Int] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }
}
