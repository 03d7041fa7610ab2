import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub bench cancel`: how soon the window's export stops after Cancel. The
/// recording is opened and loaded as the window does, then exported through the
/// window's own path (`DocumentOpener.export`, as `BackgroundExport` runs
/// it) with voxel merging, statistical outlier removal and normals: once whole, to time
/// each stage, then again for each stage with Cancel pressed at 10 %, 50 % and 90 % of
/// its time, printing the time from the cancel to the export's return. Then the write
/// alone in every format, cancelled halfway. Each cancelled run first puts a file where
/// the output goes and checks it is left as it was, with no temporary file beside it.
struct CancelBenchmark {
  let path: String
  let folder: String
  /// The cleaning panel's settings.
  let cleaning = CleaningOptions(
    voxelSizeMeters: 0.005, statistical: StatisticalOutlierOptions(neighbours: 20, stdRatio: 2),
    normalNeighbours: 20)
  static let targetSeconds = 1.0
  static let earlier = Data("an earlier export\n".utf8)

  /// One export's timeline, in seconds from its start.
  struct Run {
    var stageStarts: [(label: String, seconds: Double)] = []
    var cancelledAt: Double?
    /// What the progress showed when the cancel came.
    var stageAtCancel: String?
    var returnedAt = 0.0
    var error: (any Error)?
    /// Whether the file put where the output goes was left as it was, alone.
    var keptEarlierOutput = true
  }

  func run() throws {
    Terminal.out("CloudScrub cancel benchmark: \(path)")
    Terminal.out(
      "cores: \(Parallel.cores); load average "
        + Self.loadAverage() + "; " + (ExportJob.cleaningDescription(cleaning) ?? "no cleaning"))
    let opener = DocumentOpener()
    let opened = Date()
    let (document, content) = try Self.openAndLoad(path, opener: opener)
    var report = BenchReport()
    report.section("the window's export (\(content.store.count) points loaded)")
    report.row("open and load", PLYBenchmark.seconds(Date().timeIntervalSince(opened)))
    let output = folder + "/export.ply"
    let request = WindowExportRequest(
      document: document, content: content, visibleFrames: 0...max(0, content.frameCount - 1),
      minConfidence: .low, cleaning: cleaning, outputPath: output)
    let whole = try timed(cancelAfter: nil, output: output) { progress in
      _ = try opener.export(request, progress: progress)
    }
    if let error = whole.error { throw error }
    // Read before the cancelled runs, which leave the earlier bytes in its place.
    let cleaned = try PLYReader.read(path: output).cloud
    let stages = Self.stageWindows(whole)
    for stage in stages {
      report.row(stage.label, PLYBenchmark.seconds(stage.seconds), "uncancelled")
    }
    report.row("whole export", PLYBenchmark.seconds(whole.returnedAt))

    report.section("cancel → return, the window's export")
    var kept = true
    var worst = 0.0
    for stage in stages {
      for fraction in [0.1, 0.5, 0.9] {
        let at = stage.start + fraction * stage.seconds
        let run = try timed(cancelAfter: at, output: output) { progress in
          _ = try opener.export(request, progress: progress)
        }
        kept = kept && run.keptEarlierOutput
        worst = max(worst, record(run, name: "\(stage.label) at \(Int(fraction * 100)) %", &report))
      }
    }

    report.section("cancel → return, the write alone, halfway")
    for ext in ["ply", "pcd", "las", "e57", "xyz"] {
      let target = folder + "/write." + ext
      let job = ExportJob(sourcePath: path, outputPath: target)
      let writer = try ExportFormats.writer(for: job)
      let write = { (progress: ExportProgress) in
        _ = try CloudExport.finish(
          cleaned, stages: [], frameIndices: [], job: job, writer: writer,
          viewpoint: { _ in nil }, monitor: progress)
      }
      let full = try timed(cancelAfter: nil, output: target, write)
      if let error = full.error { throw error }
      let run = try timed(cancelAfter: full.returnedAt / 2, output: target, write)
      kept = kept && run.keptEarlierOutput
      let name = "\(ext) (\(PLYBenchmark.seconds(full.returnedAt)) whole)"
      worst = max(worst, record(run, name: name, &report))
    }
    report.section("summary")
    report.row(
      "slowest cancel", PLYBenchmark.seconds(worst), target: worst <= Self.targetSeconds,
      goal: "≤ \(PLYBenchmark.seconds(Self.targetSeconds))")
    report.row(
      "earlier outputs kept", kept ? "yes" : "NO", "no temporary file left",
      target: kept, goal: "every cancelled run")
    Terminal.out(report.text)
  }

  /// A report row for a cancelled run: the stage it was in, the step it named, and the
  /// time from the cancel to the return.
  private func record(_ run: Run, name: String, _ report: inout BenchReport) -> Double {
    guard let cancelledAt = run.cancelledAt else {
      report.row(name, "-", "finished before the cancel")
      return 0
    }
    let latency = run.returnedAt - cancelledAt
    let outcome: String
    switch run.error {
    case let cancelled as CleaningCancelled: outcome = "stopped in \(cancelled.step)"
    case let error?: outcome = "failed: \(error)"
    case nil: outcome = "finished anyway"
    }
    report.row(
      name, PLYBenchmark.seconds(latency),
      "showing \(run.stageAtCancel ?? "no stage yet"); \(outcome)",
      target: latency <= Self.targetSeconds && run.error is CleaningCancelled,
      goal: "≤ \(PLYBenchmark.seconds(Self.targetSeconds))")
    return latency
  }

  /// Runs `export` with a fresh progress, pressing Cancel `cancelAfter` seconds after
  /// it starts (from another thread, as the window's frame loop does).
  private func timed(
    cancelAfter: Double?, output: String, _ export: (ExportProgress) throws -> Void
  ) throws -> Run {
    let clock = RunClock()
    let progress = ExportProgress { stage in clock.stageStarted(stage.label) }
    if cancelAfter != nil { try Self.earlier.write(to: URL(fileURLWithPath: output)) }
    let canceller = BackgroundWork<Never>()
    if let cancelAfter {
      canceller.start {
        Thread.sleep(forTimeInterval: cancelAfter)
        let shown = progress.snapshot.stage?.label
        clock.cancelled(showing: shown)
        progress.cancel()
        return nil
      }
    }
    var failure: (any Error)?
    do { try export(progress) } catch { failure = error }
    var run = clock.finished()
    run.error = failure
    if cancelAfter != nil {
      // Wait for the canceller, so that no run's cancel lands in the next one.
      canceller.waitUntilIdle()
      run.cancelledAt = clock.snapshot().cancelledAt
      run.stageAtCancel = clock.snapshot().stageAtCancel
      if let cancelledAt = run.cancelledAt, cancelledAt > run.returnedAt { run.cancelledAt = nil }
      let left = try FileManager.default.contentsOfDirectory(atPath: folder)
      let name = URL(fileURLWithPath: output).lastPathComponent
      // A missing output was not kept; one that cannot be read is a failure to report.
      let unchanged =
        try FileManager.default.fileExists(atPath: output)
        && Data(contentsOf: URL(fileURLWithPath: output)) == Self.earlier
      let temporary = left.contains { $0.contains(name + ".tmp") }
      run.keptEarlierOutput = failure == nil || (unchanged && !temporary)
    }
    return run
  }

  /// Each stage's start and length, the gathering of the shown points before the first.
  static func stageWindows(_ run: Run) -> [(label: String, start: Double, seconds: Double)] {
    var windows: [(label: String, start: Double, seconds: Double)] = []
    let starts =
      [("gathering the shown points", 0.0)] + run.stageStarts.map { ($0.label, $0.seconds) }
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1].1 : run.returnedAt
      windows.append((start.0, start.1, end - start.1))
    }
    return windows
  }

  /// Opens and loads `path` as the window does, waiting for the whole load.
  static func openAndLoad(_ path: String, opener: DocumentOpener) throws
    -> (ViewerDocument, ViewerContent)
  {
    let document = try opener.open(path)
    var content = ViewerContent()
    while true {
      _ = content.absorb(document.load.take())
      if case .finished = document.load.status {
        _ = content.absorb(document.load.take())
        return (document, content)
      }
      if case .failed(let reason) = document.load.status {
        throw UsageError("\(path) did not load: \(reason)")
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
  }

  static func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    guard getloadavg(&loads, 3) == 3 else { return "unknown" }
    return loads.map { PLYBenchmark.fixed($0, 1) }.joined(separator: " ")
  }
}

/// The times of one run, written by the exporting and the cancelling threads.
private final class RunClock: @unchecked Sendable {
  private let lock = NSLock()
  private let start = DispatchTime.now().uptimeNanoseconds
  private var run = CancelBenchmark.Run()

  private func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  func stageStarted(_ label: String) {
    let seconds = now()
    lock.lock()
    run.stageStarts.append((label, seconds))
    lock.unlock()
  }

  func cancelled(showing stage: String?) {
    let seconds = now()
    lock.lock()
    run.cancelledAt = seconds
    run.stageAtCancel = stage
    lock.unlock()
  }

  func finished() -> CancelBenchmark.Run {
    let seconds = now()
    lock.lock()
    defer { lock.unlock() }
    run.returnedAt = seconds
    return run
  }

  func snapshot() -> CancelBenchmark.Run {
    lock.lock()
    defer { lock.unlock() }
    return run
  }
}
