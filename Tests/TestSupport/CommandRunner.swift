import CloudScrubCore
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
    let folder =
      Bundle.main.executableURL?.deletingLastPathComponent()
      ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var candidate = folder.appendingPathComponent("cloudscrub")
    // The test bundle can sit one level inside the products folder.
    if !FileManager.default.isExecutableFile(atPath: candidate.path) {
      candidate = folder.deletingLastPathComponent().appendingPathComponent("cloudscrub")
    }
    return candidate
  }

  /// A child that ran past its time limit and was killed.
  public struct Timeout: Error, CustomStringConvertible {
    public var command: String
    public var seconds: TimeInterval
    public var standardError: String
    public var description: String {
      "\(command) ran past its \(seconds) s limit and was killed; its standard error: "
        + standardError
    }
  }

  /// The longest any child may run unless a test says otherwise: far above what any
  /// command of the suite needs on a loaded machine, so that only a hang reaches it.
  public static let defaultTimeoutSeconds: TimeInterval = 600

  /// Runs `cloudscrub` with `arguments` in the package root and waits for it.
  ///
  /// - Throws: `Timeout` when it runs longer than `timeoutSeconds` (it is then killed).
  public static func run(
    _ arguments: [String], in folder: URL = TestData.packageRoot,
    timeoutSeconds: TimeInterval = defaultTimeoutSeconds
  ) throws -> Result {
    try run(executable: binary, arguments, in: folder, timeoutSeconds: timeoutSeconds)
  }

  /// Runs any program with `arguments` (and extra environment variables) and waits.
  ///
  /// - Throws: `Timeout` when it runs longer than `timeoutSeconds`: it is sent SIGTERM,
  ///   then SIGKILL, so that a hung child fails its test instead of hanging the suite.
  public static func run(
    executable: URL, _ arguments: [String], environment: [String: String] = [:],
    in folder: URL = TestData.packageRoot, timeoutSeconds: TimeInterval = defaultTimeoutSeconds
  ) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new
      }
    }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.runWithSignalsUnblocked()
    // Drain both pipes on other threads, so that neither can fill up and block the
    // child, while this one waits for the exit with a deadline.
    let outputReader = PipeReader(output.fileHandleForReading)
    let errorReader = PipeReader(error.fileHandleForReading)
    if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
      process.stop(grace: 2)
      throw Timeout(
        command: ([executable.lastPathComponent] + arguments).joined(separator: " "),
        seconds: timeoutSeconds,
        standardError: String(decoding: errorReader.wait(), as: UTF8.self))
    }
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputReader.wait(), as: UTF8.self),
      standardError: String(decoding: errorReader.wait(), as: UTF8.self))
  }
}

/// Reads a pipe to its end as a background job.
private final class PipeReader: @unchecked Sendable {
  private let reading = BackgroundWork<Data>()
  /// The job's result, once `wait()` has taken it.
  private var data: Data?

  init(_ handle: FileHandle) {
    reading.start { handle.readDataToEndOfFile() }
  }

  func wait() -> Data {
    if let data { return data }
    reading.waitUntilIdle()
    let read = reading.take() ?? Data()
    data = read
    return read
  }
}
