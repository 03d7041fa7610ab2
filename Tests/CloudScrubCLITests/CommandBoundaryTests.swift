import Foundation
import TestSupport
import Testing

/// A command never calls another command: what two commands share lives below them,
/// in the Session layer or in a flags helper of the command line (`RecordingFlags`,
/// `FusionFlags`, `RefinementFlags`), and the benchmarks call those, not commands.
@Suite struct CommandBoundaryTests {
  static let folders = ["Sources/CloudScrubCLI", "Sources/CloudScrubBench"].map {
    TestData.packageRoot.appendingPathComponent($0)
  }

  /// The commands: each `XCommand.swift` of `folders` declares X's; the dispatcher,
  /// `CloudScrubCommand`, calls every command by design and is none.
  static func commands(in folders: [URL]) throws -> Set<String> {
    var names = Set<String>()
    for folder in folders {
      for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where file.hasSuffix("Command.swift") && file != "CloudScrubCommand.swift" {
        names.insert(String(file.dropLast("Command.swift".count)))
      }
    }
    return names
  }

  /// Each `XCommand.function(` of one of `commands` outside X's own files
  /// (`XCommand.swift`, `XCommand+….swift`), as `file:line: text`.
  static func calls(in folder: URL, commands: Set<String>) throws -> [String] {
    let call = try Regex(#"\b([A-Z][A-Za-z0-9]*)Command\.[a-z][A-Za-z0-9]*\("#)
    var found: [String] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        for match in line.matches(of: call) {
          guard let command = match.output[1].substring.map(String.init),
            commands.contains(command), !file.hasPrefix(command + "Command")
          else { continue }
          found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    return found
  }

  @Test func noCommandCallsAnother() throws {
    let commands = try Self.commands(in: Self.folders)
    #expect(commands.isSuperset(of: ["Export", "Mesh", "Refine", "Synth", "Bench"]))
    for folder in Self.folders {
      let calls = try Self.calls(in: folder, commands: commands)
      #expect(
        calls.isEmpty,
        "\(folder.lastPathComponent) calls a command's function:\n\(calls.joined(separator: "\n"))"
      )
    }
  }

  @Test func theCheckFindsACallBetweenCommands() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = [
      "ExportCommand.swift": "let a = try MeshCommand.fuse(parsed)\nlet b = MeshCommand.spec\n",
      "ExportCommand+Fused.swift": "try ExportCommand.run(arguments)\n",
      "MeshCommand.swift": "let orbit = CameraCommand.orbit(1)\n",
    ]
    for (name, text) in files {
      try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }
    let commands = try Self.commands(in: [folder])
    #expect(commands == ["Export", "Mesh"])
    let found = try Self.calls(in: folder, commands: commands)
    #expect(found == ["ExportCommand.swift:1: let a = try MeshCommand.fuse(parsed)"])
  }
}
