import Foundation

/// An error from the X helpers (Xvfb, xdotool, xwd) used by the window tests.
public struct XToolError: Error, CustomStringConvertible {
  public var description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// Finds and runs the small X programs the window tests drive the viewer with.
public enum XTools {
  /// The full path of `name` on `PATH`, or nil when it is not installed.
  public static func locate(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Whether every program in `names` is on `PATH`; window tests skip when not.
  public static func installed(_ names: [String]) -> Bool {
    names.allSatisfy { locate($0) != nil }
  }

  /// The output of one finished program.
  public typealias Output = CommandRunner.Result

  /// Runs `name` (looked up on `PATH`) with `arguments` and waits for it to exit.
  ///
  /// - Parameter display: sets `DISPLAY` for the child, e.g. ":93".
  /// - Throws: `XToolError` when the program is missing or cannot start.
  public static func run(_ name: String, _ arguments: [String], display: String? = nil) throws
    -> Output
  {
    guard let executable = locate(name) else { throw XToolError("\(name) is not on PATH") }
    return try CommandRunner.run(
      executable: URL(fileURLWithPath: executable), arguments,
      environment: display.map { ["DISPLAY": $0] } ?? [:])
  }
}

/// A virtual X server (`Xvfb`) on a display of its own, for driving real windows in
/// tests without a screen. Stopped by `stop()` or when the session is released.
public final class XvfbSession {
  /// The display name to put in `DISPLAY`, e.g. ":93".
  public let display: String
  /// The display number, e.g. 93.
  public let number: Int
  /// The screen size in pixels.
  public let width: Int
  public let height: Int
  private let process: Process

  /// Starts `Xvfb` on a display it picks itself and waits until it is ready.
  ///
  /// Xvfb's `-displayfd` writes the display number to standard output once the server
  /// is initialised and accepts clients, so there is no race between the socket
  /// appearing and the server answering, and no guessing of free numbers.
  ///
  /// - Throws: `XToolError` when Xvfb is missing or does not come up within `timeout`.
  public init(width: Int = 1280, height: Int = 800, timeout: TimeInterval = 30) throws {
    guard let executable = XTools.locate("Xvfb") else { throw XToolError("Xvfb is not on PATH") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [
      "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp",
    ]
    let output = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let reader = output.fileHandleForReading
    var text = ""
    let deadline = Date().addingTimeInterval(timeout)
    while !text.contains("\n") && Date() < deadline && process.isRunning {
      // availableData blocks until something arrives or the pipe closes.
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), process.isRunning
    else {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      throw XToolError("Xvfb did not report a display (it printed '\(text)')")
    }
    self.display = ":\(number)"
    self.number = number
    self.width = width
    self.height = height
    self.process = process
  }

  deinit {
    stop()
  }

  /// Stops the server and waits for it to exit. Safe to call more than once.
  public func stop() {
    // A server stuck in shutdown would keep its display number taken for later runs,
    // hence the forced kill should it linger.
    process.stop()
  }
}

extension Process {
  /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL, and waits for the exit.
  /// Does nothing when the process is not running.
  public func stop(grace: TimeInterval = 5) {
    guard isRunning else { return }
    terminate()
    let deadline = Date().addingTimeInterval(grace)
    while isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if isRunning { kill(processIdentifier, SIGKILL) }
    waitUntilExit()
  }
}
