import CloudScrubCore
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
      "-displayfd", "1", "-noreset", "-screen", "0", "\(width)x\(height)x24", "-nolisten",
      "tcp",
    ]
    let output = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.runWithSignalsUnblocked()
    let reader = output.fileHandleForReading
    // availableData blocks until something arrives or the pipe closes, so the deadline
    // is kept by stopping a server that has not answered by then: its pipe closes.
    let answered = DispatchSemaphore(value: 0)
    BackgroundWork<Never>().start {
      if answered.wait(timeout: .now() + timeout) == .timedOut { process.stop(grace: 2) }
      return nil
    }
    defer { answered.signal() }
    var text = ""
    while !text.contains("\n") && process.isRunning {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), process.isRunning
    else {
      process.stop(grace: 2)
      throw XToolError(
        "Xvfb did not report a display within \(timeout) s (it printed '\(text)')")
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
