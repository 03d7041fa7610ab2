import CloudScrubCLI
import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// Measures PLY reading and writing and prints a report with ratios to `cat`, `cp` and
/// Open3D, all measured in the same run on the same files.
struct PLYBenchmark {
  let pointCount: Int
  let folder: String
  let repeats: Int
  let open3DScript: String

  private var binaryPath: String { folder + "/cloud-binary.ply" }
  private var asciiPath: String { folder + "/cloud-ascii.ply" }
  private var copyPath: String { folder + "/copy.ply" }
  private var outputPath: String { folder + "/written.ply" }

  func run() throws {
    Terminal.out("CloudScrub PLY benchmark: \(pointCount) points, xyz float + rgb uchar")
    Terminal.out(
      "cores: \(Parallel.cores), best of \(repeats) runs\n")
    let cloud = SyntheticCloud.scene(count: pointCount, seed: 7)
    let binaryOptions = PLYWriteOptions(format: .binaryLittleEndian)
    let asciiOptions = PLYWriteOptions(format: .ascii)

    // Writing first, which also makes the files the rest reads.
    // Every timed write (ours, cp's) goes to a path that does not exist yet, so that no
    // run pays for freeing the previous file's pages.
    let writeBinary = try Stopwatch.best(runs: repeats) {
      try? FileManager.default.removeItem(atPath: binaryPath)
      try PLYWriter.write(cloud, to: binaryPath, options: binaryOptions)
    }
    let writeASCII = try Stopwatch.best(runs: 1) {
      try PLYWriter.write(cloud, to: asciiPath, options: asciiOptions)
    }
    let binaryBytes = try fileSize(binaryPath)
    let asciiBytes = try fileSize(asciiPath)

    let catBinary = try Stopwatch.best(runs: repeats) {
      try runTool("/bin/cat", [binaryPath], discardOutput: true)
    }
    let catASCII = try Stopwatch.best(runs: repeats) {
      try runTool("/bin/cat", [asciiPath], discardOutput: true)
    }
    let copyBinary = try Stopwatch.best(runs: repeats) {
      try? FileManager.default.removeItem(atPath: copyPath)
      try runTool("/bin/cp", [binaryPath, copyPath], discardOutput: false)
    }
    try? FileManager.default.removeItem(atPath: copyPath)

    let residentBefore = Self.residentBytes()
    var readBack = try PLYReader.read(path: binaryPath).cloud
    let residentGrowth = Self.residentBytes() - residentBefore
    let storagePerPoint = Double(readBack.storageByteCount) / Double(pointCount)
    guard readBack == cloud else { throw BenchError("the binary file did not read back equal") }
    readBack = PointCloud()
    let readBinary = try Stopwatch.best(runs: repeats) { _ = try PLYReader.read(path: binaryPath) }
    let readASCII = try Stopwatch.best(runs: min(repeats, 2)) {
      _ = try PLYReader.read(path: asciiPath)
    }
    let writeAgain = try Stopwatch.best(runs: repeats) {
      try? FileManager.default.removeItem(atPath: outputPath)
      try PLYWriter.write(cloud, to: outputPath, options: binaryOptions)
    }
    try? FileManager.default.removeItem(atPath: outputPath)

    let mb = { (bytes: Int, seconds: Double) in Double(bytes) / seconds / 1e6 }
    let points = { (seconds: Double) in Double(pointCount) / seconds / 1e6 }
    var report = BenchReport()
    report.section("files")
    report.row(
      "binary", "\(Self.megabytes(binaryBytes)) MB", "ascii \(Self.megabytes(asciiBytes)) MB")
    report.section("the machine's limit (page cache, this run)")
    report.row("cat binary", Self.seconds(catBinary), "\(Int(mb(binaryBytes, catBinary))) MB/s")
    report.row("cat ascii", Self.seconds(catASCII), "\(Int(mb(asciiBytes, catASCII))) MB/s")
    report.row("cp binary", Self.seconds(copyBinary), "\(Int(mb(binaryBytes, copyBinary))) MB/s")
    report.section("CloudScrub")
    report.row(
      "read binary", Self.seconds(readBinary),
      "\(Int(mb(binaryBytes, readBinary))) MB/s  \(Self.fixed(points(readBinary), 1)) M points/s  "
        + "\(Self.fixed(readBinary / catBinary, 2))× cat",
      target: readBinary <= 2 * catBinary && mb(binaryBytes, readBinary) >= 1000,
      goal: "≤ 2× cat and ≥ 1000 MB/s")
    report.row(
      "read ascii", Self.seconds(readASCII),
      "\(Int(mb(asciiBytes, readASCII))) MB/s  \(Self.fixed(points(readASCII), 1)) M points/s  "
        + "\(Self.fixed(readASCII / catASCII, 1))× cat",
      target: mb(asciiBytes, readASCII) >= 250, goal: "≥ 250 MB/s")
    let writeBest = min(writeBinary, writeAgain)
    report.row(
      "write binary", Self.seconds(writeBest),
      "\(Int(mb(binaryBytes, writeBest))) MB/s  \(Self.fixed(points(writeBest), 1)) M points/s  "
        + "\(Self.fixed(writeBest / copyBinary, 2))× cp",
      target: writeBest <= 2 * copyBinary, goal: "≤ 2× cp")
    report.row(
      "write ascii", Self.seconds(writeASCII),
      "\(Int(mb(asciiBytes, writeASCII))) MB/s  \(Self.fixed(points(writeASCII), 1)) M points/s")
    report.row(
      "memory", "\(Self.fixed(storagePerPoint, 1)) B/pt",
      "resident growth on reading \(Self.fixed(Double(residentGrowth) / Double(pointCount), 1)) B/pt",
      target: storagePerPoint <= 20, goal: "≤ 20 bytes/point")

    let ours = [
      "read_binary": readBinary, "read_ascii": readASCII, "write_binary": writeBest,
      "write_ascii": writeASCII,
    ]
    report.peer(
      Open3DPeer(script: open3DScript).measure(
        binary: binaryPath, ascii: asciiPath, output: outputPath, repeats: repeats), ours: ours)
    try? FileManager.default.removeItem(atPath: outputPath)
    Terminal.out(report.text)
  }

  // MARK: - Measuring

  private func runTool(_ tool: String, _ arguments: [String], discardOutput: Bool) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    if discardOutput { process.standardOutput = FileHandle(forWritingAtPath: "/dev/null") }
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError("\(tool) exited with status \(process.terminationStatus)")
    }
  }

  private func fileSize(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? NSNumber)?.intValue ?? 0
  }

  /// Resident memory of this process in bytes, from `/proc/self/statm`.
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  static func seconds(_ value: Double) -> String { fixed(value, 3) + " s" }
  static func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, 1) }
  static func fixed(_ value: Double, _ digits: Int) -> String {
    RecordingInfo.fixed(value, digits)
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
