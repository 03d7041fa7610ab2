import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// E57 writing and reading speed on a synthetic coloured cloud (single-precision xyz
/// and 8-bit colour, one scan), beside pye57 (libE57Format) reading the same file and
/// writing the same points in the same run, where it is installed.
///
/// Not wired to a subcommand here: `cloudscrub bench formats` (or its own mode) calls
/// `E57Benchmark(pointCount:folder:repeats:script:).run()`.
struct E57Benchmark {
  let pointCount: Int
  /// An empty folder for the files; the caller removes it.
  let folder: String
  let repeats: Int
  /// The pye57 side (default `bench/pye57_e57.py`, run from the project's root).
  var script = "bench/pye57_e57.py"

  private var path: String { folder + "/cloud.e57" }
  private var peerOutput: String { folder + "/pye57.e57" }

  func run() throws {
    Terminal.out("CloudScrub E57 benchmark: \(pointCount) points, xyz float + rgb 8-bit, one scan")
    Terminal.out(
      "cores: \(Parallel.cores), best of \(repeats) runs\n")
    let cloud = SyntheticCloud.scene(count: pointCount, seed: 7)
    let written = PointCloud(positions: cloud.positions, colors: cloud.colors)
    let provenance = E57Provenance(software: "CloudScrub bench", description: "synthetic scene")
    let url = URL(fileURLWithPath: path)
    // Each timed write goes to a path that does not exist yet (no freeing of the last
    // file's pages inside the measurement).
    let write = try Stopwatch.best(runs: repeats) {
      try? FileManager.default.removeItem(atPath: path)
      try E57Writer.write(cloud: written, provenance: provenance, to: url)
    }
    let bytes =
      (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?
      .intValue ?? 0
    var back = try E57Reader.read(url: url)
    guard back.positions == written.positions, back.colors == written.colors else {
      throw BenchError("the E57 file did not read back equal")
    }
    back = PointCloud()
    let read = try Stopwatch.best(runs: repeats) { _ = try E57Reader.read(url: url) }

    let mb = { (seconds: Double) in Double(bytes) / seconds / 1e6 }
    let points = { (seconds: Double) in Double(pointCount) / seconds / 1e6 }
    var report = BenchReport()
    report.section("file")
    report.row(
      "e57", "\(PLYBenchmark.megabytes(bytes)) MB",
      PLYBenchmark.fixed(Double(bytes) / Double(pointCount), 2) + " bytes/point")
    report.section("CloudScrub")
    report.row(
      "write", PLYBenchmark.seconds(write),
      "\(Int(mb(write))) MB/s  \(PLYBenchmark.fixed(points(write), 1)) M points/s")
    report.row(
      "read", PLYBenchmark.seconds(read),
      "\(Int(mb(read))) MB/s  \(PLYBenchmark.fixed(points(read), 1)) M points/s")
    report.peer(
      PythonPeer(script: script, name: "pye57", install: "pip install pye57").run(arguments: [
        "--input", path, "--output", peerOutput, "--repeats", String(repeats),
      ]),
      ours: ["read": read, "write": write])
    try? FileManager.default.removeItem(atPath: peerOutput)
    Terminal.out(report.text)
  }
}
