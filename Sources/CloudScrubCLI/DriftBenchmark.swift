import CloudScrubCore
import CloudScrubFormats
import Foundation

/// `cloudscrub bench drift`: the speed of the alignment pass on a real capture (the
/// alignment error alone, and refinement) and how much of a known synthetic drift
/// refinement takes back.
struct DriftBenchmark {
  let path: String
  let repeats: Int

  func run() throws {
    let source = try InputDetector.openRecording(path)
    let count = source.frameCount
    let options = AlignmentOptions()
    Terminal.out("CloudScrub drift benchmark: \(path)")
    Terminal.out(
      "\(count) frames, depth \(source.description.depthWidth)×\(source.description.depthHeight); "
        + "cores: \(ProcessInfo.processInfo.activeProcessorCount), best of \(repeats) runs")
    var frames: [AlignmentFrame] = []
    let prepare = try Stopwatch.best(runs: repeats) {
      frames = try DriftAlignment.prepare(source, 0..<count, options: options)
    }
    let points = frames.reduce(0) { $0 + $1.pointsInCamera.count }
    var measureCPU = Double.infinity
    let measure = try Stopwatch.best(runs: repeats) {
      let start = Self.cpuSeconds()
      var aligner = FrameAligner(options: options, refines: false)
      for frame in frames { _ = aligner.add(frame) }
      measureCPU = min(measureCPU, Self.cpuSeconds() - start)
    }
    var refineCPU = Double.infinity
    let refine = try Stopwatch.best(runs: repeats) {
      let start = Self.cpuSeconds()
      var aligner = FrameAligner(options: options, refines: true)
      for frame in frames { _ = aligner.add(frame) }
      refineCPU = min(refineCPU, Self.cpuSeconds() - start)
    }
    let whole = try Stopwatch.best(runs: repeats) {
      _ = try DriftAlignment.run(source, options: options, refine: true)
    }
    let recovered = try Self.syntheticRecovery()

    var report = BenchReport()
    func rate(_ seconds: Double) -> Double { Double(count) / seconds }
    report.section("real capture (\(points / max(count, 1)) points a frame)")
    report.row(
      "read + subsample", PLYBenchmark.seconds(prepare), "\(Int(rate(prepare))) frames/s")
    report.row(
      "alignment error", PLYBenchmark.seconds(measure),
      "\(Int(rate(measure))) frames/s (\(Int(rate(measureCPU))) a CPU second, one core)",
      target: rate(measure) >= 300, goal: "≥ 300 frames/s")
    report.row(
      "refinement + error", PLYBenchmark.seconds(refine),
      "\(Int(rate(refine))) frames/s (\(Int(rate(refineCPU))) a CPU second, one core)",
      target: rate(refine) >= 300, goal: "≥ 300 frames/s")
    report.row(
      "refine, whole pass", PLYBenchmark.seconds(whole),
      "\(Int(rate(whole))) frames/s with reading the frames")
    report.section("synthetic capture, 90 frames, drift 0.1 m and 3° at the last")
    report.row(
      "camera centres off", PLYBenchmark.fixed(recovered.before * 1000, 1) + " mm",
      "→ " + PLYBenchmark.fixed(recovered.after * 1000, 1) + " mm refined ("
        + PLYBenchmark.fixed(100 * recovered.after / recovered.before, 1) + " % left)",
      target: recovered.after < 0.2 * recovered.before, goal: "< 20 % of the drift")
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    report.section("memory")
    report.row("peak resident", PLYBenchmark.fixed(Double(usage.ru_maxrss) / 1024, 0) + " MB", "")
    Terminal.out(report.text)
  }

  /// This process's user and system CPU time so far: beside wall time it shows how much
  /// of a core a loaded machine gave the single-threaded alignment.
  static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// The largest camera-centre error of a drifted synthetic capture before and after
  /// refinement, in metres.
  static func syntheticRecovery() throws -> (before: Double, after: Double) {
    let options = SyntheticRecordingOptions(
      frameCount: 90, colorWidth: 64, colorHeight: 48, depthNoiseMeters: 0.0005, seed: 3,
      drift: SyntheticDrift(translationMeters: 0.1, rotationRadians: 3 * Double.pi / 180))
    let source = SyntheticRecordingSource(options: options)
    let refined = try DriftAlignment.run(source, refine: true)
    var before = 0.0
    var after = 0.0
    for index in 0..<source.frameCount {
      let truth = source.truePose(at: index).position
      let a = source.pose(at: index).position - truth
      let b = refined.poses[index].position - truth
      before = max(before, (a * a).sum().squareRoot())
      after = max(after, (b * b).sum().squareRoot())
    }
    return (before, after)
  }
}
