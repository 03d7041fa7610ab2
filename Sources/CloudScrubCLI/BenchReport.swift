import Foundation

/// The text of a benchmark report: sections of aligned rows, with targets marked.
struct BenchReport {
  private(set) var text = ""

  mutating func section(_ title: String) {
    text += "\n\(title)\n"
  }

  mutating func row(
    _ name: String, _ value: String, _ detail: String = "", target: Bool? = nil, goal: String = ""
  ) {
    let mark = target.map { $0 ? "  [met: \(goal)]" : "  [MISSED: \(goal)]" } ?? ""
    text += "  " + name.padding(toLength: 14, withPad: " ", startingAt: 0)
      + value.padding(toLength: 12, withPad: " ", startingAt: 0) + detail + mark + "\n"
  }

  /// A peer's figures beside ours, as seconds and as how many times faster we are.
  mutating func peer(_ result: PeerResult, ours: [String: Double]) {
    switch result {
    case .unavailable(let reason):
      section("peers")
      text += "  \(reason)\n"
    case .measured(let name, let seconds):
      section(name)
      for key in seconds.keys.sorted() {
        guard let theirs = seconds[key] else { continue }
        let comparison = ours[key].map { "ours \(PLYBenchmark.fixed(theirs / $0, 1))× faster" } ?? ""
        row(key.replacingOccurrences(of: "_", with: " "), PLYBenchmark.seconds(theirs), comparison)
      }
    }
  }
}

/// What a peer library measured, or why it could not.
enum PeerResult {
  case measured(name: String, seconds: [String: Double])
  case unavailable(String)
}

/// Open3D, run through a Python script on the same files (for benchmarks only).
struct Open3DPeer {
  let script: String

  func measure(binary: String, ascii: String, output: String, repeats: Int) -> PeerResult {
    guard FileManager.default.fileExists(atPath: script) else {
      return .unavailable("Open3D: script \(script) not found (run from the project's root)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", script, "--binary", binary, "--ascii", ascii, "--output", output,
      "--repeats", String(repeats),
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    do {
      try process.run()
    } catch {
      return .unavailable("Open3D: python3 could not be started (\(error))")
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      return .unavailable("Open3D is not installed (pip install open3d) — no peer figures")
    }
    let version = object["version"] as? String ?? "?"
    var seconds: [String: Double] = [:]
    for (key, value) in object where key != "version" {
      if let number = value as? Double { seconds[key] = number }
    }
    return .measured(name: "Open3D \(version) (same files, same run)", seconds: seconds)
  }
}
