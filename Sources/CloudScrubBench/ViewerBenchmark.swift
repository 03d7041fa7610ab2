import CloudScrubCLI
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// `cloudscrub bench view`: the viewer's costs that do not depend on the GPU — bytes
/// uploaded per loaded point, CPU time per frame while scrubbing a 10-million-point
/// cloud — and the time from launch to the first frame on screen, in a real window
/// (under the display, or a private Xvfb) and headless with EGL.
struct ViewerBenchmark {
  let recordings: [(name: String, path: String)]
  let repeats: Int
  let binary: String

  func run() throws {
    Terminal.out(
      "CloudScrub viewer benchmark; cores: \(Parallel.cores)")
    var report = BenchReport()
    if let sample = recordings.first { try uploads(sample, into: &report) }
    try framesOf10MillionPoints(into: &report)
    report.section("launch to first frame on screen (best of \(repeats))")
    let display = try DisplayForBenchmark.start()
    defer { display?.stop() }
    for recording in recordings {
      if let display {
        let window = try Stopwatch.best(runs: repeats) {
          try Self.launch(
            binary, ["view", recording.path, "--exit-after-first-frame"],
            environment: ["DISPLAY": display.name])
        }
        report.row(
          "\(recording.name): window", PLYBenchmark.seconds(window),
          "cloudscrub view, \(display.kind)")
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "cloudscrub-bench-\(getpid()).png")
      defer { try? FileManager.default.removeItem(at: folder) }
      let headless = try Stopwatch.best(runs: repeats) {
        try Self.launch(
          binary, ["render", recording.path, "--frames", "0-0", "-o", folder.path], environment: [:]
        )
      }
      report.row(
        "\(recording.name): headless", PLYBenchmark.seconds(headless),
        "cloudscrub render of frame 0 (EGL)")
    }
    if display == nil { report.row("window", "skipped", "no DISPLAY and no Xvfb to start") }
    Terminal.out(report.text)
  }

  /// Loads a recording as the window does, mirroring it after every batch, and counts
  /// what reached the GPU.
  private func uploads(_ recording: (name: String, path: String), into report: inout BenchReport)
    throws
  {
    let backend = CountingRenderBackend()
    let mirror = PointBufferMirror(backend: backend)
    let document = try DocumentOpener().open(recording.path)
    var content = ViewerContent()
    // Each delivery is uploaded as it arrives, as the window does.
    while document.load.waitForFrames(timeout: 600) {
      let taken = document.load.take()
      if taken.isEmpty { break }  // the load ended
      _ = content.absorb(taken)
      try mirror.sync(with: content.store)
    }
    let perPoint = Double(backend.uploadedPointBytes) / Double(max(1, content.store.count))
    report.section(
      "uploads while loading \(recording.name) (\(content.store.count) points, \(content.frameCount) frames)"
    )
    report.row(
      "bytes uploaded per point", PLYBenchmark.fixed(perPoint, 2),
      "\(backend.uploadCalls) upload calls",
      target: perPoint == Double(GPUPoint.byteCount), goal: "one vertex, \(GPUPoint.byteCount) B")
  }

  /// Scrubs a 10-million-point, 300-frame cloud back and forth and plays it, with a
  /// backend that only counts: the CPU side of each frame alone.
  private func framesOf10MillionPoints(into report: inout BenchReport) throws {
    let frames = 300
    let store = RenderBenchmark.randomStore(points: 10_000_000, frames: frames)
    var bounds = ViewerScene()
    bounds.include(bounds: Bounds3(min: Point3(0, 0, 0), max: Point3(10, 10, 10)))
    let backend = CountingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: store)
    var state = ViewerState(viewportWidth: 1280, viewportHeight: 800)
    state.apply(.sceneAppended(bounds))
    state.apply(.playback(.framesLoaded(timestampsSeconds: (0..<frames).map { Double($0) / 30 })))
    let uploadedBefore = backend.uploadedPointBytes
    let scrubFrames = 2 * frames
    let scrub = try Stopwatch.best(runs: repeats) {
      for step in 0..<scrubFrames {
        let frame = step < frames ? step : scrubFrames - 1 - step
        state.apply(.playback(.seek(frame: frame)))
        try renderer.sync(with: store)
        renderer.draw(state: state, store: store)
      }
    }
    let microseconds = scrub / Double(scrubFrames) * 1e6
    report.section("CPU time per frame, \(store.count) points in \(frames) frames, no GPU work")
    report.row(
      "scrub (seek + sync + draw)", "\(PLYBenchmark.fixed(microseconds, 1)) µs",
      "\(PLYBenchmark.fixed(microseconds / 16_667 * 100, 3)) % of a 60 Hz frame; "
        + "\(backend.uploadedPointBytes - uploadedBefore) bytes uploaded while scrubbing",
      target: backend.uploadedPointBytes == uploadedBefore, goal: "no upload")
    try pick(store, state: state, into: &report)
  }

  /// Clicks on a grid of places over the view of every point: the time `PointPicker`
  /// takes to find the shown point under a click.
  private func pick(_ store: PointStore, state: ViewerState, into report: inout BenchReport)
    throws
  {
    var state = state
    state.apply(.playback(.jumpToEnd))
    let cursors: [SIMD2<Float>] = (0..<16).map { k in
      let x = Float(k % 4) * 320 + 160
      let y = Float(k / 4) * 200 + 100
      return SIMD2(x, y)
    }
    var hits = 0
    let seconds = try Stopwatch.best(runs: repeats) {
      hits = 0
      for cursor in cursors {
        let request = PickRequest(
          state: state, frameRanges: store.frameRanges, cursorPixels: cursor)
        if PointPicker.pick(request, in: store) != nil { hits += 1 }
      }
    }
    let milliseconds = seconds / Double(cursors.count) * 1e3
    report.row(
      "pick a point under a click", "\(PLYBenchmark.fixed(milliseconds, 1)) ms",
      "\(store.count) points shown, \(hits) of \(cursors.count) clicks hit a point",
      target: milliseconds < 100, goal: "under 0.1 s")
  }

  /// Runs `binary` to its end, its output discarded; throws when it fails.
  static func launch(_ binary: String, _ arguments: [String], environment: [String: String]) throws
  {
    _ = try BenchProcess.run([binary] + arguments, environment: environment, errors: .discarded)
  }
}

/// The display the window benchmark uses: the session's own, or a private Xvfb.
struct DisplayForBenchmark {
  let name: String
  let kind: String
  let xvfb: Process?

  static func start() throws -> DisplayForBenchmark? {
    if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
      return DisplayForBenchmark(name: display, kind: "display \(display)", xvfb: nil)
    }
    guard
      let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(
        where: FileManager.default.isExecutableFile)
    else { return nil }
    // -displayfd: Xvfb picks a free display and writes its number once it is ready.
    // -noreset: no server reset when the last client leaves, which would refuse a
    // window that connects during it.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: xvfb)
    process.arguments = [
      "-displayfd", "1", "-noreset", "-screen", "0", "1280x800x24", "-nolisten", "tcp",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = ""
    while !text.contains("\n") {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      process.terminate()
      return nil
    }
    return DisplayForBenchmark(name: ":\(number)", kind: "Xvfb, Mesa llvmpipe", xvfb: process)
  }

  func stop() {
    xvfb?.terminate()
    xvfb?.waitUntilExit()
  }
}

/// Where the viewer benchmark finds its inputs.
enum ViewerBenchmarkSample {
  /// The synthetic sample recording, made into output/ as the README's first command
  /// makes it, when it is not there yet.
  static func path() throws -> String {
    let path = "output/sample.csrec"
    if !FileManager.default.fileExists(atPath: path) {
      try FileManager.default.createDirectory(atPath: "output", withIntermediateDirectories: true)
      try SyntheticFiles.writeRecording(
        SyntheticRecordingOptions(frameCount: 60, depthNoiseMeters: 0.002), jpeg: true, to: path)
    }
    return path
  }

  /// This very binary, which the benchmark launches.
  static var binary: String {
    Bundle.main.executablePath ?? CommandLine.arguments[0]
  }
}
