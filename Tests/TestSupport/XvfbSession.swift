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
  public struct Output {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
  }

  /// Runs `name` (looked up on `PATH`) with `arguments` and waits for it to exit.
  ///
  /// - Parameter display: sets `DISPLAY` for the child, e.g. ":93".
  /// - Throws: `XToolError` when the program is missing or cannot start.
  public static func run(_ name: String, _ arguments: [String], display: String? = nil) throws -> Output {
    guard let executable = locate(name) else { throw XToolError("\(name) is not on PATH") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    if let display { environment["DISPLAY"] = display }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Drain standard error on another thread so that neither pipe can fill up and
    // block the child while the other is read.
    let errorReader = BackgroundReader(error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errorReader.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}

/// Reads a pipe to its end on a background thread.
private final class BackgroundReader: @unchecked Sendable {
  // Written once by the reading thread before `done` is signalled, read only after.
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

  /// Starts `Xvfb` on the first free display from a handful of candidates and waits
  /// until it accepts connections.
  ///
  /// - Throws: `XToolError` when Xvfb is missing or no display could be started within
  ///   `timeout` seconds each.
  public init(width: Int = 1280, height: Int = 800, timeout: TimeInterval = 15) throws {
    guard let executable = XTools.locate("Xvfb") else { throw XToolError("Xvfb is not on PATH") }
    // Start high and spread by process id, so that parallel test runs and a desktop's
    // own :0 do not collide; a number whose socket or lock file exists is taken.
    let base = 90 + Int(ProcessInfo.processInfo.processIdentifier % 50)
    var failures: [String] = []
    for offset in 0..<20 {
      let number = base + offset * 7
      guard !Self.isTaken(number) else { continue }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = [":\(number)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
      } catch {
        failures.append(":\(number): \(error)")
        continue
      }
      if Self.waitUntilReady(number, process: process, timeout: timeout) {
        self.display = ":\(number)"
        self.number = number
        self.width = width
        self.height = height
        self.process = process
        return
      }
      // Lost a race for this number (another server took it) or Xvfb failed: try on.
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      failures.append(":\(number): Xvfb exited with status \(process.terminationStatus) or never listened")
    }
    throw XToolError("could not start Xvfb: " + failures.joined(separator: "; "))
  }

  deinit {
    stop()
  }

  /// Stops the server and waits for it to exit. Safe to call more than once.
  public func stop() {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    // A server stuck in shutdown would keep its display number taken for later runs.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  private static func isTaken(_ number: Int) -> Bool {
    FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
  }

  /// Waits until the server's socket accepts connections. The socket file alone is not
  /// enough: it appears at bind(), before listen(), and a client connecting in between
  /// (the viewer's XOpenDisplay on a busy machine) is refused.
  private static func waitUntilReady(_ number: Int, process: Process, timeout: TimeInterval) -> Bool {
    let path = "/tmp/.X11-unix/X\(number)"
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      guard process.isRunning else { return false }
      if FileManager.default.fileExists(atPath: path) && acceptsConnections(path) { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }

  /// Whether a Unix-domain stream socket at `path` accepts a connection (closed at once).
  private static func acceptsConnections(_ path: String) -> Bool {
    #if os(Linux)
      let kind = Int32(SOCK_STREAM.rawValue)
    #else
      let kind = SOCK_STREAM
    #endif
    let descriptor = socket(AF_UNIX, kind, 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    // The rest of `sun_path` is already zero, which terminates the path.
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    return result == 0
  }
}
