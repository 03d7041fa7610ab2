import CloudScrubFormats
import CloudScrubSession
import Foundation

/// Measures LZFSE decoding on the reference encoder's test vectors and prints MB/s of
/// output, beside the reference C library (liblzfse through Python) on the same
/// streams in the same run when it is installed.
struct LZFSEBenchmark {
  /// The vectors timed, largest first; the first is the one the target applies to.
  static let vectors = ["structured-6m", "depth-256x192-f32", "text-64k", "confidence-256x192-u8"]
  static let targetMBPerSecond = 500.0

  let folder: String
  let repeats: Int
  let peerScript: String

  func run() throws {
    Terminal.out("CloudScrub LZFSE decoding benchmark: vectors in \(folder)")
    Terminal.out("single thread, best of \(repeats) runs\n")
    var report = BenchReport()
    report.section("CloudScrub (pure Swift)")
    var ours: [String: Double] = [:]
    var paths: [String] = []
    for (index, name) in Self.vectors.enumerated() {
      let path = folder + "/" + name + ".lzfse"
      guard let data = FileManager.default.contents(atPath: path) else {
        throw BenchError(
          "\(path) not found (run from the project's root, or make it with "
            + "scripts/make-lzfse-vectors.py)")
      }
      let stream = [UInt8](data)
      let size = try LZFSE.decode(stream).count
      // Small streams are decoded many times per timed run so that a run lasts long
      // enough to time.
      let rounds = max(1, 32_000_000 / max(size, 1))
      let seconds =
        try Stopwatch.best(runs: repeats) {
          for _ in 0..<rounds { _ = try LZFSE.decode(stream) }
        } / Double(rounds)
      let rate = Double(size) / seconds / 1e6
      ours[name + ".lzfse"] = seconds
      paths.append(path)
      report.row(
        name, "\(Int(rate)) MB/s",
        "\(PLYBenchmark.megabytes(size)) MB from \(PLYBenchmark.megabytes(stream.count)) MB, "
          + "\(PLYBenchmark.fixed(seconds * 1000, 3)) ms",
        target: index == 0 ? rate >= Self.targetMBPerSecond : nil,
        goal: "≥ \(Int(Self.targetMBPerSecond)) MB/s")
    }
    report.peer(
      PythonPeer(
        script: peerScript, name: "liblzfse (C, via Python's pyliblzfse)",
        install: "pip install pyliblzfse"
      ).run(
        arguments: ["--bench"] + paths + ["--repeats", String(repeats)]),
      ours: ours)
    Terminal.out(report.text)
  }
}
