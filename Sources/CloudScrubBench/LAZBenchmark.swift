import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// The LAZ part of `cloudscrub bench clouds`: decompressing LAZ files of the common point
/// formats on every core, and compressing formats 6 and 7 (the writer's codecs), beside
/// lazrs (the LASzip format in Rust, through laspy) on the
/// same files in the same run (`bench/laz_peers.py`). The files are written by lazrs from
/// points whose every field varies the way scanners' do, so the benchmark needs laspy and
/// lazrs (`pip install laspy lazrs`) and says so without them.
struct LAZBenchmark {
  let points: Int
  let repeats: Int
  /// An empty folder for the files; the caller removes it.
  let folder: String
  var peerScript = "bench/laz_peers.py"

  func run() throws {
    Terminal.out(
      "\nCloudScrub LAZ: \(points) points a file, best of \(repeats) runs; cores: "
        + "\(Parallel.cores)")
    var report = BenchReport()
    for format in [1, 3, 6, 7] {
      let laz = (folder as NSString).appendingPathComponent("format\(format).laz")
      let las = (folder as NSString).appendingPathComponent("format\(format).las")
      let made = PythonPeer(script: peerScript, name: "lazrs", install: "pip install laspy lazrs")
      if case .failure(let failure) = made.output(
        arguments: ["random", "\(format)", "\(points)", "1", laz, las, "0", "1"])
      {
        report.section("LAZ")
        report.note("\(failure.reason): the files are written by lazrs")
        break
      }
      var read = (points: 0, bytes: 0)
      let decompress = try Stopwatch.best(runs: repeats) {
        read = try LASReader.readRecords(path: laz)
      }
      guard read.points == points else {
        throw BenchError("format \(format): decompressed \(read.points) points of \(points)")
      }
      let whole = try Stopwatch.best(runs: repeats) { _ = try LASReader.read(path: laz) }
      let millions = Double(points) / 1e6
      report.section(
        "point format \(format) (\(PLYBenchmark.megabytes(try FormatsBenchmark.bytesOnDisk(laz))) MB LAZ, \(PLYBenchmark.megabytes(try FormatsBenchmark.bytesOnDisk(las))) MB LAS)"
      )
      report.row(
        "laz decompress", PLYBenchmark.seconds(decompress),
        "(\(PLYBenchmark.fixed(millions / decompress, 1)) M points/s)")
      report.row(
        "laz read", PLYBenchmark.seconds(whole),
        "(\(PLYBenchmark.fixed(millions / whole, 1)) M points/s, records to points)")
      // Our writer's codecs on the same records (formats 6 and 7), beside lazrs
      // compressing them.
      let ours = (folder as NSString).appendingPathComponent("ours\(format).laz")
      var compress: Double?
      if format >= 6 {
        let seconds = try Stopwatch.best(runs: repeats) {
          try LAZFileCompressor.compress(las: las, to: ours)
        }
        compress = seconds
        report.row(
          "laz compress", PLYBenchmark.seconds(seconds),
          "(\(PLYBenchmark.fixed(millions / seconds, 1)) M points/s, LAS file to LAZ "
            + "file, \(PLYBenchmark.megabytes(try FormatsBenchmark.bytesOnDisk(ours))) MB)")
        try? FileManager.default.removeItem(atPath: ours)
      }
      report.peer(
        PythonPeer(
          script: peerScript, name: "lazrs, format \(format)", install: "pip install laspy lazrs"
        )
        .run(arguments: ["bench", laz, String(repeats)]),
        ours: ["laz decompress": decompress, "laz read": whole])
      if let compress {
        report.peer(
          PythonPeer(
            script: peerScript, name: "lazrs compress, format \(format)",
            install: "pip install laspy lazrs"
          )
          .run(arguments: ["bench-compress", las, String(repeats)]),
          ours: ["laz compress": compress])
      }
      try? FileManager.default.removeItem(atPath: las)
      try? FileManager.default.removeItem(atPath: laz)
    }
    Terminal.out(report.text)
  }
}
