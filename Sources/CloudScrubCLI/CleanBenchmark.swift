import CloudScrubCore
import Foundation

/// Measures voxel merging of 10 million points and statistical outlier removal of 1
/// million, beside Open3D's `voxel_down_sample` and `remove_statistical_outlier` on the
/// same data in the same run.
struct CleanBenchmark {
  let voxelPoints: Int
  let outlierPoints: Int
  let voxelSizeMeters: Float
  let repeats: Int
  let folder: String
  let open3DScript: String

  func run() throws {
    Terminal.out("CloudScrub cleaning benchmark: cores \(ProcessInfo.processInfo.activeProcessorCount), best of \(repeats) runs")
    let big = SyntheticCloud.scene(count: voxelPoints, seed: 3)
    var small = SyntheticCloud.scene(count: outlierPoints, seed: 4)
    // Scatter 1 % of the points into the room's air as outliers.
    var random = SplitMix64(seed: 5)
    for i in Swift.stride(from: 0, to: small.count, by: 100) {
      small.positions[i] = Point3(random.unit() * 4 - 2, random.unit() * 2.5, random.unit() * 4 - 2)
    }
    let bigPath = folder + "/voxel-input.ply"
    let smallPath = folder + "/outlier-input.ply"
    try PLYWriter.write(big, to: bigPath)
    try PLYWriter.write(small, to: smallPath)
    defer {
      try? FileManager.default.removeItem(atPath: bigPath)
      try? FileManager.default.removeItem(atPath: smallPath)
    }

    var merged = PointCloud()
    let voxelTime = try Stopwatch.best(runs: repeats) { merged = VoxelMerge.merge(big, voxelSizeMeters: voxelSizeMeters) }
    var kept = 0
    let sorTime = try Stopwatch.best(runs: repeats) {
      kept = OutlierRemoval.statistical(small.positions, neighbours: 20, stdRatio: 2)
        .filter { $0 }.count
    }
    var report = BenchReport()
    report.section("CloudScrub")
    report.row(
      "voxel merge", PLYBenchmark.seconds(voxelTime),
      "\(voxelPoints) → \(merged.count) points at \(voxelSizeMeters) m",
      target: voxelTime < 0.6, goal: "< 0.6 s")
    report.row(
      "statistical", PLYBenchmark.seconds(sorTime),
      "\(outlierPoints) points, k 20, std 2: kept \(kept) (k excludes the point itself)",
      target: sorTime < 1, goal: "< 1 s")
    report.peer(
      PythonPeer(script: open3DScript, name: "Open3D").run(arguments: [
        bigPath, smallPath, String(voxelSizeMeters), String(repeats),
      ]),
      ours: ["voxel_down_sample": voxelTime, "remove_statistical_outlier": sorTime])
    Terminal.out(report.text)
  }
}
