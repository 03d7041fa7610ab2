import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// Measures loading a recording (decode, unproject, filter, accumulate) against decoding
/// its frames alone, in the same run, and Open3D's RGB-D pipeline on the same frames.
struct IngestBenchmark {
  let path: String
  let repeats: Int
  let open3DScript: String

  func run() throws {
    let source = try InputDetector.openRecording(path)
    let frames = source.frameCount
    let decoder = TurboJPEGDecoder()
    let d = source.description
    Terminal.out("CloudScrub ingest benchmark: \(path)")
    Terminal.out(
      "\(frames) frames, depth \(d.depthWidth)×\(d.depthHeight), colour "
        + "\(d.colorWidth ?? 0)×\(d.colorHeight ?? 0); cores: "
        + "\(Parallel.cores), best of \(repeats) runs")

    // Decoding alone: every frame's depth and colour, on every core, as the loader does.
    let decodeOnly = try Stopwatch.best(runs: repeats) { try FormatsBenchmark.decodeAll(source) }
    var store = PointStore()
    let ingest = try Stopwatch.best(runs: repeats) {
      store = try RecordingLoader(source: source, decoder: decoder).load()
    }
    let bytesPerPoint = Double(store.storageByteCount) / Double(max(store.count, 1))

    var report = BenchReport()
    report.section("CloudScrub (all frames, default filters)")
    report.row(
      "decode only", PLYBenchmark.seconds(decodeOnly),
      "\(Int(Double(frames) / decodeOnly)) frames/s")
    report.row(
      "ingest", PLYBenchmark.seconds(ingest),
      "\(Int(Double(frames) / ingest)) frames/s  \(PLYBenchmark.fixed(ingest / decodeOnly, 2))× decode",
      target: Double(frames) / ingest >= 300 && ingest <= 1.3 * decodeOnly,
      goal: "≥ 300 frames/s and ≤ 1.3× decode")
    report.row(
      "points", "\(store.count)",
      "\(PLYBenchmark.fixed(bytesPerPoint, 1)) bytes/point in memory",
      target: bytesPerPoint <= 20, goal: "≤ 20 bytes/point")
    report.peer(
      Open3DIngestPeer(script: open3DScript).measure(path: path, frames: frames),
      ours: ["frames_per_second": Double(frames) / ingest], higherIsBetter: true)
    Terminal.out(report.text)
  }
}

/// Open3D's `create_from_rgbd_image` on the same frames, through a Python script.
struct Open3DIngestPeer {
  let script: String

  func measure(path: String, frames: Int) -> PeerResult {
    PythonPeer(script: script, name: "Open3D RGB-D pipeline").run(arguments: [path])
  }
}
