import CloudScrubCore
import CloudScrubRender
import Foundation

extension ScaleBenchmark {
  /// Points of the synthetic binary PLY the huge-PLY step writes (15 bytes each).
  static let hugePLYPoints = 20_000_000

  /// The window's side of a huge binary PLY, in this process: a structured scene
  /// streamed to disk, then opened as the window opens it (header only, then the
  /// sampled background load); the time until the first level-of-detail pass is a
  /// picture on the CPU rasterizer, and until the level of detail holds every point
  /// (frame-loop turns of `ViewerContent.levelOfDetailPointsPerTurn`, without
  /// drawing), as points a second beside PotreeConverter's 6–9 M/s.
  func hugePLY(into report: inout BenchReport, points: Int = Self.hugePLYPoints) throws {
    let path = folder + "/huge.ply"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let writeStarted = Date()
    try SyntheticCloud.writeScene(
      count: points, seed: 1, normals: false, comments: ["bench scale"], to: path)
    let writeSeconds = Date().timeIntervalSince(writeStarted)
    report.row(
      "huge PLY written", PLYBenchmark.seconds(writeSeconds),
      "\(PLYBenchmark.fixed(Double(points) / 1e6, 1)) M points, "
        + "\(PLYBenchmark.megabytes(points * 15)) MB, streamed")

    let started = Date()
    guard let opened = try InputLoader.openSampledPLY(path, merge: .automatic) else {
      throw BenchError("\(path) is not a binary PLY the sampled load reads")
    }
    let openSeconds = Date().timeIntervalSince(started)
    let load = opened.load.start()
    defer { load.cancel() }
    var content = ViewerContent(levelOfDetail: true)
    var state = ViewerState(viewportWidth: 1280, viewportHeight: 800)
    // The first turn: the sample, one turn's share into the level of detail, one pass.
    var first: [LoadedFrame] = []
    while first.isEmpty {
      first = load.take(maxFrames: 1)
      if first.isEmpty {
        if case .failed(let reason) = load.status { throw BenchError(reason) }
        Thread.sleep(forTimeInterval: 0.001)
      }
    }
    for command in content.absorb(first) { state.apply(command) }
    content.growLevelOfDetail(maxPoints: ViewerContent.levelOfDetailPointsPerTurn)
    let drawn = try firstPicture(content, state: state)
    let firstSeconds = Date().timeIntervalSince(started)
    report.row(
      "huge PLY first picture", PLYBenchmark.seconds(firstSeconds),
      "header \(PLYBenchmark.seconds(openSeconds)), sample of \(content.store.count) points, "
        + "\(drawn) drawn, 1280×800 CPU" + (opened.summary.contains("merging") ? "; merged" : ""),
      target: firstSeconds <= 1, goal: "≤ 1 s")

    // Every later turn: what arrived, and one turn's share.
    while load.hasFramesToCome || !content.levelOfDetailIsComplete {
      let arrived = load.take()
      for command in content.absorb(arrived) { state.apply(command) }
      content.growLevelOfDetail(maxPoints: ViewerContent.levelOfDetailPointsPerTurn)
      if arrived.isEmpty, content.levelOfDetailIsComplete { Thread.sleep(forTimeInterval: 0.001) }
    }
    if case .failed(let reason) = load.status { throw BenchError(reason) }
    let seconds = Date().timeIntervalSince(started)
    let rate = Double(points) / max(seconds, 1e-9) / 1e6
    report.row(
      "huge PLY level of detail complete", PLYBenchmark.seconds(seconds),
      "\(PLYBenchmark.fixed(rate, 1)) M points/s of the file read and sorted in "
        + "(PotreeConverter: 6–9 M/s); \(content.store.count) points kept, level of detail "
        + "\(PLYBenchmark.megabytes(content.levelOfDetail?.byteCount ?? 0)) MB")
  }

  /// Rasterizes the first pass of `content`'s level of detail; returns the points drawn.
  private func firstPicture(_ content: ViewerContent, state: ViewerState) throws -> Int {
    guard let octree = content.levelOfDetail else { return 0 }
    let store = content.store
    let renderer = SceneRenderer(backend: CountingRenderBackend())
    let uniforms = renderer.pointUniforms(
      state: state, view: state.viewMatrix,
      viewProjection: state.projectionMatrix * state.viewMatrix, frameRanges: store.frameRanges)
    let plan = LODPlan(octree: octree, state: state, budgetPoints: PointBudget().points)
    let rasterizer = CPUPointRasterizer()
    rasterizer.begin(widthPixels: 1280, heightPixels: 800, background: SIMD3(0.1, 0.1, 0.1))
    for item in plan.items(ofPass: 0) {
      rasterizer.draw(octree.nodes[item.node].points, range: item.range, uniforms: uniforms)
    }
    _ = rasterizer.resolvedImage()
    return plan.pointCount(ofPass: 0)
  }
}
