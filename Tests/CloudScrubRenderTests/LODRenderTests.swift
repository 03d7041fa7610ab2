import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// Drawing a level of detail: GPU memory as a cache of nodes (uploads, scrubbing,
/// eviction), the CPU rasterizer drawing the same draw lists, and refined pictures.
@Suite struct LODRenderTests {
  static let options = PointOctree.Options(gridResolution: 8, leafCapacity: 300)

  /// Points a pass of `plan` names, as whole-store indices: each test point's colour
  /// red and green spell its store index.
  static func storeIndices(_ backend: RecordingRenderBackend, since first: Int = 0) -> [Int] {
    backend.events[first...].flatMap { event -> [Int] in
      guard case .drawPoints(let chunk, let range, _, _) = event else { return [] }
      let contents = backend.chunkContents[chunk] ?? []
      return range.map { Int(contents[$0].r) | Int(contents[$0].g) << 8 }
    }
  }

  /// Frames of points on a slanted sheet, each point's red and green its store index.
  static func sheet(frames: Int, perFrame: Int) -> PointStore {
    var store = PointStore()
    var random = SplitMix64(seed: 5)
    for frame in 0..<frames {
      var points = FramePoints()
      for _ in 0..<perFrame {
        let id = store.count + points.count
        let x = random.unit() * 4 - 2
        let y = random.unit() * 3 - 1.5
        points.positions.append(Point3(x, y, 0.2 * x + 0.05 * Float(frame % 7)))
        points.colors.append(RGB8(UInt8(id & 255), UInt8(id >> 8 & 255), 7))
        points.confidence.append(2)
      }
      store.append(points, frameIndex: frame)
    }
    return store
  }

  static func state(_ store: PointStore) -> ViewerState {
    var state = ViewerState(viewportWidth: 320, viewportHeight: 200)
    state.apply(.sceneAppended(ViewerScene(bounds: store.cloud().bounds, up: .z)))
    state.apply(
      .playback(.framesLoaded(timestampsSeconds: (0..<store.frameCount).map { Double($0) / 30 })))
    state.apply(.playback(.jumpToEnd))
    return state
  }

  /// Every pass of `state`'s plan on `octree`, drawn in turn; the store indices drawn,
  /// read after each pass (an evicted node's chunk is gone later).
  @discardableResult
  static func refine(
    _ renderer: SceneRenderer, _ state: ViewerState, _ octree: PointOctree, budget: Int
  ) throws -> [Int] {
    let plan = LODPlan(octree: octree, state: state, budgetPoints: budget)
    var drawn: [Int] = []
    for pass in 0..<plan.passCount {
      let first = (renderer.backend as? RecordingRenderBackend)?.events.count ?? 0
      try renderer.draw(
        state: state, octree: octree, nodes: plan.items(ofPass: pass), continuing: pass > 0)
      if let backend = renderer.backend as? RecordingRenderBackend {
        drawn += storeIndices(backend, since: first)
      }
    }
    return drawn
  }

  @Test func loadingUploadsEachPointOnceAndAScrubUploadsNothing() throws {
    let full = Self.sheet(frames: 12, perFrame: 400)
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    var content = PointStore()
    var octree = PointOctree(options: Self.options)
    // Frames arrive one by one and each turn draws the picture to the end, as the
    // window does while a recording loads.
    for frame in 0..<full.frameCount {
      let range = full.pointRange(ofAppendedFrames: frame...frame)
      var points = FramePoints()
      points.positions = Array(full.positions[range])
      points.colors = Array(full.colors[range])
      points.confidence = Array(full.confidence[range])
      content.append(points, frameIndex: frame)
      octree.sync(with: content)
      try Self.refine(renderer, Self.state(content), octree, budget: 700)
    }
    #expect(octree.nodes.count > 8)
    #expect(backend.uploadedPointBytes == full.count * GPUPoint.byteCount)
    #expect(renderer.nodeCache.evictions == 0)

    // Scrubbing back and forth over resident nodes: no upload, the right points.
    var state = Self.state(full)
    for (mode, frame) in [
      (TimelineMode.upToPlayhead, 3), (.currentFrameOnly, 7), (.lastFrames, 11),
      (.upToPlayhead, 0), (.currentFrameOnly, 11), (.upToPlayhead, 11),
    ] {
      state.apply(.playback(.setLastFramesCount(4)))
      state.apply(.playback(.setMode(mode)))
      state.apply(.playback(.seek(frame: frame)))
      backend.clearEvents()
      let drawn = try Self.refine(renderer, state, octree, budget: 500)
      #expect(backend.uploadCount == 0)
      #expect(drawn.sorted() == Array(state.drawRange(frameRanges: full.frameRanges)))
    }
  }

  @Test func pastTheLimitTheLeastRecentlyUsedNodesGo() throws {
    let full = Self.sheet(frames: 10, perFrame: 500)
    let octree = PointOctree(store: full, options: Self.options)
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    // Room for about a third of the points.
    renderer.nodeCache.limitBytes = full.count * GPUPoint.byteCount / 3
    var state = Self.state(full)
    backend.clearEvents()
    let drawn = try Self.refine(renderer, state, octree, budget: 600)
    #expect(renderer.nodeCache.evictions > 0)
    // Every pass still drew its points once, and residency keeps to the limit with
    // room for one pass beyond it.
    #expect(drawn.sorted() == Array(0..<full.count))
    let plan = LODPlan(octree: octree, state: state, budgetPoints: 600)
    let lastPass = plan.items(ofPass: plan.passCount - 1)
    let lastPassBytes = lastPass.reduce(0) {
      $0 + LODNodeCache.chunkCapacity(for: octree.nodes[$1.node].pointCount) * GPUPoint.byteCount
    }
    #expect(renderer.nodeCache.residentBytes <= renderer.nodeCache.limitBytes + lastPassBytes)
    // What stayed resident is what the last passes used: drawing the last pass again
    // uploads nothing.
    backend.clearEvents()
    try renderer.draw(
      state: state, octree: octree, nodes: lastPass, continuing: false)
    #expect(backend.uploadCount == 0)
    // Frame 0 alone needs nodes evicted since: they come back.
    state.apply(.playback(.setMode(.currentFrameOnly)))
    state.apply(.playback(.seek(frame: 0)))
    backend.clearEvents()
    let frame0 = try Self.refine(renderer, state, octree, budget: 600)
    #expect(backend.uploadCount > 0)
    #expect(frame0.sorted() == Array(full.pointRange(ofAppendedFrames: 0...0)))
  }

  @Test func theCPUDrawsTheSameDrawListsFromTheNodes() throws {
    let full = Self.sheet(frames: 6, perFrame: 300)
    let octree = PointOctree(store: full, options: Self.options)
    let backend = RecordingRenderBackend()
    let drawer = RecordingStorePointDrawer()
    backend.pointDrawer = drawer
    let renderer = SceneRenderer(backend: backend)
    var state = Self.state(full)
    state.apply(.display(.setColorMode(.frame)))
    let plan = LODPlan(octree: octree, state: state, budgetPoints: 250)
    for pass in 0..<plan.passCount {
      try renderer.draw(
        state: state, octree: octree, nodes: plan.items(ofPass: pass), continuing: pass > 0)
    }
    #expect(backend.uploadCount == 0)
    // Colour by frame: each draw is one frame's stretch of a node, named in the
    // uniforms; together they are every point once.
    var drawn = 0
    for draw in drawer.draws {
      drawn += draw.range.count
      #expect(draw.uniforms.fixedFrame != nil && draw.uniforms.frameCount == 6)
    }
    #expect(drawn == full.count)
    #expect(drawer.finishedPictures == plan.passCount)
  }
}
