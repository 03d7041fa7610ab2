import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
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
        + "cores: \(Parallel.cores), best of \(repeats) runs")
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
    var refinedPoses: [Transform3D] = []
    var voxelSize: Float = 0.02
    let refine = try Stopwatch.best(runs: repeats) {
      let start = Self.cpuSeconds()
      // As `DriftAlignment.run` does: the error of one batch measured on a second core
      // while the next is refined.
      var aligner = FrameAligner(
        options: options, refines: true, worldUp: source.description.worldUp)
      var pending: [FrameAligner.PendingFrame] = []
      refinedPoses = []
      for start in Swift.stride(from: 0, to: frames.count, by: 16) {
        let batch = Array(frames[start..<min(frames.count, start + 16)])
        refinedPoses += aligner.add(batch, pending: &pending).map(\.worldFromCamera)
      }
      refinedPoses += aligner.add([], pending: &pending).map(\.worldFromCamera)
      refineCPU = min(refineCPU, Self.cpuSeconds() - start)
      voxelSize = aligner.voxelSizeMeters ?? voxelSize
    }
    var result: DriftAlignment.Result?
    let whole = try Stopwatch.best(runs: repeats) {
      result = try DriftAlignment.run(source, options: options, refine: true)
    }
    let sample = try GhostingSample.read(source, options: options)
    let recovered = try Self.syntheticRecovery(tiltDegrees: 0)
    let tilted = try Self.syntheticRecovery(tiltDegrees: 2)

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
      "\(Int(rate(refine))) frames/s (\(Int(rate(refineCPU))) a CPU second, two threads)",
      target: rate(refine) >= 300, goal: "≥ 300 frames/s")
    report.row(
      "refine, whole pass", PLYBenchmark.seconds(whole),
      "\(Int(rate(whole))) frames/s with reading the frames, loops closed",
      target: rate(whole) >= 300, goal: "≥ 300 frames/s")
    if let result {
      try ghostingSection(
        &report, source: source, result: result, sample: sample, options: options,
        wholeSeconds: whole)
    }
    report.section("how refinement moved the real capture's cameras")
    for line in Self.movementLines(
      frames, refined: refinedPoses, voxelSizeMeters: voxelSize, up: source.description.worldUp)
    {
      report.row(line.0, line.1, line.2)
    }
    report.section("synthetic capture, 90 frames, drift 0.1 m and 3° at the last")
    report.row(
      "camera centres off", PLYBenchmark.fixed(recovered.before * 1000, 1) + " mm",
      "→ " + PLYBenchmark.fixed(recovered.after * 1000, 1) + " mm refined ("
        + PLYBenchmark.fixed(100 * recovered.after / recovered.before, 1) + " % left)",
      target: recovered.after < 0.2 * recovered.before, goal: "< 20 % of the drift")
    report.row(
      "camera up off gravity", PLYBenchmark.fixed(recovered.tiltBefore, 2) + "°",
      "→ " + PLYBenchmark.fixed(recovered.tiltAfter, 2) + "° refined, at most")
    report.section("the same, drift also tilted 2° off gravity (about +z)")
    report.row(
      "camera centres off", PLYBenchmark.fixed(tilted.before * 1000, 1) + " mm",
      "→ " + PLYBenchmark.fixed(tilted.after * 1000, 1) + " mm refined ("
        + PLYBenchmark.fixed(100 * tilted.after / tilted.before, 1) + " % left)")
    report.row(
      "camera up off gravity", PLYBenchmark.fixed(tilted.tiltBefore, 2) + "°",
      "→ " + PLYBenchmark.fixed(tilted.tiltAfter, 2) + "° refined, at most")
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    report.section("memory")
    report.row("peak resident", PLYBenchmark.fixed(Double(usage.ru_maxrss) / 1024, 0) + " MB", "")
    Terminal.out(report.text)
  }

  /// How far refinement moved the cameras (mean, most, and along the capture), and how
  /// well frame pairs agree (`FramePairResidual`) under the recorded and refined poses.
  static func movementLines(
    _ frames: [AlignmentFrame], refined: [Transform3D], voxelSizeMeters: Float, up: WorldUp
  ) -> [(String, String, String)] {
    guard frames.count > 1, refined.count == frames.count else { return [] }
    func mm(_ meters: Double) -> String { PLYBenchmark.fixed(meters * 1000, 1) }
    let moved = zip(frames, refined).map { frame, pose in
      let d = pose.translation - frame.worldFromCamera.translation
      return (d * d).sum().squareRoot()
    }
    let turned = zip(frames, refined).map { frame, pose in
      let v = (pose * frame.worldFromCamera.rigidInverse).rotationVector
      return (v * v).sum().squareRoot() * 180 / Double.pi
    }
    let tilted = zip(frames, refined).map { frame, pose in
      up.tiltRadians(of: pose * frame.worldFromCamera.rigidInverse) * 180 / Double.pi
    }
    let mean = moved.reduce(0, +) / Double(moved.count)
    var lines = [
      (
        "camera centres moved", "mean \(mm(mean)) mm ",
        "at most \(mm(moved.max() ?? 0)) mm; turned at most "
          + PLYBenchmark.fixed(turned.max() ?? 0, 2) + "°"
      ),
      (
        "tilted off up",
        "mean " + PLYBenchmark.fixed(tilted.reduce(0, +) / Double(tilted.count), 2)
          + "° ", "at most " + PLYBenchmark.fixed(tilted.max() ?? 0, 2) + "°"
      ),
    ]
    let marks = Swift.stride(from: 0, to: frames.count, by: max(1, frames.count / 8))
    lines.append(
      (
        "moved along the capture", "",
        marks.map { "\($0): \(mm(moved[$0]))" }.joined(separator: ", ") + " mm"
      ))
    let last = frames.count - 1
    for (a, b) in [(0, min(30, last)), (0, last / 2), (0, last), (last / 2, last)] where a != b {
      let before = FramePairResidual(
        frames[a], frames[a].worldFromCamera, frames[b], frames[b].worldFromCamera,
        voxelSizeMeters: voxelSizeMeters)
      let after = FramePairResidual(
        frames[a], refined[a], frames[b], refined[b], voxelSizeMeters: voxelSizeMeters)
      func text(_ r: FramePairResidual) -> String {
        "\(r.medianMeters.map { mm(Double($0)) } ?? "-") mm, "
          + PLYBenchmark.fixed(100 * r.overlap, 1) + " % within 1 cm"
      }
      lines.append(("frames \(a) and \(b)", text(before) + " ", "→ " + text(after) + " refined"))
    }
    return lines
  }

  /// This process's user and system CPU time so far: beside wall time it shows how much
  /// of a core a loaded machine gave the single-threaded alignment.
  static func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// The largest camera-centre error (metres) and tilt of the camera's up direction off
  /// the true one (degrees) of a drifted synthetic capture before and after refinement:
  /// 0.1 m and 3° of yaw at the last frame, and `tiltDegrees` about +z.
  static func syntheticRecovery(tiltDegrees: Double) throws -> (
    before: Double, after: Double, tiltBefore: Double, tiltAfter: Double
  ) {
    let options = SyntheticRecordingOptions(
      frameCount: 90, colorWidth: 64, colorHeight: 48, depthNoiseMeters: 0.0005, seed: 3,
      drift: SyntheticDrift(
        translationMeters: 0.1, rotationRadians: 3 * Double.pi / 180,
        tiltRadians: tiltDegrees * Double.pi / 180))
    let source = SyntheticRecordingSource(options: options)
    let refined = try DriftAlignment.run(source, refine: true)
    var before = 0.0
    var after = 0.0
    var tiltBefore = 0.0
    var tiltAfter = 0.0
    let up = source.description.worldUp
    for index in 0..<source.frameCount {
      let truth = source.truePose(at: index)
      let a = source.pose(at: index).position - truth.position
      let b = refined.poses[index].position - truth.position
      before = max(before, (a * a).sum().squareRoot())
      after = max(after, (b * b).sum().squareRoot())
      let inverse = truth.worldFromCamera.rigidInverse
      tiltBefore = max(
        tiltBefore, up.tiltRadians(of: source.pose(at: index).worldFromCamera * inverse))
      tiltAfter = max(tiltAfter, up.tiltRadians(of: refined.poses[index].worldFromCamera * inverse))
    }
    let degrees = 180 / Double.pi
    return (before, after, tiltBefore * degrees, tiltAfter * degrees)
  }
}
