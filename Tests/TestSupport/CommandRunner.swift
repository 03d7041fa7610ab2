import Foundation

/// Runs the real `cloudscrub` binary that the test build produced.
public enum CommandRunner {
  /// The result of one run.
  public struct Result {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
  }

  /// The `cloudscrub` binary beside the running test bundle.
  public static var binary: URL {
    let folder = Bundle.main.executableURL?.deletingLastPathComponent()
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var candidate = folder.appendingPathComponent("cloudscrub")
    // The test bundle can sit one level inside the products folder.
    if !FileManager.default.isExecutableFile(atPath: candidate.path) {
      candidate = folder.deletingLastPathComponent().appendingPathComponent("cloudscrub")
    }
    return candidate
  }

  /// Runs `cloudscrub` with `arguments` in the package root and waits for it.
  public static func run(_ arguments: [String], in folder: URL = TestData.packageRoot) throws -> Result {
    try run(executable: binary, arguments, in: folder)
  }

  /// Runs any program with `arguments` (and extra environment variables) and waits.
  public static func run(
    executable: URL, _ arguments: [String], environment: [String: String] = [:],
    in folder: URL = TestData.packageRoot
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Drain standard error on another thread while reading standard output, so that
    // neither pipe can fill up and block the child.
    let errorReader = PipeReader(error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let stderrData = errorReader.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: stderrData, as: UTF8.self))
  }
}

/// Reads a pipe to its end on a background thread.
private final class PipeReader: @unchecked Sendable {
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}
