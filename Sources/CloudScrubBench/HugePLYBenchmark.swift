import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub bench huge [PLY]`: only the huge-PLY figures, on a given binary PLY or a
/// synthetic one of `--points` points written into `--dir` (and removed after): the
/// real window's first frame beside a 1,000-point file's (the window's own start-up,
/// measured in the same run), the window's load, idle CPU, drag answer and peak memory
/// from outside, then the in-process load (first picture, level of detail complete,
/// peak memory).
struct HugePLYBenchmark {
  var path: String?
  var points: Int
  var folder: String
  var binary: String
  /// The steps to run: the window's first frame, the window's load and drag, the load
  /// in this process.
  var steps: Set<String> = Self.allSteps

  static let stepOrder = ["first", "window", "process"]
  static let allSteps = Set(stepOrder)

  /// The steps `list` names (comma-separated), or every step for nil.
  static func steps(_ list: String?) throws -> Set<String> {
    try ScaleBenchmark.steps(list, of: stepOrder, mode: "huge")
  }

  /// Seconds a `view --exit-after-first-frame` run may take before it is stopped.
  static let firstFrameTimeoutSeconds = 300.0

  func run() throws {
    var report = BenchReport()
    let scale = ScaleBenchmark(recording: nil, frames: 0, binary: binary, folder: folder)
    let file = path ?? folder + "/huge.ply"
    report.section("huge PLY: \(file)")
    if path == nil {
      try ScaleBenchmark.writeHugePLY(points: points, to: file, into: &report)
    }
    defer { if path == nil { try? FileManager.default.removeItem(atPath: file) } }

    if steps.contains("first") { try firstFrames(file, into: &report) }
    // What is measured so far goes to standard error after each step, so that a run
    // stopped on a file too large for the time it was given still tells something.
    if steps.contains("window") {
      Terminal.error(report.text)
      try scale.window(file, into: &report)
    }
    if steps.contains("process") {
      Terminal.error(report.text)
      try scale.hugePLY(file, into: &report)
    }
    Terminal.out(report.text)
  }

  /// The window's first frame on `file`, between two of a 1,000-point file's (written
  /// beside it under a name no other file has, and removed after).
  private func firstFrames(_ file: String, into report: inout BenchReport) throws {
    let tiny = folder + "/cloudscrub-bench-tiny-\(getpid()).ply"
    try SyntheticCloud.writeScene(count: 1000, seed: 1, normals: false, comments: [], to: tiny)
    defer { try? FileManager.default.removeItem(atPath: tiny) }
    if let display = try DisplayForBenchmark.start() {
      defer { display.stop() }
      let runs = [("1,000-point file", tiny), ("huge PLY", file), ("1,000-point file", tiny)]
      for (name, target) in runs {
        let (printed, wall) = try Self.firstFrame(binary, target, display: display.name)
        report.row(
          "window first frame, \(name)", PLYBenchmark.seconds(printed),
          "as the window prints it (from its start, GLFW, GL and ImGui included); "
            + "process \(PLYBenchmark.seconds(wall)) to exit; \(display.kind)")
      }
    } else {
      report.row("window first frame", "skipped", "no DISPLAY and no Xvfb to start")
    }
  }

  /// Runs `view PATH --exit-after-first-frame`; returns the seconds it printed and the
  /// process's wall time.
  static func firstFrame(_ binary: String, _ path: String, display: String) throws -> (
    Double, Double
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["view", path, "--exit-after-first-frame", "--alignment", "off"]
    process.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) {
      _, new in new
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let started = Date()
    try process.run()
    // Stops a window that never draws, so that the read below ends.
    let watchdog = BackgroundWork<Never>()
    let deadline = started.addingTimeInterval(firstFrameTimeoutSeconds)
    nonisolated(unsafe) let child = process
    watchdog.start {
      while child.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
      if child.isRunning { child.terminate() }
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.waitUntilIdle()
    let wall = Date().timeIntervalSince(started)
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0,
      let line = text.split(separator: "\n").first(where: { $0.contains("first frame") }),
      let seconds = line.split(separator: " ").compactMap({ Double($0) }).first
    else {
      throw BenchError("cloudscrub view \(path) --exit-after-first-frame printed no time: \(text)")
    }
    return (seconds, wall)
  }
}
