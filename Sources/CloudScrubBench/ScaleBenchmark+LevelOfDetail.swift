import CloudScrubCore
import CloudScrubFormats
import CloudScrubRender
import CloudScrubSession
import Foundation

extension ScaleBenchmark {
  /// Points of the recording the level-of-detail figures use at most (from its first
  /// frame on), so that the benchmark holds a few hundred MB whatever the capture.
  static let levelOfDetailPoints = 20_000_000

  /// `cloudscrub bench lod`: only the level-of-detail figures and the window's, for
  /// `recording`.
  func runLevelOfDetail() throws {
    guard let path = recording else { throw BenchError("bench lod needs a recording") }
    let source = try InputDetector.openRecording(path)
    var report = BenchReport()
    report.section("level of detail: \(path), \(source.frameCount) frames")
    try levelOfDetail(source, into: &report)
    try window(path, into: &report)
    Terminal.out(report.text)
  }

  /// The window's side, in this process: how fast the level of detail is built from
  /// loaded points (beside PotreeConverter's 6–9 M points/s, which is a separate
  /// conversion step), and how soon its first pass is a picture on the CPU rasterizer
  /// (the first frame-loop turn's share of points sorted in, planned and drawn).
  func levelOfDetail(_ source: any RecordingSource, into report: inout BenchReport) throws {
    let d = source.description
    let perFrame = max(1, d.depthWidth * d.depthHeight)
    let frames = max(1, min(source.frameCount, Self.levelOfDetailPoints / perFrame))
    let loader = RecordingLoader(
      source: source, selection: FrameSelection(range: 0...(frames - 1)),
      decoder: TurboJPEGDecoder())
    let store = try loader.load()
    // Wall time, and processor time (what the code costs on a machine shared with
    // other work): on one thread, then with the root's subtrees on every core.
    var single = PointOctree()
    single.parallelDescentMinimumPoints = .max
    let (oneWall, oneCPU) = CPUStopwatch.best(runs: 1) { single.sync(with: store) }
    let oneRate = Double(store.count) / max(oneCPU, 1e-9) / 1e6
    report.row(
      "level of detail, 1 thread", PLYBenchmark.seconds(oneWall),
      "\(store.frameCount) frames, \(PLYBenchmark.fixed(Double(store.count) / 1e6, 1)) M points: "
        + "\(PLYBenchmark.fixed(oneRate, 1)) M points/s of processor time "
        + "(\(PLYBenchmark.fixed(oneCPU, 2)) s; PotreeConverter: 6–9 M/s), "
        + "\(single.nodes.count) nodes, \(PLYBenchmark.megabytes(single.byteCount)) MB")
    var tree = PointOctree()
    let (seconds, cpu) = CPUStopwatch.best(runs: 1) { tree.sync(with: store) }
    let cores = Parallel.cores
    let same =
      tree.nodes.count == single.nodes.count
      && zip(tree.nodes, single.nodes).allSatisfy {
        $0.cube == $1.cube && $0.points.frameRanges == $1.points.frameRanges
          && $0.points.colors == $1.points.colors
      }
    report.row(
      "level of detail, \(cores) cores", PLYBenchmark.seconds(seconds),
      "\(PLYBenchmark.fixed(Double(store.count) / max(seconds, 1e-9) / 1e6, 1)) M points/s of wall"
        + " time, \(PLYBenchmark.fixed(oneWall / max(seconds, 1e-9), 2))× one thread's wall time"
        + " (processor \(PLYBenchmark.fixed(cpu, 2)) s); the same tree: "
        + (same ? "\(tree.nodes.count) nodes" : "NODES DIFFER")
        + "; \(CPUStopwatch.pressureNote)")

    // The first picture: one turn's points into a new tree, the plan, the first pass.
    var state = ViewerState(viewportWidth: 1280, viewportHeight: 800)
    state.apply(.sceneAppended(ViewerScene(bounds: store.cloud().bounds)))
    state.apply(
      .playback(.framesLoaded(timestampsSeconds: (0..<store.frameCount).map { Double($0) / 60 })))
    state.apply(.playback(.jumpToEnd))
    let rasterizer = CPUPointRasterizer()
    let renderer = SceneRenderer(backend: CountingRenderBackend())
    let uniforms = renderer.pointUniforms(
      state: state, view: state.viewMatrix,
      viewProjection: state.projectionMatrix * state.viewMatrix, frameRanges: store.frameRanges)
    let firstStarted = Date()
    var first = PointOctree()
    first.sync(with: store, maxPoints: ViewerContent.levelOfDetailPointsPerTurn)
    let plan = LODPlan(octree: first, state: state, budgetPoints: PointBudget().points)
    rasterizer.begin(widthPixels: 1280, heightPixels: 800, background: SIMD3(0.1, 0.1, 0.1))
    for item in plan.items(ofPass: 0) {
      rasterizer.draw(first.nodes[item.node].points, range: item.range, uniforms: uniforms)
    }
    _ = rasterizer.resolvedImage()
    let firstSeconds = Date().timeIntervalSince(firstStarted)
    report.row(
      "first LOD picture", PLYBenchmark.seconds(firstSeconds),
      "\(first.count) points sorted in, \(plan.pointCount(ofPass: 0)) drawn, 1280×800 CPU",
      target: firstSeconds <= 1, goal: "≤ 1 s")
  }
}
