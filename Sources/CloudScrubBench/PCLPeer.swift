import Foundation

/// PCL's command-line tools (Debian's pcl-tools) on the same clouds: `pcl_voxel_grid`
/// and `pcl_outlier_removal -method statistical`. The figures are the tools' own
/// "Computing … [done, N ms" times, which leave out reading and writing PCD files.
struct PCLPeer {
  static let tools = ["pcl_ply2pcd", "pcl_voxel_grid", "pcl_outlier_removal"]

  static func locate(_ tool: String) -> String? {
    ["/usr/bin/", "/usr/local/bin/"].map { $0 + tool }.first(
      where: FileManager.default.isExecutableFile)
  }

  /// - Parameters: voxelInput, outlierInput: PLY files; converted to PCD beside them.
  func measure(
    voxelInput: String, outlierInput: String, leafMeters: Float, neighbours: Int, stdRatio: Double,
    repeats: Int
  ) -> PeerResult {
    guard Self.tools.allSatisfy({ Self.locate($0) != nil }) else {
      return .unavailable("PCL: not measured (install Debian's pcl-tools)")
    }
    do {
      let voxelPCD = try convert(voxelInput)
      let outlierPCD = try convert(outlierInput)
      defer {
        try? FileManager.default.removeItem(atPath: voxelPCD)
        try? FileManager.default.removeItem(atPath: outlierPCD)
      }
      let leaf = "\(leafMeters),\(leafMeters),\(leafMeters)"
      let voxel = try best(
        repeats, "pcl_voxel_grid", [voxelPCD, voxelPCD + ".out.pcd", "-leaf", leaf])
      let sor = try best(
        repeats, "pcl_outlier_removal",
        [
          outlierPCD, outlierPCD + ".out.pcd", "-method", "statistical", "-mean_k",
          String(neighbours),
          "-std_dev_mul", String(stdRatio),
        ])
      try? FileManager.default.removeItem(atPath: voxelPCD + ".out.pcd")
      try? FileManager.default.removeItem(atPath: outlierPCD + ".out.pcd")
      return .measured(
        name: "PCL tools (same clouds, same run; compute time only)",
        seconds: ["pcl_voxel_grid": voxel, "pcl_outlier_removal": sor])
    } catch {
      return .unavailable("PCL: not measured (\(error))")
    }
  }

  private func convert(_ ply: String) throws -> String {
    let pcd = ply + ".pcd"
    _ = try run("pcl_ply2pcd", [ply, pcd])
    return pcd
  }

  /// The fastest compute time of up to `repeats` runs; runs past 5 s are not repeated.
  private func best(_ repeats: Int, _ tool: String, _ arguments: [String]) throws -> Double {
    var fastest = Double.infinity
    for _ in 0..<max(1, repeats) {
      let output = try run(tool, arguments)
      guard let seconds = Self.computeSeconds(in: output) else {
        throw BenchError("\(tool) printed no compute time")
      }
      fastest = min(fastest, seconds)
      if seconds > 5 { break }
    }
    return fastest
  }

  /// The milliseconds in "Computing … [done, N ms", as seconds.
  static func computeSeconds(in output: String) -> Double? {
    guard let computing = output.range(of: "Computing"),
      let done = output.range(of: "[done, ", range: computing.upperBound..<output.endIndex)
    else { return nil }
    let number = output[done.upperBound...].prefix { $0.isNumber || $0 == "." }
    return Double(number).map { $0 / 1000 }
  }

  private func run(_ tool: String, _ arguments: [String]) throws -> String {
    guard let path = Self.locate(tool) else { throw BenchError("\(tool) not found") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError("\(tool) exited with status \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
