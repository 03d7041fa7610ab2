import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub bench scale`: how export and render hold up on a long capture: wall
/// time and peak resident memory of each, run as a child process of this binary so
/// that each has its own peak, beside what holding every raw point would take and
/// beside reading the recording with `cat` (the machine's own limit) in the same run.
struct ScaleBenchmark {
  /// The recording to measure; nil makes a synthetic one of `frames` frames.
  var recording: String?
  var frames: Int
  var binary: String
  var folder: String
  /// The steps to run (`allSteps` names them).
  var steps: Set<String> = ScaleBenchmark.allSteps

  /// Every step, in the order they run.
  static let stepOrder = ["cat", "raw", "voxel", "merge", "render", "lod", "window", "ply"]
  static let allSteps = Set(stepOrder)

  /// The steps `list` names (comma-separated), or every step for nil.
  ///
  /// - Throws: `BenchError` naming a step that does not exist.
  static func steps(_ list: String?) throws -> Set<String> {
    try steps(list, of: stepOrder, mode: "scale")
  }

  /// The steps of `order` that `list` names (comma-separated), or all of them for nil.
  ///
  /// - Throws: `BenchError` naming a step that is not one of `mode`'s.
  static func steps(_ list: String?, of order: [String], mode: String) throws -> Set<String> {
    guard let list else { return Set(order) }
    let named = Set(list.split(separator: ",").map { String($0) })
    let unknown = named.subtracting(order).sorted()
    guard unknown.isEmpty else {
      throw BenchError(
        "--steps: no step '\(unknown.joined(separator: ", "))' in bench \(mode) (steps: "
          + "\(order.joined(separator: ", ")))")
    }
    return named
  }

  func run() throws {
    let path: String
    if let recording {
      path = recording
    } else {
      path = folder + "/scale.csrec"
      Terminal.error("making a \(frames)-frame synthetic recording…")
      _ = try measure(["synth", path, "--frames", String(frames)])
    }
    let source = try InputDetector.openRecording(path)
    let d = source.description
    let rawPoints = source.frameCount * d.depthWidth * d.depthHeight
    var report = BenchReport()
    report.section(
      "scale: \(path), \(source.frameCount) frames of \(d.depthWidth)×\(d.depthHeight) "
        + "(at most \(PLYBenchmark.fixed(Double(rawPoints) / 1e6, 1)) M points)")
    let out = folder + "/scale-out"
    // A folder recording is read file by file.
    var cat = BenchProcess.Run(seconds: 0, peakBytes: 0, cpuSeconds: 0)
    if steps.contains("cat") {
      cat = try measure(
        ["/bin/sh", "-c", "find '\(path)' -type f -exec cat {} + > /dev/null"], tool: true)
      report.row(
        "cat the recording", PLYBenchmark.seconds(cat.seconds), "the machine's read limit")
    }
    let holding = rawPoints * PointStore.bytesPerPoint
    report.row(
      "every raw point held", PLYBenchmark.megabytes(holding) + " MB",
      "what an export that keeps the merged cloud needs at least")
    let runs: [(String, String, [String], Int?)] = [
      ("raw", "export, raw", ["export", path, "-o", out + ".ply"], 1 << 30),
      (
        "voxel", "export --voxel 0.005", ["export", path, "-o", out + ".ply", "--voxel", "0.005"],
        1 << 30
      ),
      (
        "merge", "export --merge 0.005", ["export", path, "-o", out + ".ply", "--merge", "0.005"],
        1 << 30
      ),
      (
        "render", "render --merge 0.005",
        ["render", path, "-o", out + ".png", "--merge", "0.005"], nil
      ),
    ]
    for (step, name, arguments, limit) in runs where steps.contains(step) {
      let run = try measure(arguments)
      let ratio =
        cat.seconds > 0 ? "\(PLYBenchmark.fixed(run.seconds / cat.seconds, 1))× cat, " : ""
      report.row(
        name, PLYBenchmark.seconds(run.seconds),
        "peak \(PLYBenchmark.megabytes(run.peakBytes)) MB, "
          + "\(PLYBenchmark.fixed(run.cpuSeconds, 1)) s CPU, \(ratio)"
          + "\(PLYBenchmark.fixed(Double(run.peakBytes) / Double(max(holding, 1)) * 100, 1)) % of holding",
        target: limit.map { run.peakBytes <= $0 }, goal: limit.map { _ in "≤ 1 GB" } ?? "")
      try? FileManager.default.removeItem(atPath: out + ".ply")
      try? FileManager.default.removeItem(atPath: out + ".png")
    }
    if steps.contains("lod") { try levelOfDetail(source, into: &report) }
    if steps.contains("window") { try window(path, into: &report) }
    if steps.contains("ply") { try hugePLY(into: &report) }
    Terminal.out(report.text)
  }

  /// Runs `arguments` (this binary's, unless `tool`) to the end and reads its wall time
  /// and peak resident memory.
  func measure(_ arguments: [String], tool: Bool = false) throws -> BenchProcess.Run {
    try BenchProcess.run(tool ? arguments : [binary] + arguments)
  }
}
