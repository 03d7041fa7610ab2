import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// The point-cloud half of `cloudscrub bench formats`: write and read speed of every
/// export format on the same synthetic cloud, beside Open3D (binary and ASCII PCD, XYZ),
/// numpy.loadtxt (XYZ) and laspy (LAS) (`bench/format_peers.py`) and pye57 (E57, `bench/pye57_e57.py`) on the same files
/// in the same run.
struct CloudFormatsBenchmark {
  let points: Int
  let repeats: Int
  /// An empty folder for the files; the caller removes it.
  let folder: String
  var peerScript = "bench/format_peers.py"
  var e57PeerScript = "bench/pye57_e57.py"

  func run() throws {
    var cloud = SyntheticCloud.scene(count: points, normals: false)
    cloud.attributes = [
      PointAttribute(name: "confidence", values: .uint8((0..<points).map { UInt8($0 % 3) })),
      PointAttribute(name: "frame", values: .uint32((0..<points).map { UInt32($0 / 50_000) })),
    ]
    Terminal.out(
      "\nCloudScrub point-cloud formats: \(points) points (x y z, colour, confidence and frame "
        + "attributes), best of \(repeats) runs; cores: "
        + "\(Parallel.cores)")
    var report = BenchReport()
    report.section("write and read (seconds; million points a second)")
    var ours: [String: Double] = [:]
    var files: [String: String] = [:]
    let cases: [(String, String, Bool)] = [
      ("ply", "ply", false), ("pcd", "pcd", false), ("pcd ascii", "pcd", true),
      ("las", "las", false), ("e57", "e57", false), ("xyz", "xyz", false),
    ]
    let provenance = ExportProvenance(source: "bench")
    for (label, ext, ascii) in cases {
      let path = (folder as NSString).appendingPathComponent(
        label.replacingOccurrences(of: " ", with: "-") + "." + ext)
      let writer = try ExportFormats.writer(for: path)
      let options = CloudWriteOptions(ascii: ascii, attributes: .all)
      let written = try Stopwatch.best(runs: repeats) {
        try writer.write(
          cloud, provenance: provenance, options: options, to: path, inputs: [], progress: nil)
      }
      var count = 0
      let read = try Stopwatch.best(runs: repeats) {
        count = try CloudFileFormats.read(path).cloud.count
      }
      guard count == points else {
        throw BenchError("\(label): read \(count) points back, wrote \(points)")
      }
      let millions = Double(points) / 1e6
      report.row(
        label, PLYBenchmark.seconds(written),
        "write, \(PLYBenchmark.seconds(read)) read  (\(PLYBenchmark.fixed(millions / written, 1))"
          + " / \(PLYBenchmark.fixed(millions / read, 1)) M points/s, "
          + "\(PLYBenchmark.megabytes(try FormatsBenchmark.bytesOnDisk(path))) MB)")
      ours["\(label) write"] = written
      ours["\(label) read"] = read
      files[label] = path
    }
    if let pcd = files["pcd"], let las = files["las"] {
      report.peer(
        PythonPeer(
          script: peerScript, name: "Open3D (PCD) and laspy (LAS)",
          install: "pip install open3d laspy"
        )
        .run(arguments: ["bench", pcd, las, String(repeats)]), ours: ours)
    }
    if let pcd = files["pcd ascii"], let xyz = files["xyz"] {
      // Open3D's text readers and writers, and numpy.loadtxt: "xyz read (numpy.loadtxt)"
      // has no figure of ours under its name, so the comparison is made here.
      let result = PythonPeer(
        script: peerScript, name: "Open3D (ASCII PCD, XYZ) and numpy.loadtxt (XYZ)",
        install: "pip install open3d numpy"
      )
      .run(arguments: ["bench-text", pcd, xyz, String(repeats)])
      var textOurs = ours
      textOurs["xyz read (numpy.loadtxt)"] = ours["xyz read"]
      report.peer(result, ours: textOurs)
    }
    if let e57 = files["e57"] {
      // pye57 reads x y z and colour (it skips the attribute fields it does not know)
      // and writes those back.
      let peerOutput = (folder as NSString).appendingPathComponent("pye57.e57")
      report.peer(
        PythonPeer(script: e57PeerScript, name: "pye57 (E57)", install: "pip install pye57")
          .run(arguments: [
            "--input", e57, "--output", peerOutput, "--repeats", String(repeats),
          ]),
        ours: ["read": ours["e57 read"] ?? 0, "write": ours["e57 write"] ?? 0])
    }
    Terminal.out(report.text)
  }
}
