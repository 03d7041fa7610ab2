import Testing

@testable import CloudScrubCore

/// The level-of-detail selector: budget, frustum, every point once, the timeline modes'
/// point sets, coarse before fine.
@Suite struct LODPlanTests {
  typealias Tagged = PointOctreeTests

  /// An orthographic view that maps the box `low…high` onto the whole clip volume.
  static func viewOfEverything(_ store: PointStore) -> LODView {
    var low = SIMD3<Float>(repeating: .infinity)
    var high = SIMD3<Float>(repeating: -.infinity)
    for p in store.positions {
      low = pointwiseMin(low, SIMD3(p.x, p.y, p.z))
      high = pointwiseMax(high, SIMD3(p.x, p.y, p.z))
    }
    let scale = 2 / (high - low + 0.02)
    let offset = -(low - 0.01) * scale - 1
    let clip = Matrix4(
      columns: SIMD4(scale.x, 0, 0, 0), SIMD4(0, scale.y, 0, 0), SIMD4(0, 0, scale.z, 0),
      SIMD4(offset.x, offset.y, offset.z, 1))
    return LODView(clipFromWorld: clip, projectionScaleY: scale.y, viewportHeightPixels: 480)
  }

  /// A narrow camera inside the scene's box looking along +x: it sees only part of it.
  static func narrowView(of store: PointStore) -> (clipFromWorld: Matrix4, view: LODView) {
    var low = SIMD3<Float>(repeating: .infinity)
    var high = SIMD3<Float>(repeating: -.infinity)
    for p in store.positions {
      low = pointwiseMin(low, SIMD3(p.x, p.y, p.z))
      high = pointwiseMax(high, SIMD3(p.x, p.y, p.z))
    }
    let center = (low + high) / 2
    let clipFromWorld =
      Matrix4.perspective(
        verticalFieldOfViewRadians: 0.3, aspect: 1, nearMeters: 0.05, farMeters: 20)
      * Matrix4.lookAt(eye: center, target: center + SIMD3(1, 0, 0), up: SIMD3(0, 1, 0))
    let view = LODView(
      clipFromWorld: clipFromWorld, projectionScaleY: 7.6, viewportHeightPixels: 480)
    return (clipFromWorld, view)
  }

  static func ids(_ tree: PointOctree, _ items: [LODDrawItem]) -> [Int] {
    items.flatMap { item in item.range.map { Tagged.id(tree.nodes[item.node].points, $0) } }
  }

  static func allIDs(_ tree: PointOctree, _ plan: LODPlan) -> [Int] {
    (0..<plan.passCount).flatMap { ids(tree, plan.items(ofPass: $0)) }
  }

  static let options = PointOctree.Options(gridResolution: 8, leafCapacity: 400)

  @Test(arguments: [1, 97, 1_000, 12_345, 10_000_000])
  func passesStayWithinTheBudgetAndDrawEveryPointOnce(_ budget: Int) throws {
    let store = try Tagged.syntheticStore()
    let tree = PointOctree(store: store, options: Self.options)
    let plan = LODPlan(
      octree: tree, view: Self.viewOfEverything(store), visibleFrames: 0...29,
      budgetPoints: budget)
    for pass in 0..<plan.passCount {
      let items = plan.items(ofPass: pass)
      let points = items.reduce(0) { $0 + $1.range.count }
      #expect(points <= budget)
      #expect(points == plan.pointCount(ofPass: pass))
      if pass < plan.passCount - 1 { #expect(points == budget) }
    }
    #expect(plan.totalPoints == store.count)
    #expect(Self.allIDs(tree, plan).sorted() == Array(0..<store.count))
  }

  @Test(
    arguments: zip(
      [TimelineMode.upToPlayhead, .currentFrameOnly, .lastFrames, .lastFrames, .lastFrames],
      [30, 30, 1, 7, 500]))
  func timelineModesGiveTheDrawRangesPoints(_ mode: TimelineMode, lastFrames: Int) throws {
    let store = try Tagged.syntheticStore()
    let tree = PointOctree(store: store, options: Self.options)
    var playback = Playback()
    playback.apply(.framesLoaded(timestampsSeconds: (0..<30).map { Double($0) / 30 }))
    playback.apply(.setLastFramesCount(lastFrames))
    playback.apply(.setMode(mode))
    for frame in [0, 5, 17, 29] {
      playback.apply(.seek(frame: frame))
      let plan = LODPlan(
        octree: tree, view: Self.viewOfEverything(store), visibleFrames: playback.visibleFrames,
        budgetPoints: 2_000)
      #expect(
        Self.allIDs(tree, plan).sorted()
          == Array(playback.drawRange(frameRanges: store.frameRanges)))
    }
  }

  @Test func nodesOutsideTheFrustumAreNeverChosen() throws {
    let store = try Tagged.syntheticStore()
    let tree = PointOctree(store: store, options: Self.options)
    let everything = Self.viewOfEverything(store)
    let (clipFromWorld, view) = Self.narrowView(of: store)
    let plan = LODPlan(octree: tree, view: view, visibleFrames: 0...29, budgetPoints: 5_000)
    let chosen = Set(plan.items.map(\.node))
    #expect(!chosen.isEmpty)
    for (index, node) in tree.nodes.enumerated() {
      let corners = (0..<8).map { i -> SIMD4<Float> in
        let c =
          node.cube.minimum
          + SIMD3(
            i & 1 == 0 ? 0 : node.cube.sizeMeters, i & 2 == 0 ? 0 : node.cube.sizeMeters,
            i & 4 == 0 ? 0 : node.cube.sizeMeters)
        return clipFromWorld.transform(SIMD4(Float(c.x), Float(c.y), Float(c.z), 1))
      }
      // Wholly past one clip plane: every corner on its outer side.
      let outside =
        corners.allSatisfy { $0.x < -$0.w } || corners.allSatisfy { $0.x > $0.w }
        || corners.allSatisfy { $0.y < -$0.w } || corners.allSatisfy { $0.y > $0.w }
        || corners.allSatisfy { $0.z < -$0.w } || corners.allSatisfy { $0.z > $0.w }
      if outside && chosen.contains(index) { Issue.record("node \(index) is outside but chosen") }
      // A node left out has no point inside the clip volume.
      if !chosen.contains(index) {
        for k in 0..<node.pointCount {
          let p = node.points.positions[k]
          let c = clipFromWorld.transform(SIMD4(p.x, p.y, p.z, 1))
          let inside = abs(c.x) <= c.w && abs(c.y) <= c.w && abs(c.z) <= c.w
          if inside { Issue.record("node \(index) left out with a point in view") }
        }
      }
    }
    let all = LODPlan(octree: tree, view: everything, visibleFrames: 0...29, budgetPoints: 5_000)
    #expect(plan.totalPoints < all.totalPoints)
  }

  @Test func parentsComeBeforeTheirChildren() throws {
    let store = try Tagged.syntheticStore()
    let tree = PointOctree(store: store, options: Self.options)
    let plan = LODPlan(
      octree: tree, view: Self.viewOfEverything(store), visibleFrames: 0...29, budgetPoints: 999)
    var position: [Int: Int] = [:]
    for (k, item) in plan.items.enumerated() { position[item.node] = k }
    for (index, node) in tree.nodes.enumerated() {
      guard let mine = position[index] else { continue }
      for child in node.children where child >= 0 {
        if let theirs = position[child] { #expect(mine < theirs) }
      }
    }
    #expect(plan.items.first?.node == tree.root)
  }

  @Test func nothingShownIsOneEmptyPass() {
    let tree = PointOctree()
    let plan = LODPlan(
      octree: tree,
      view: LODView(clipFromWorld: .identity, projectionScaleY: 1, viewportHeightPixels: 10),
      visibleFrames: nil, budgetPoints: 10)
    #expect(plan.passCount == 1 && plan.items(ofPass: 0).isEmpty && plan.totalPoints == 0)
  }

  @Test func passesDrawNodesUntilEveryPointIsDrawnOnce() throws {
    let store = try Tagged.syntheticStore()
    let tree = PointOctree(store: store, options: Self.options)
    let view = Self.viewOfEverything(store)
    var passes = DrawingPasses<Int>(fixedBudgetPoints: 3_000)
    var drawn: [Int] = []
    var turns = 0
    while true {
      let step = passes.step(for: 1) { budget in
        LODPlan(octree: tree, view: view, visibleFrames: 0...29, budgetPoints: budget)
      }
      guard case .drawNodes(let pass, let continuing, let points) = step else {
        #expect(step == .idle)
        break
      }
      #expect(continuing == (turns > 0))
      #expect(points == pass.reduce(0) { $0 + $1.range.count } && points <= 3_000)
      drawn += Self.ids(tree, pass)
      turns += 1
    }
    #expect(turns == (store.count + 2_999) / 3_000)
    #expect(drawn.sorted() == Array(0..<store.count))
    #expect(passes.progress == (drawn: store.count, total: store.count))
    // A new signature starts again from the first pass.
    let again = passes.step(for: 2) { budget in
      LODPlan(octree: tree, view: view, visibleFrames: 0...0, budgetPoints: budget)
    }
    guard case .drawNodes(_, let continuing, let points) = again else {
      Issue.record("expected a new first pass")
      return
    }
    #expect(!continuing && points == store.frameRanges[1])
  }
}
