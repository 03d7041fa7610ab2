import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// Measures voxel merging of 10 million points and statistical outlier removal of 1
/// million, beside Open3D's `voxel_down_sample` and `remove_statistical_outlier` and,
/// where Debian's pcl-tools is installed, PCL's `pcl_voxel_grid` and
/// `pcl_outlier_removal`, on the same data in the same run.
///
/// Besides the best wall-clock time it prints the process's CPU time for that run (less
/// sensitive to other processes on a shared machine) and the peak resident-memory growth
/// of one more run, measured the same way as the Open3D script does. With
/// `CLOUDSCRUB_BENCH_OURS_ONLY=1` in the environment, Open3D is skipped.
struct CleanBenchmark {
  let voxelPoints: Int
  let outlierPoints: Int
  let voxelSizeMeters: Float
  let repeats: Int
  let folder: String
  let open3DScript: String

  func run() throws {
    Terminal.out(
      "CloudScrub cleaning benchmark: cores \(Parallel.cores), best of \(repeats) runs"
    )
    let oursOnly = ProcessInfo.processInfo.environment["CLOUDSCRUB_BENCH_OURS_ONLY"] == "1"
    let big = SyntheticCloud.scene(count: voxelPoints, seed: 3)
    var small = SyntheticCloud.scene(count: outlierPoints, seed: 4)
    // Scatter 1 % of the points into the room's air as outliers.
    var random = SplitMix64(seed: 5)
    for i in Swift.stride(from: 0, to: small.count, by: 100) {
      small.positions[i] = Point3(random.unit() * 4 - 2, random.unit() * 2.5, random.unit() * 4 - 2)
    }
    let bigPath = folder + "/voxel-input.ply"
    let smallPath = folder + "/outlier-input.ply"
    if !oursOnly {
      try PLYWriter.write(big, to: bigPath)
      try PLYWriter.write(small, to: smallPath)
    }
    defer {
      try? FileManager.default.removeItem(atPath: bigPath)
      try? FileManager.default.removeItem(atPath: smallPath)
    }

    var merged = PointCloud()
    let voxel = try CleanTiming.measure(runs: repeats) {
      merged = VoxelMerge.merge(big, voxelSizeMeters: voxelSizeMeters)
    }
    let mergedCount = merged.count
    merged = PointCloud()
    let voxelPeak = CleanTiming.peakGrowthMB {
      merged = VoxelMerge.merge(big, voxelSizeMeters: voxelSizeMeters)
    }
    merged = PointCloud()
    var kept = 0
    let sor = try CleanTiming.measure(runs: repeats) {
      kept =
        OutlierRemoval.statistical(small.positions, neighbours: 20, stdRatio: 2)
        .filter { $0 }.count
    }
    let sorPeak = CleanTiming.peakGrowthMB {
      // Held until the peak is read, as the merged cloud above is.
      let keep = OutlierRemoval.statistical(small.positions, neighbours: 20, stdRatio: 2)
      withExtendedLifetime(keep) {}
    }
    var report = BenchReport()
    report.section("CloudScrub")
    report.row(
      "voxel merge", PLYBenchmark.seconds(voxel.seconds),
      "\(voxelPoints) → \(mergedCount) points at \(voxelSizeMeters) m; "
        + "CPU \(PLYBenchmark.seconds(voxel.cpuSeconds)), "
        + "peak +\(CleanTiming.megabytes(voxelPeak))",
      target: voxel.seconds < 0.6, goal: "< 0.6 s")
    report.row(
      "statistical", PLYBenchmark.seconds(sor.seconds),
      "\(outlierPoints) points, k 20, std 2: kept \(kept) (k excludes the point itself); "
        + "CPU \(PLYBenchmark.seconds(sor.cpuSeconds)), peak +\(CleanTiming.megabytes(sorPeak))",
      target: sor.seconds < 1, goal: "< 1 s")
    guard !oursOnly else {
      Terminal.out(report.text)
      return
    }
    let peer = PythonPeer(script: open3DScript, name: "Open3D").run(arguments: [
      bigPath, smallPath, String(voxelSizeMeters), String(repeats),
    ])
    report.peer(
      CleanTiming.times(of: peer),
      ours: ["voxel_down_sample": voxel.seconds, "remove_statistical_outlier": sor.seconds])
    report.peer(
      PCLPeer().measure(
        voxelInput: bigPath, outlierInput: smallPath, leafMeters: voxelSizeMeters, neighbours: 20,
        stdRatio: 2,
        repeats: repeats),
      ours: ["pcl_voxel_grid": voxel.seconds, "pcl_outlier_removal": sor.seconds])
    if case .measured(_, let figures) = peer {
      report.section("peak memory growth (one run each)")
      for (name, key, ours) in [
        ("voxel merge", "voxel_down_sample", voxelPeak),
        ("statistical", "remove_statistical_outlier", sorPeak),
      ] {
        let theirs = figures[key + "_peak_mb"]
        report.row(
          name, "+" + CleanTiming.megabytes(ours),
          theirs.map { "Open3D +" + CleanTiming.megabytes($0) } ?? "Open3D not measured",
          target: theirs.map { ours <= $0 }, goal: "≤ Open3D's")
      }
    }
    Terminal.out(report.text)
  }
}

/// Timing and memory figures for the cleaning benchmark.
enum CleanTiming {
  /// The best of `runs` runs: its wall-clock seconds and the process's CPU seconds.
  static func measure(runs: Int, _ body: () throws -> Void) throws -> (
    seconds: Double, cpuSeconds: Double
  ) {
    var best = (seconds: Double.infinity, cpuSeconds: Double.infinity)
    for _ in 0..<max(runs, 1) {
      let cpuStart = cpuSeconds()
      let start = ContinuousClock.now
      try body()
      let elapsed = ContinuousClock.now - start
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      if seconds < best.seconds { best = (seconds, cpuSeconds() - cpuStart) }
    }
    return best
  }

  /// User and system CPU time of the whole process so far, every thread together.
  static func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// How far the resident set rose above its level before `body`, in MB (10⁶ bytes):
  /// the kernel's peak (VmHWM) is reset first by writing 5 to /proc/self/clear_refs.
  /// NaN where /proc is missing.
  static func peakGrowthMB(_ body: () -> Void) -> Double {
    // Freed heap memory still counts as resident until it is handed back.
    trimHeap()
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    let before = statusKilobytes("VmRSS")
    body()
    let peak = statusKilobytes("VmHWM")
    return (peak - before) * 1024 / 1e6
  }

  /// glibc's `malloc_trim(0)`, looked up at run time (Swift's Glibc module leaves it out).
  private static func trimHeap() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
  }

  private static func statusKilobytes(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return .nan
    }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let digits = line.split(separator: " ").compactMap { Double($0) }
      return digits.first ?? .nan
    }
    return .nan
  }

  static func megabytes(_ value: Double) -> String {
    value.isNaN ? "?" : "\(Int(value.rounded())) MB"
  }

  /// The peer's result with only its times, memory figures left out.
  static func times(of result: PeerResult) -> PeerResult {
    guard case .measured(let name, let figures) = result else { return result }
    return .measured(name: name, seconds: figures.filter { !$0.key.hasSuffix("_peak_mb") })
  }
}
