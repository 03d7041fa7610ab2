import Foundation

/// The text of a benchmark report: sections of aligned rows, with targets marked.
struct BenchReport {
  private(set) var text = ""

  mutating func section(_ title: String) {
    text += "\n\(title)\n"
  }

  /// A line of prose under the last section.
  mutating func note(_ line: String) {
    text += "  \(line)\n"
  }

  mutating func row(
    _ name: String, _ value: String, _ detail: String = "", target: Bool? = nil, goal: String = ""
  ) {
    let mark = target.map { $0 ? "  [met: \(goal)]" : "  [MISSED: \(goal)]" } ?? ""
    // A name or value longer than its column is kept whole, a space after it.
    func column(_ text: String, _ width: Int) -> String {
      text.count < width ? text.padding(toLength: width, withPad: " ", startingAt: 0) : text + " "
    }
    text += "  " + column(name, 28) + column(value, 12) + detail + mark + "\n"
  }

  /// A peer's figures beside ours, with how many times faster we are. Figures are
  /// seconds unless `higherIsBetter` (rates such as frames per second).
  mutating func peer(_ result: PeerResult, ours: [String: Double], higherIsBetter: Bool = false) {
    switch result {
    case .unavailable(let reason):
      section("peers")
      text += "  \(reason)\n"
    case .measured(let name, let figures):
      section(name)
      for key in figures.keys.sorted() {
        guard let theirs = figures[key] else { continue }
        let comparison =
          ours[key].map { mine in
            let ratio = higherIsBetter ? mine / theirs : theirs / mine
            return "ours \(PLYBenchmark.fixed(ratio, 1))× faster"
          } ?? ""
        let value = higherIsBetter ? PLYBenchmark.fixed(theirs, 1) : PLYBenchmark.seconds(theirs)
        row(key.replacingOccurrences(of: "_", with: " "), value, comparison)
      }
    }
  }
}

/// What a peer library measured, or why it could not.
enum PeerResult {
  case measured(name: String, seconds: [String: Double])
  case unavailable(String)
}

/// A peer measured by a Python script that prints one JSON object of figures (and
/// `version`), or exits non-zero when its library is not installed.
struct PythonPeer {
  let script: String
  let name: String
  /// What to install when the script cannot import its library.
  var install = "pip install open3d"

  func run(arguments: [String]) -> PeerResult {
    let data: Data
    switch output(arguments: arguments) {
    case .failure(let failure): return .unavailable(failure.reason)
    case .success(let printed): data = printed
    }
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return .unavailable("\(name): not measured (\(install); the script printed no JSON)")
    }
    let version = object["version"] as? String ?? "?"
    var figures: [String: Double] = [:]
    for (key, value) in object where key != "version" {
      if let number = value as? Double { figures[key] = number }
    }
    return .measured(name: "\(name) \(version) (same files, same run)", seconds: figures)
  }

  /// What the script printed, or why it did not run to the end.
  func output(arguments: [String]) -> Result<Data, PeerFailure> {
    guard FileManager.default.fileExists(atPath: script) else {
      return .failure(
        PeerFailure("\(name): script \(script) not found (run from the project's root)"))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    do {
      try process.run()
    } catch {
      return .failure(PeerFailure("\(name): python3 could not be started (\(error))"))
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      return .failure(
        PeerFailure(
          "\(name): not measured (\(install); the script exited \(process.terminationStatus))"))
    }
    return .success(data)
  }
}

/// Why a peer's script gave no figures, in words.
struct PeerFailure: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}

/// Open3D's PLY reading and writing, through a Python script (for benchmarks only).
struct Open3DPeer {
  let script: String

  func measure(binary: String, ascii: String, output: String, repeats: Int) -> PeerResult {
    PythonPeer(script: script, name: "Open3D").run(arguments: [
      "--binary", binary, "--ascii", ascii, "--output", output, "--repeats", String(repeats),
    ])
  }
}

/// Wall-clock timing for the benchmarks.
enum Stopwatch {
  /// The fastest of `runs` runs of `body`, in seconds.
  static func best(runs: Int, _ body: () throws -> Void) throws -> Double {
    var fastest = Double.infinity
    for _ in 0..<max(runs, 1) {
      let start = ContinuousClock.now
      try body()
      let elapsed = ContinuousClock.now - start
      fastest = min(
        fastest,
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return fastest
  }
}
