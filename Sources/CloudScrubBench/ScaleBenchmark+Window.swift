import CloudScrubCore
import Foundation

extension ScaleBenchmark {
  /// Seconds the window may take to load a capture before the step gives up.
  static let windowLoadTimeoutSeconds = 900
  /// Seconds a drag may take to change the screen before it counts as not answered.
  static let dragTimeoutSeconds = 10.0

  /// The window's figures, measured from outside as a user would see them: `cloudscrub
  /// view` under a private Xvfb (or the session's display), the time until its title
  /// stops saying ` — loading` (an event wait on the title with `xprop -spy`), idle
  /// processor time from /proc over a few seconds once the picture has settled, the
  /// time from an xdotool drag to the first changed screenshot (`xwd`), and its peak
  /// resident memory. Skipped, saying so, when Xvfb, xdotool, xprop or xwd is missing.
  func window(_ path: String, into report: inout BenchReport) throws {
    let tools = ["xdotool", "xprop", "xwd", "timeout"]
    let missing = tools.filter { WindowProbe.tool($0) == nil }
    guard missing.isEmpty, let display = try DisplayForBenchmark.start() else {
      let what = missing.isEmpty ? "Xvfb" : missing.joined(separator: ", ")
      report.row("window", "skipped", "\(what) not installed (scripts/debian-packages-test.txt)")
      return
    }
    defer { display.stop() }
    let probe = WindowProbe(display: display.name)
    let started = Date()
    // The alignment pass would keep a core busy after loading; idle means idle here.
    let view = try probe.launch(binary, ["view", path, "--alignment", "off"])
    defer { probe.stop(view) }
    guard let title = try probe.waitUntilLoaded(timeoutSeconds: Self.windowLoadTimeoutSeconds)
    else {
      report.row(
        "window", "not loaded",
        "no title without ' — loading' in \(Self.windowLoadTimeoutSeconds) s")
      return
    }
    let loadSeconds = Date().timeIntervalSince(started)
    report.row(
      "window loaded", PLYBenchmark.seconds(loadSeconds),
      "until the title said '\(title)' (\(display.kind))")
    // Let the level of detail finish growing and the picture refine to its end: until a
    // second passes with under 5 % of a core used (at most a minute).
    let settle = probe.settle(view.processIdentifier, timeoutSeconds: 60)
    let idle = probe.idleCPU(of: view.processIdentifier, settleSeconds: 0, overSeconds: 5)
    report.row(
      "window idle CPU", "\(PLYBenchmark.fixed(idle * 100, 1)) %",
      "of one core over 5 s, once settled (\(PLYBenchmark.fixed(settle, 1)) s after loading)",
      target: idle < 0.05, goal: "< 5 %")
    var answers: [Double] = []
    for drag in 0..<3 {
      answers.append(
        try probe.dragAnswerSeconds(step: drag, timeoutSeconds: Self.dragTimeoutSeconds))
      Thread.sleep(forTimeInterval: 2)
    }
    let worst = answers.max() ?? .infinity
    report.row(
      "window answers a drag", PLYBenchmark.seconds(worst),
      "worst of 3 (" + answers.map { PLYBenchmark.fixed($0, 2) }.joined(separator: ", ")
        + " s): drag to the first changed screenshot",
      target: worst <= 0.5, goal: "≤ 0.5 s")
    let peak = WindowProbe.peakResidentBytes(of: view.processIdentifier)
    report.row(
      "window peak memory", "\(PLYBenchmark.megabytes(peak)) MB", "VmHWM of the view process")
  }
}

/// Drives a `cloudscrub view` process on an X display with the X tools, each run as a
/// child with a timeout.
struct WindowProbe {
  let display: String

  /// The tool's path on PATH, or nil.
  static func tool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first(
      where: FileManager.default.isExecutableFile)
  }

  var environment: [String: String] {
    ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { _, new in new }
  }

  func launch(_ binary: String, _ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Ends the view: asks, then kills after 5 s.
  func stop(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// Runs an X tool under `timeout` and returns its standard output.
  @discardableResult
  func run(_ arguments: [String], timeoutSeconds: Double = 10) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tool("timeout") ?? "/usr/bin/timeout")
    process.arguments = ["-k", "2", String(timeoutSeconds)] + arguments
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
  }

  /// Waits for the window, then for its title to name a frame without ` — loading`:
  /// `xprop -spy` prints the title each time it changes. Returns the title, or nil
  /// past the timeout.
  func waitUntilLoaded(timeoutSeconds: Int) throws -> String? {
    let deadline = Date().addingTimeInterval(Double(timeoutSeconds))
    let found = try run(
      ["xdotool", "search", "--sync", "--name", "^CloudScrub"], timeoutSeconds: 60)
    guard let window = String(decoding: found, as: UTF8.self).split(separator: "\n").first
    else { return nil }
    let left = max(1, deadline.timeIntervalSinceNow)
    let spy = Process()
    spy.executableURL = URL(fileURLWithPath: Self.tool("timeout") ?? "/usr/bin/timeout")
    spy.arguments = [
      "-k", "2", String(Int(left)), "xprop", "-spy", "-id", String(window), "WM_NAME",
    ]
    spy.environment = environment
    let output = Pipe()
    spy.standardOutput = output
    spy.standardError = FileHandle.nullDevice
    try spy.run()
    defer {
      if spy.isRunning { spy.terminate() }
      spy.waitUntilExit()
    }
    var pending = ""
    while true {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { return nil }
      pending += String(decoding: chunk, as: UTF8.self)
      while let newline = pending.firstIndex(of: "\n") {
        let line = String(pending[..<newline])
        pending = String(pending[pending.index(after: newline)...])
        // WM_NAME(STRING) = "CloudScrub — desk — frame 240/240"
        guard let quote = line.firstIndex(of: "\"") else { continue }
        let title = String(line[line.index(after: quote)...].dropLast())
        if title.contains("frame") && !title.contains("loading") { return title }
      }
    }
  }

  /// Waits until a second passes in which the process used under 5 % of a core (the
  /// picture refined to its end); returns the seconds waited.
  func settle(_ pid: Int32, timeoutSeconds: Double) -> Double {
    let started = Date()
    while Date().timeIntervalSince(started) < timeoutSeconds {
      if idleCPU(of: pid, settleSeconds: 0, overSeconds: 1) < 0.05 { break }
    }
    return Date().timeIntervalSince(started)
  }

  /// The share of one core the process used over `overSeconds`, after `settleSeconds`.
  func idleCPU(of pid: Int32, settleSeconds: Double, overSeconds: Double) -> Double {
    Thread.sleep(forTimeInterval: settleSeconds)
    let before = Self.processorTicks(of: pid)
    let started = Date()
    Thread.sleep(forTimeInterval: overSeconds)
    let after = Self.processorTicks(of: pid)
    let seconds = Date().timeIntervalSince(started)
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    return Double(after - before) / ticksPerSecond / max(seconds, 1e-3)
  }

  /// User and system ticks of the process (fields 14 and 15 of /proc/PID/stat).
  static func processorTicks(of pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    // Fields after the command name, which may hold spaces: state is field 3.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return 0
    }
    return user + system
  }

  /// VmHWM of the process in bytes.
  static func peakResidentBytes(of pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
  }

  /// Presses the left button over the cloud, moves it, and times until a screenshot
  /// differs from the one before the drag; then lets go.
  func dragAnswerSeconds(step: Int, timeoutSeconds: Double) throws -> Double {
    let before = try run(["xwd", "-root", "-silent"])
    let x = 640
    let y = 350 + 10 * step
    let started = Date()
    try run([
      "xdotool", "mousemove", String(x), String(y), "mousedown", "1", "mousemove",
      String(x + 20), String(y + 2), "mousemove", String(x + 60), String(y + 6),
    ])
    var answered = Double.infinity
    while Date().timeIntervalSince(started) < timeoutSeconds {
      let now = try run(["xwd", "-root", "-silent"])
      if !now.isEmpty && now != before {
        answered = Date().timeIntervalSince(started)
        break
      }
    }
    try run(["xdotool", "mouseup", "1"])
    return answered
  }
}
