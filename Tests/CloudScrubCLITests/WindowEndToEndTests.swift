import Foundation
import Testing
import TestSupport

/// The real viewer window on a virtual X server, driven with the pointer and keyboard
/// the way a user would and checked through its title and screenshots.
@Suite(
  .serialized,
  .enabled(if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowEndToEndTests {
  @Test func stepPlayRecolourScrubAndOrbitARecording() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "12"])
    try #require(synth.status == 0, "synth failed: \(synth.standardError)")

    let xvfb = try XvfbSession(width: Layout.screenWidth, height: Layout.screenHeight)
    // Deferred blocks run last-first: the viewer goes before its X server.
    defer { xvfb.stop() }
    let viewer = try ViewerProcess(
      arguments: ["view", recording], display: xvfb.display, folder: folder)
    defer { viewer.terminate() }
    do {
      try Self.drive(viewer, on: xvfb.display)
    } catch {
      // The viewer's own output says why it died or what it complained about.
      Issue.record("\(error)\n--- viewer output ---\n\(viewer.output)")
    }
  }

  // MARK: - The scenario

  private static func drive(_ viewer: ViewerProcess, on display: String) throws {
    let x = XDoTool(display: display)
    let alive = { viewer.isRunning }
    let window = try x.waitForWindow(named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
    // The title drops " — loading" when the loader finishes, which can be a frame-loop
    // turn before the last frames are shown, so wait for the full count as well.
    try x.waitForName(of: window, timeout: 60, stillRunning: alive, "fully loaded title") {
      !$0.hasSuffix(" — loading") && Self.frame(in: $0)?.count == 12
    }

    // Step with the keyboard, pointing at the 3D view first as the viewer's keys are
    // meant for the scene, not for a panel under the pointer.
    try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
    try x.key("Home")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 0") { $0.contains("frame 0/12") }
    try x.key("Right", "Right", "Right")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 3") { $0.contains("frame 3/12") }

    // The 3D view shows coloured points (the background and the grid are grey).
    let rgb = try Self.waitForScreen(timeout: 30, display: display, "coloured points in the 3D view") {
      Self.colouredPixels(in: $0) > Layout.sceneArea / 50
    }

    // Colour by confidence: the picture turns mostly confidence green and yellow.
    try x.key("4")
    let confidence = try Self.waitForScreen(timeout: 30, display: display, "confidence colours") {
      Self.dominantColours(in: $0).contains { Self.distance($0, Layout.confidenceGreen) < 30 }
    }
    let recoloured = Self.changedPixels(rgb, confidence, in: Layout.scene)
    #expect(recoloured > Layout.sceneArea / 50, "only \(recoloured) pixels changed colour")

    // Play; the non-looping recording may reach its end (and stop by itself) within a
    // single frame-loop turn under software OpenGL, when a second space would start it
    // again from the beginning, so pause only while it is still short of the end.
    try x.key("space")
    let playing = try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame > 3") {
      (Self.frame(in: $0)?.index ?? 0) > 3
    }
    if let index = Self.frame(in: playing)?.index, index < 11 { try x.key("space") }
    // A playing viewer moves on at least one frame a turn, so a title that holds still
    // for several turns means playback has stopped, paused or at the end.
    let stopped = try Self.waitForSteadyName(of: window, x: x, steadyFor: 1.5, timeout: 30)
    #expect((Self.frame(in: stopped)?.index ?? 0) > 3, "playback went back: \(stopped)")

    // Drag the timeline slider from a quarter to half way.
    let start = Layout.sliderPoint(fraction: 0.25)
    let end = Layout.sliderPoint(fraction: 0.5)
    let beforeHover = try XWDImage.capture(display: display)
    try x.moveMouse(x: start.x, y: start.y)
    // The viewer decides whether a press belongs to a panel from the previous frame's
    // hover state (else the press also starts an orbit), so wait for a frame that shows
    // the slider hovered before pressing.
    try Self.waitForScreen(timeout: 30, display: display, "the slider to show hover") {
      Self.changedPixels(beforeHover, $0, in: Layout.slider) > 1_000
    }
    try x.mouseDown()
    try x.moveMouse(x: (start.x + end.x) / 2, y: start.y)
    try x.moveMouse(x: end.x, y: end.y)
    try x.mouseUp()
    // The title passes through the frames on the way, so judge it once it settles.
    let scrubbed = try Self.waitForSteadyName(of: window, x: x, steadyFor: 1, timeout: 30)
    let scrubbedIndex = Self.frame(in: scrubbed)?.index ?? -1
    // Half way along 0…11 is 5.5; allow one frame either side of 5 or 6 for the grab
    // width and for rounding.
    #expect((4...7).contains(scrubbedIndex), "the slider at one half gave \(scrubbed)")

    // Orbit. A press counts as a panel's while the previous frame had the pointer over
    // one, so after moving back into the 3D view, End's visible effect on the title
    // (from frame 5 or 6) proves a turn has run with the pointer off the panels before
    // the button goes down.
    try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
    try x.key("End")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 11") { $0.contains("frame 11/12") }
    try x.mouseDown()
    // The viewer takes a press's position from the pointer's position when it handles
    // the press, not from the event, so moves that arrive in the same turn would be
    // cancelled out. Home's effect on the title shows that the press has been handled.
    try x.key("Home")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 0") { $0.contains("frame 0/12") }
    let beforeOrbit = try Self.waitForSteadyScreen(display: display, timeout: 30)
    for step in 1...4 {
      try x.moveMouse(x: Layout.sceneCentre.x + 30 * step, y: Layout.sceneCentre.y)
    }
    try x.mouseUp()
    let afterOrbit = try Self.waitForScreen(timeout: 30, display: display, "the orbited view") {
      Self.changedPixels(beforeOrbit, $0, in: Layout.scene) > Layout.sceneArea / 50
    }
    // The camera moves, the panels stay: the controls panel is unchanged.
    let panelChanges = Self.changedPixels(beforeOrbit, afterOrbit, in: Layout.controls)
    #expect(panelChanges < Layout.controls.width * Layout.controls.height / 200, "\(panelChanges) panel pixels moved")
    #expect(viewer.isRunning, "the viewer exited during the scenario")
  }

  // MARK: - Title

  /// The playhead's frame index and the loaded frame count from "… — frame K/N …".
  private static func frame(in title: String) -> (index: Int, count: Int)? {
    guard let match = title.firstMatch(of: /frame (\d+)\/(\d+)/),
      let index = Int(match.1), let count = Int(match.2)
    else { return nil }
    return (index, count)
  }

  /// Waits until the window's title has not changed for `steadyFor` seconds.
  private static func waitForSteadyName(
    of window: String, x: XDoTool, steadyFor: TimeInterval, timeout: TimeInterval
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = try x.windowName(window)
    var since = Date()
    while Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      let name = try x.windowName(window)
      if name != last {
        last = name
        since = Date()
      } else if Date().timeIntervalSince(since) >= steadyFor {
        return name
      }
    }
    throw XToolError("the title kept changing for \(timeout) s; last \"\(last)\"")
  }

  // MARK: - Screenshots

  /// Takes screenshots until `condition` holds for one and returns it. Polling rather
  /// than sleeping because a frame-loop turn takes a variable time with software GL.
  @discardableResult
  private static func waitForScreen(
    timeout: TimeInterval, display: String, _ what: String, until condition: (XWDImage) -> Bool
  ) throws -> XWDImage {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let image = try XWDImage.capture(display: display)
      if condition(image) { return image }
      if Date() >= deadline { throw XToolError("no screenshot showed \(what) within \(timeout) s") }
      Thread.sleep(forTimeInterval: 0.1)
    }
  }

  /// Takes screenshots until two in a row show the same 3D view, so that a picture
  /// taken just before a drag is not one the viewer is still about to redraw.
  private static func waitForSteadyScreen(display: String, timeout: TimeInterval) throws -> XWDImage {
    var previous = try XWDImage.capture(display: display)
    return try waitForScreen(timeout: timeout, display: display, "a steady 3D view") { image in
      defer { previous = image }
      return changedPixels(previous, image, in: Layout.scene) == 0
    }
  }

  /// Pixels of the 3D view that are clearly coloured; the background and the grid are
  /// grey, so they do not count.
  private static func colouredPixels(in image: XWDImage) -> Int {
    var count = 0
    let area = Layout.scene
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width) {
        let p = image.pixel(x: x, y: y)
        if Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)) > 40 { count += 1 }
      }
    }
    return count
  }

  /// The five most frequent exact colours among the 3D view's coloured pixels.
  private static func dominantColours(in image: XWDImage) -> [(r: Int, g: Int, b: Int)] {
    var counts: [Int: Int] = [:]
    let area = Layout.scene
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width) {
        let p = image.pixel(x: x, y: y)
        guard Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)) > 40 else { continue }
        counts[Int(p.r) << 16 | Int(p.g) << 8 | Int(p.b), default: 0] += 1
      }
    }
    return counts.sorted { $0.value > $1.value }.prefix(5).map {
      (r: $0.key >> 16, g: $0.key >> 8 & 0xff, b: $0.key & 0xff)
    }
  }

  /// Pixels inside `area` whose colours differ clearly between two screenshots.
  private static func changedPixels(
    _ a: XWDImage, _ b: XWDImage, in area: (x: Int, y: Int, width: Int, height: Int)
  ) -> Int {
    var count = 0
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width) where differs(a.pixel(x: x, y: y), b.pixel(x: x, y: y)) {
        count += 1
      }
    }
    return count
  }

  private static func differs(_ a: (r: UInt8, g: UInt8, b: UInt8), _ b: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
    abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 30
  }

  private static func distance(_ a: (r: Int, g: Int, b: Int), _ b: (r: Int, g: Int, b: Int)) -> Int {
    abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)
  }
}

/// Where things are in a 1280×800 window at pixel scale 1 (ViewerPanels.swift: 8 px
/// margins, 290 px side panels, a 78 px timeline).
private enum Layout {
  static let screenWidth = 1280
  static let screenHeight = 800
  /// The 3D view between the side panels and above the timeline, inset by 2 px so
  /// that panel borders stay out.
  static let scene = (x: 306 + 2, y: 8 + 2, width: 668 - 4, height: 690 - 4)
  static let sceneArea = scene.width * scene.height
  static let sceneCentre = (x: 640, y: 380)
  /// The left "Controls" panel.
  static let controls = (x: 8, y: 8, width: 290, height: 690)
  /// The slider fills the timeline panel's second row: the panel starts at y 714 and
  /// the row spans y 745…763 and x 16…1262 (checked on a screenshot).
  static let sliderLeft = 16
  static let sliderWidth = 1247
  static let sliderY = 754
  static let slider = (x: 16, y: 746, width: 1247, height: 17)
  /// The shader's colour for high confidence (0.2, 0.8, 0.3).
  static let confidenceGreen = (r: 51, g: 204, b: 77)

  static func sliderPoint(fraction: Double) -> (x: Int, y: Int) {
    (sliderLeft + Int((Double(sliderWidth) * fraction).rounded()), sliderY)
  }
}

/// The viewer, started on a given X display with its output kept in a file.
private final class ViewerProcess {
  private let process = Process()
  private let logURL: URL

  init(arguments: [String], display: String, folder: URL) throws {
    logURL = folder.appendingPathComponent("viewer.log")
    guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
      throw XToolError("cannot create \(logURL.path)")
    }
    let log = try FileHandle(forWritingTo: logURL)
    process.executableURL = CommandRunner.binary
    process.arguments = arguments
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    // GLFW would pick a Wayland compositor over DISPLAY if the test runs under one.
    environment["WAYLAND_DISPLAY"] = nil
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = log
    process.standardError = log
    try process.run()
  }

  var isRunning: Bool { process.isRunning }

  /// What the viewer wrote to standard output and standard error so far.
  var output: String {
    (try? String(contentsOf: logURL, encoding: .utf8)) ?? "(no output file)"
  }

  /// Stops the viewer (as a window manager's kill would), forcefully if it lingers.
  func terminate() {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}
