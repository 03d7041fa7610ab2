import CloudScrubCore
import CloudScrubSession
import Foundation

/// The `cloudscrub` command line: subcommands, help, errors and exit statuses.
///
/// Exit status 0 is success, 1 bad input (a file that cannot be read or written), 2 bad
/// usage. Errors go to standard error.
public enum CloudScrubCommand {
  /// The release this binary is, as `cloudscrub --version` prints it.
  public static let version = "0.5.0"

  /// What runs a subcommand, given its arguments.
  public typealias Runner = @Sendable ([String]) throws -> Void

  /// Each command, and whether it writes files (and so needs its temporary files
  /// removed when it is interrupted); `bench` runs the benchmarks' target, which the
  /// executable hands in.
  static func subcommands(bench: @escaping Runner)
    -> [(name: String, summary: String, writesFiles: Bool, run: Runner)]
  {
    [
      ("info", "describe a point cloud file", false, InfoCommand.run),
      (
        "export", "write a point cloud: PLY, PCD, LAS, LAZ, COPC, E57 or XYZ text", true,
        ExportCommand.run
      ),
      (
        "render", "draw a cloud or recording into a PNG, with no display", true,
        RenderCommand.run
      ),
      ("view", "open the viewer window", true, ViewCommand.run),
      (
        "video", "draw a timeline, turntable or camera path into a video, with no display", true,
        VideoCommand.run
      ),
      (
        "refine", "refine a recording's poses and write them as a trajectory", true,
        RefineCommand.run
      ),
      ("mesh", "fuse a recording into a coloured mesh: PLY, OBJ or glTF", true, MeshCommand.run),
      ("synth", "write a synthetic sample cloud", true, SynthCommand.run),
      ("bench", "measure PLY read and write speed", true, bench),
    ]
  }

  static var usage: String {
    let subcommands = subcommands(bench: { _ in })
    let width = subcommands.map(\.name.count).max() ?? 0
    let lines = subcommands.map {
      "  \($0.name)" + String(repeating: " ", count: width - $0.name.count + 2) + $0.summary
    }
    return """
      CloudScrub: view, scrub and clean LiDAR captures.

      usage: cloudscrub <command> [options]

      commands:
      \(lines.joined(separator: "\n"))

      Run 'cloudscrub <command> --help' for a command's options, and
      'cloudscrub --version' for the release.
      """
  }

  /// Runs the command line `arguments` (without the program name) and returns the exit
  /// status; `bench` runs the benchmarks (`CloudScrubBench`).
  public static func run(_ arguments: [String], bench: @escaping Runner) -> Int32 {
    guard let name = arguments.first else {
      Terminal.error(usage)
      return 2
    }
    if arguments.count <= 3, arguments.starts(with: ["help", "--markdown"]) {
      // Hidden: the options tables, as docs/guide holds them: one command's, or all.
      guard let name = arguments.dropFirst(2).first else {
        Terminal.out(OptionTable.markdown)
        return 0
      }
      guard OptionTable.commandNames.contains(name) else {
        Terminal.error("error: unknown command '\(name)'")
        return 2
      }
      Terminal.out(OptionTable.command(name).markdown)
      return 0
    }
    if name == "--help" || name == "-h" || name == "help" {
      Terminal.out(usage)
      return 0
    }
    if name == "--version" || name == "-V" {
      Terminal.out("cloudscrub \(version)")
      return 0
    }
    guard let command = subcommands(bench: bench).first(where: { $0.name == name }) else {
      Terminal.error("error: unknown command '\(name)'\n\n\(usage)")
      return 2
    }
    if command.writesFiles { installInterruptHandler() }
    do {
      try command.run(Array(arguments.dropFirst()))
      return 0
    } catch let error as UsageError {
      Terminal.error("error: \(error)\nRun 'cloudscrub \(name) --help' for usage.")
      return 2
    } catch {
      Terminal.error("error: \(error)")
      return 1
    }
  }

  /// On Ctrl-C or SIGTERM, removes any export's temporary file before exiting, so an
  /// interrupted export leaves neither a half-written target nor litter. The handler
  /// does only async-signal-safe work: `unlink` on the C strings of a table allocated
  /// here, before it is installed, then `_exit`. (What SIGKILL leaves, the next write
  /// into the same folder removes: `TemporaryFiles.removeStale(in:)`.)
  static func installInterruptHandler() {
    TemporaryFiles.prepare()
    // A launcher may start the process with these signals blocked (the mask is
    // inherited): unblock them, or the handler could never run.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    signal(SIGINT) { _ in
      TemporaryFiles.removeAll()
      _exit(130)
    }
    signal(SIGTERM) { _ in
      TemporaryFiles.removeAll()
      _exit(143)
    }
  }
}
