import CloudScrubCLI
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// `cloudscrub bench render`: points per second of the two point renderers on a large
/// random cloud with every point drawn, beside a single-core reference loop measured in
/// the same run, frames of a million-triangle mesh with each, and the wall time of
/// `cloudscrub render` on a PLY of that size.
struct RenderBenchmark {
  let points: Int
  let widthPixels: Int
  let heightPixels: Int
  let repeats: Int
  let binary: String

  func run() throws {
    let cores = Parallel.cores
    Terminal.out("CloudScrub render benchmark; cores: \(cores)")
    let store = Self.randomStore(points: points, frames: 300)
    var state = ViewerState(viewportWidth: widthPixels, viewportHeight: heightPixels)
    state.apply(
      .sceneAppended(ViewerScene(bounds: Bounds3(min: Point3(0, 0, 0), max: Point3(10, 10, 10)))))
    state.apply(
      .playback(.framesLoaded(timestampsSeconds: (0..<store.frameCount).map { Double($0) / 30 })))
    state.apply(.playback(.jumpToEnd))
    state.apply(.display(.setPointSize(1)))
    state.apply(.display(.setRoundPoints(false)))
    let renderer = SceneRenderer(backend: CountingRenderBackend())
    let uniforms = renderer.pointUniforms(
      state: state, view: state.viewMatrix,
      viewProjection: state.projectionMatrix * state.viewMatrix,
      frameRanges: store.frameRanges)
    var report = BenchReport()
    let size = "\(widthPixels)×\(heightPixels)"
    report.section(
      "\(Self.grouped(store.count)) random points into \(size), point size 1, every point drawn")

    // Wall time, and the processor time the process used: on a machine shared with other
    // work the second shows what the code costs, the first what this run got.
    let count = Double(store.count)
    let reference = CPUStopwatch.best(runs: repeats) {
      Self.referenceLoop(store, uniforms, size: (widthPixels, heightPixels))
    }
    report.row(
      "reference loop, 1 core", Self.rate(count / reference.wall),
      "project, depth-test, packed 64-bit write; \(Self.rate(count / reference.cpu)) per CPU-second"
    )

    let single = CPUPointRasterizer(workerCount: 1)
    let one = CPUStopwatch.best(runs: repeats) { draw(store, uniforms, on: single) }
    report.row(
      "CPU rasterizer, 1 core", Self.rate(count / one.wall),
      "draw + merge, \(PLYBenchmark.seconds(one.wall)); \(Self.rate(count / one.cpu)) per CPU-second"
    )
    let all = CPUPointRasterizer()
    let many = CPUStopwatch.best(runs: repeats) { draw(store, uniforms, on: all) }
    let cpuRate = count / many.wall
    report.row(
      "CPU rasterizer, \(all.workerCount) cores", Self.rate(cpuRate),
      "draw + merge, \(PLYBenchmark.seconds(many.wall)); \(Self.rate(count / many.cpu)) per CPU-second",
      target: cpuRate >= 150e6, goal: "≥ 150 M points/s")
    report.row(
      "  with the cores to itself", Self.rate(count / many.cpu * Double(all.workerCount)),
      "estimate: per CPU-second × \(all.workerCount) (\(CPUStopwatch.pressureNote))")
    for (size, round) in [(Float(2), true), (5, true)] {
      var wide = uniforms
      wide.pointSizePixels = size
      wide.roundPoints = round
      let timing = CPUStopwatch.best(runs: repeats) { draw(store, wide, on: all) }
      report.row(
        "  point size \(Int(size))\(round ? " round" : "")", Self.rate(count / timing.wall),
        "\(PLYBenchmark.seconds(timing.wall)); \(Self.rate(count / timing.cpu)) per CPU-second")
    }

    // Whole frames through the GL backend: the same scene target, lines and composite.
    let context = try EGLHeadlessContext()
    defer { withExtendedLifetime(context) {} }
    let glName = GLBackend.rendererString
    let backend = try GLBackend()
    let target = try OffscreenTarget(width: widthPixels, height: heightPixels)
    backend.outputFramebuffer = target.framebuffer
    let scene = SceneRenderer(backend: backend)
    var frames: [PointRenderer: Double] = [:]
    for pointRenderer in [PointRenderer.cpu, .gl] {
      backend.pointDrawer = pointRenderer.makeDrawer()
      try scene.sync(with: store)
      scene.draw(state: state, store: store)  // warm: first upload, first shader use
      _ = target.readPixels()
      let seconds = try Stopwatch.best(runs: pointRenderer == .gl ? min(repeats, 2) : repeats) {
        scene.draw(state: state, store: store)
        _ = target.readPixels()
      }
      frames[pointRenderer] = seconds
    }
    let cpuFrame = frames[.cpu] ?? .infinity
    let glFrame = frames[.gl] ?? .infinity
    let ratio = glFrame / cpuFrame
    report.row(
      "frame, CPU renderer", Self.rate(Double(store.count) / cpuFrame),
      "\(PLYBenchmark.seconds(cpuFrame)) a frame with upload, overlays, composite and read-back")
    report.row(
      "frame, OpenGL", Self.rate(Double(store.count) / glFrame),
      "\(PLYBenchmark.seconds(glFrame)) a frame on \(glName)")
    report.row(
      "CPU renderer / OpenGL", "\(PLYBenchmark.fixed(ratio, 1))×", "same frame, same run",
      target: PointRendererChoice.isSoftware(glRenderer: glName) ? ratio >= 25 : nil,
      goal: "≥ 25× llvmpipe")

    // The fixed cost of a CPU frame: merge, texture uploads, overlays, composite, read-back.
    backend.pointDrawer = PointRenderer.cpu.makeDrawer()
    let onePoint = Self.randomStore(points: 1, frames: 1)
    let fixed = try Stopwatch.best(runs: repeats) {
      scene.draw(state: state, store: onePoint)
      _ = target.readPixels()
    }
    report.row(
      "frame, CPU, one point", PLYBenchmark.seconds(fixed),
      "the fixed cost: merge, uploads, composite, read-back")

    var defaultLook = state
    defaultLook.apply(.display(.setPointSize(2)))
    defaultLook.apply(.display(.setRoundPoints(true)))
    defaultLook.apply(.display(.toggleEyeDomeLighting))
    let looks = try Stopwatch.best(runs: repeats) {
      scene.draw(state: defaultLook, store: store)
      _ = target.readPixels()
    }
    report.row(
      "frame, CPU, size 2 round EDL", Self.rate(Double(store.count) / looks),
      "\(PLYBenchmark.seconds(looks)) a frame")
    try meshFrames(scene, target, state: state, triangles: 1_000_000, into: &report)
    try realCapture(scene, target, into: &report)
    try renderCommand(into: &report)
    Terminal.out(report.text)
    Terminal.out("(figures depend on what else the machine runs; best of \(repeats))")
  }

  /// Frames of the real desk capture (when `../shared/data` has it) at the window's
  /// default look, the way `render` frames it.
  private func realCapture(
    _ scene: SceneRenderer, _ target: OffscreenTarget, into report: inout BenchReport
  ) throws {
    let path = "../shared/data/record3d-exr-desk"
    guard FileManager.default.fileExists(atPath: path) else {
      report.section("real capture")
      report.row("desk capture", "skipped", "\(path) is absent")
      return
    }
    let (content, commands) = try RenderRequest.load(path, frames: nil)
    var state = ViewerState(viewportWidth: widthPixels, viewportHeight: heightPixels)
    for command in commands { state.apply(command) }
    state.apply(.playback(.jumpToEnd))
    report.section(
      "the desk capture (\(Self.grouped(content.store.count)) points), whole frames, size 2 round")
    for pointRenderer in [PointRenderer.cpu, .gl] {
      scene.backend.pointDrawer = pointRenderer.makeDrawer()
      try scene.sync(with: content.store)
      scene.draw(state: state, store: content.store)
      _ = target.readPixels()
      let seconds = try Stopwatch.best(runs: pointRenderer == .gl ? 1 : repeats) {
        scene.draw(state: state, store: content.store)
        _ = target.readPixels()
      }
      report.row(
        "frame, \(pointRenderer.label)", PLYBenchmark.seconds(seconds),
        Self.rate(Double(content.store.count) / seconds),
        target: pointRenderer == .cpu ? seconds <= 0.15 : nil, goal: "≤ 0.15 s")
    }
    scene.mirror.reset()
  }

  private func draw(
    _ store: PointStore, _ uniforms: PointUniforms, on rasterizer: CPUPointRasterizer
  ) {
    rasterizer.begin(
      widthPixels: widthPixels, heightPixels: heightPixels, background: SIMD3(0.1, 0.1, 0.1))
    rasterizer.draw(store, range: 0..<store.count, uniforms: uniforms)
    _ = rasterizer.resolvedImage()
  }

  /// `cloudscrub render` of a synthetic PLY with this many points, with either renderer.
  private func renderCommand(into report: inout BenchReport) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cloudscrub-bench-render-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let ply = folder.appendingPathComponent("cloud.ply").path
    try SyntheticFiles.writeCloud(count: points, seed: 1, normals: false, ascii: false, to: ply)
    // On the disk before the timed renders, so that its write-back does not share them.
    try FileHandle(forReadingFrom: URL(fileURLWithPath: ply)).synchronize()
    let png = folder.appendingPathComponent("cloud.png").path
    report.section(
      "cloudscrub render of a \(Self.grouped(points))-point binary PLY, \(widthPixels)×\(heightPixels)"
    )
    var best: [PointRendererChoice: Double] = [:]
    for choice in [PointRendererChoice.cpu, .gl] {
      let seconds = try Stopwatch.best(runs: choice == .gl ? min(repeats, 2) : repeats) {
        try ViewerBenchmark.launch(
          binary,
          [
            "render", ply, "-o", png, "--renderer", choice.rawValue, "--size",
            "\(widthPixels)x\(heightPixels)",
          ],
          environment: [:])
      }
      report.row(
        "render --renderer \(choice.rawValue)", PLYBenchmark.seconds(seconds), "wall, load to PNG",
        target: choice == .cpu ? seconds <= 0.5 : nil, goal: "≤ 0.5 s")
      best[choice] = seconds
    }
    if let cpu = best[.cpu], let gl = best[.gl], cpu > 0 {
      report.row(
        "render, cpu / gl", String(format: "%.1f×", gl / cpu), "same file, same run",
        target: gl / cpu >= 10, goal: "≥ 10×")
    }
    // One more CPU render with its steps traced (`StartupTrace`).
    let arguments = [
      "render", ply, "-o", png, "--renderer", "cpu", "--size", "\(widthPixels)x\(heightPixels)",
    ]
    let traced = try BenchProcess.run(
      [binary] + arguments, environment: ["CLOUDSCRUB_TRACE_STARTUP": "1"], errors: .kept)
    let wall = traced.seconds
    if let steps = Self.renderSteps(traced.errors), let written = steps["written"],
      let read = steps["read"], let drawn = steps["drawn"]
    {
      let seconds = PLYBenchmark.seconds
      report.row(
        "  its steps", seconds(wall),
        "read and load \(seconds(read)), draw (EGL, points, overlays, read-back) "
          + "\(seconds(drawn - read)), PNG \(seconds(written - drawn)), process start and exit "
          + "\(seconds(max(0, wall - written)))")
    }
  }

  /// The seconds of each `render: STEP` mark of a render's trace, from its first.
  static func renderSteps(_ trace: String) -> [String: Double]? {
    var steps: [String: Double] = [:]
    for line in trace.split(separator: "\n") {
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      guard words.count >= 5, words[0] == "trace", words[3] == "render:",
        let seconds = Double(words[1])
      else { continue }
      steps[String(words[4])] = seconds
    }
    return steps.isEmpty ? nil : steps
  }

  /// The single-core reference: project, test depth, write one packed word, nothing
  /// else (no colour modes, no confidence, no wide points).
  static func referenceLoop(_ store: PointStore, _ uniforms: PointUniforms, size: (Int, Int)) {
    let (width, height) = size
    var buffer = [UInt64](repeating: .max, count: width * height)
    let m = uniforms.viewProjection.columnMajor
    let halfWidth = Float(width) / 2
    let halfHeight = Float(height) / 2
    store.positions.withUnsafeBufferPointer { positions in
      store.colors.withUnsafeBufferPointer { colors in
        buffer.withUnsafeMutableBufferPointer { pixels in
          guard let p = positions.baseAddress, let c = colors.baseAddress,
            let out = pixels.baseAddress
          else { return }
          for i in 0..<positions.count {
            let q = p[i]
            let w = m[3] * q.x + m[7] * q.y + m[11] * q.z + m[15]
            let x = m[0] * q.x + m[4] * q.y + m[8] * q.z + m[12]
            let y = m[1] * q.x + m[5] * q.y + m[9] * q.z + m[13]
            let z = m[2] * q.x + m[6] * q.y + m[10] * q.z + m[14]
            guard w > 0, abs(x) <= w, abs(y) <= w, abs(z) <= w else { continue }
            let inverse = 1 / w
            let px = Int((x * inverse + 1) * halfWidth)
            let py = Int((y * inverse + 1) * halfHeight)
            if px >= width || py >= height { continue }
            let color = UInt32(c[i].r) | UInt32(c[i].g) << 8 | UInt32(c[i].b) << 16
            let word = UInt64((z * inverse * 0.5 + 0.5).bitPattern) << 32 | UInt64(color)
            let pixel = out + (py &* width &+ px)
            if word < pixel.pointee { pixel.pointee = word }
          }
        }
      }
    }
    withExtendedLifetime(buffer) {}
  }

  /// `points` random points in a 10 m cube, in `frames` frames, with random colours.
  static func randomStore(points: Int, frames: Int) -> PointStore {
    var store = PointStore()
    store.reserveCapacity(estimatedPoints: points)
    var random = SplitMix64(seed: 12)
    for frame in 0..<frames {
      let count = points * (frame + 1) / frames - points * frame / frames
      var batch = FramePoints()
      batch.positions.reserveCapacity(count)
      batch.colors.reserveCapacity(count)
      for _ in 0..<count {
        let r = random.next()
        batch.positions.append(
          Point3(
            Float(r & 0xFFFF) / 6553.6, Float((r >> 16) & 0xFFFF) / 6553.6,
            Float((r >> 32) & 0xFFFF) / 6553.6))
        batch.colors.append(
          RGB8(UInt8(truncatingIfNeeded: r >> 48), UInt8(truncatingIfNeeded: r >> 56), 128))
      }
      batch.confidence = Array(repeating: 2, count: count)
      store.append(batch, frameIndex: frame)
    }
    return store
  }

  static func rate(_ pointsPerSecond: Double) -> String {
    "\(PLYBenchmark.fixed(pointsPerSecond / 1e6, 1)) M/s"
  }

  static func grouped(_ count: Int) -> String {
    count >= 1_000_000 ? "\(PLYBenchmark.fixed(Double(count) / 1e6, 1)) M" : "\(count)"
  }
}

/// Wall and processor time of a piece of work, best of several runs.
enum CPUStopwatch {
  static func best(runs: Int, _ body: () -> Void) -> (wall: Double, cpu: Double) {
    var wall = Double.infinity
    var cpu = Double.infinity
    for _ in 0..<max(runs, 1) {
      let start = ContinuousClock.now
      let cpuStart = clock()
      body()
      let cpuEnd = clock()
      let elapsed = ContinuousClock.now - start
      wall = min(
        wall, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
      cpu = min(cpu, Double(cpuEnd - cpuStart) / Double(CLOCKS_PER_SEC))
    }
    return (wall, max(cpu, 1e-9))
  }

  /// How busy the machine's processors were over the last 10 s, from the kernel's
  /// pressure stall information.
  static var pressureNote: String {
    guard let text = try? String(contentsOfFile: "/proc/pressure/cpu", encoding: .utf8),
      let field = text.split(separator: " ").first(where: { $0.hasPrefix("avg10=") })
    else { return "CPU pressure unknown" }
    return "tasks waited for a CPU \(field.dropFirst(6)) % of the last 10 s"
  }
}
