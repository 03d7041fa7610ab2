import Foundation
import TestSupport
import Testing

/// Screenshots of the viewer window on a virtual X server, for the end-to-end tests.
enum WindowScreen {

  /// Takes screenshots until `condition` holds for one and returns it. Polling rather
  /// than sleeping because a frame-loop turn takes a variable time with software GL.
  @discardableResult
  static func waitForScreen(
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
  ///
  /// In the 3D view, two equal screenshots can still be one pass of a scene that
  /// refines: on a loaded machine a pass can outlast two screenshots. There the title
  /// must also say the last pass is on screen (no " — drawing") between the two
  /// screenshots of the pair and after the second.
  @discardableResult
  static func waitForSteadyScreen(
    display: String, timeout: TimeInterval,
    in area: (x: Int, y: Int, width: Int, height: Int) = Layout.scene
  ) throws -> XWDImage {
    let x = XDoTool(display: display)
    let watchesTitle = area == Layout.scene
    // The title is read after each screenshot: a pair counts when it said the scene was
    // drawn after the first (so before the second) and after the second.
    var previous: (image: XWDImage, rested: Bool)?
    return try waitForScreen(timeout: timeout, display: display, "a steady picture") { image in
      let rested = !watchesTitle || ((try? sceneIsDrawn(x)) ?? false)
      defer { previous = (image, rested) }
      guard let previous, previous.rested, rested else { return false }
      return changedPixels(previous.image, image, in: area) == 0
    }
  }

  /// Whether no viewer window's title says its 3D view is still drawing passes.
  private static func sceneIsDrawn(_ x: XDoTool) throws -> Bool {
    let found = try XTools.run("xdotool", ["search", "--name", "^CloudScrub"], display: x.display)
    // Status 1 with no output: no viewer window (yet), so nothing is drawing.
    guard found.status == 0 else { return true }
    for window in found.standardOutput.split(whereSeparator: \.isNewline) {
      if try x.windowName(String(window)).contains(" — drawing") { return false }
    }
    return true
  }

  /// Clicks the panel widget at `point` the way Dear ImGui needs it, judged on
  /// screenshots of a small spot around it rather than on waits: the pointer rests on
  /// the widget until a frame shows it hovered (a press counts for the widget the
  /// previous frame had under the pointer), the button stays down until a frame shows
  /// the widget held, and the click ends once a frame shows it let go (toggled,
  /// checked, or back to its hovered look), then the panel drawn steady.
  static func click(_ x: XDoTool, at point: (x: Int, y: Int), display: String) throws {
    let spot = (x: point.x - 10, y: point.y - 4, width: 21, height: 9)
    let resting = try XWDImage.capture(display: display)
    try x.moveMouse(x: point.x, y: point.y)
    let hovered = try waitForScreen(
      timeout: 30, display: display, "the widget at \(point) to show hover"
    ) { changedPixels(resting, $0, in: spot) > 20 }
    try x.mouseDown()
    let held = try waitForScreen(
      timeout: 30, display: display, "the widget at \(point) to show it is held"
    ) { changedPixels(hovered, $0, in: spot) > 20 }
    try x.mouseUp()
    try waitForScreen(timeout: 30, display: display, "the widget at \(point) to be let go") {
      changedPixels(held, $0, in: spot) > 20
    }
    try waitForSteadyScreen(display: display, timeout: 30, in: Layout.controls)
  }

  /// Pixels of the 3D view that are clearly coloured; the background and the grid are
  /// grey, so they do not count.
  static func colouredPixels(in image: XWDImage) -> Int {
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
  static func dominantColours(in image: XWDImage) -> [(r: Int, g: Int, b: Int)] {
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
  static func changedPixels(
    _ a: XWDImage, _ b: XWDImage, in area: (x: Int, y: Int, width: Int, height: Int)
  ) -> Int {
    var count = 0
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width)
      where differs(a.pixel(x: x, y: y), b.pixel(x: x, y: y)) {
        count += 1
      }
    }
    return count
  }

  static func differs(_ a: (r: UInt8, g: UInt8, b: UInt8), _ b: (r: UInt8, g: UInt8, b: UInt8))
    -> Bool
  {
    abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 30
  }

  static func distance(_ a: (r: Int, g: Int, b: Int), _ b: (r: Int, g: Int, b: Int)) -> Int {
    abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)
  }
}

/// Where things are in a 1280×800 window at pixel scale 1 (ViewerPanels.swift: 8 px
/// margins, 290 px side panels, a 78 px timeline).
enum Layout {
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
  /// Controls panel widgets, with every section open and no message shown: the
  /// trajectory checkbox, then the section headers (Points, Timeline and View folded
  /// move Clean up to y 204), the crop box checkbox under Clean, and the Export button
  /// once Clean is open and the crop fields show (17 px lower under a message line).
  static let trajectoryToggle = (x: 25, y: 451)
  static let viewHeader = (x: 55, y: 382)
  static let timelineHeader = (x: 55, y: 290)
  static let pointsHeader = (x: 55, y: 135)
  static let cleanHeader = (x: 55, y: 204)
  static let cropToggle = (x: 25, y: 227)
  static let exportButton = (x: 110, y: 503)
  static let exportButtonAfterMessage = (x: 110, y: 520)
  /// The shader's colour for high confidence (0.2, 0.8, 0.3).
  static let confidenceGreen = (r: 51, g: 204, b: 77)

  static func sliderPoint(fraction: Double) -> (x: Int, y: Int) {
    (sliderLeft + Int((Double(sliderWidth) * fraction).rounded()), sliderY)
  }
}

/// The viewer, started on a given X display with its output kept in a file.
final class ViewerProcess {
  /// Makes a 12-frame synthetic recording `small.csrec` in a temporary folder, starts a
  /// private X server and `cloudscrub view` on it, and runs `drive` with the viewer, the
  /// display and the folder. A failure in `drive` is recorded with the viewer's output.
  /// `options` go to `view` after the path (`--renderer cpu`). The alignment error is
  /// not measured unless `alignment` says so: the timeline then holds no curve, which is
  /// the layout `Layout`'s positions were measured in. `synthOptions` go to `synth`
  /// (`--drift`). `environment` adds variables to the viewer's environment.
  static func withSmallRecording(
    options: [String] = [], alignment: Bool = false, synthOptions: [String] = [],
    environment: [String: String] = [:],
    _ drive: (ViewerProcess, String, URL) throws -> Void
  ) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "12"] + synthOptions)
    try #require(synth.status == 0, "synth failed: \(synth.standardError)")

    let xvfb = try XvfbSession(width: Layout.screenWidth, height: Layout.screenHeight)
    // Deferred blocks run last-first: the viewer goes before its X server.
    defer { xvfb.stop() }
    let viewer = try ViewerProcess(
      arguments: ["view", recording] + options + (alignment ? [] : ["--alignment", "off"]),
      display: xvfb.display, folder: folder, environment: environment)
    defer { viewer.terminate() }
    do {
      try drive(viewer, xvfb.display, folder)
    } catch {
      // The viewer's own output says why it died or what it complained about.
      Issue.record("\(error)\n--- viewer output ---\n\(viewer.output)")
    }
  }

  private let process = Process()
  private let logURL: URL

  init(
    arguments: [String], display: String, folder: URL, environment extra: [String: String] = [:]
  ) throws {
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
    environment.merge(extra) { _, new in new }
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = log
    process.standardError = log
    try process.runWithSignalsUnblocked()
  }

  var isRunning: Bool { process.isRunning }

  /// The processor time the viewer has used so far, in clock ticks (user and system,
  /// from /proc), nil when it cannot be read.
  var processorTicks: Int? {
    guard
      let stat = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the command name: state is field 3, utime 14 and stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return nil
    }
    return user + system
  }

  /// Waits for the window of `withSmallRecording`'s 12 frames and for all of them to
  /// have loaded, and returns the window.
  func waitUntilSmallRecordingLoaded(_ x: XDoTool) throws -> String {
    let alive = { self.isRunning }
    let window = try x.waitForWindow(
      named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
    try x.waitForName(of: window, timeout: 120, stillRunning: alive, "fully loaded title") {
      !$0.hasSuffix(" — loading") && $0.contains("/12")
    }
    return window
  }

  /// What the viewer wrote to standard output and standard error so far.
  var output: String {
    (try? String(contentsOf: logURL, encoding: .utf8)) ?? "(no output file)"
  }

  /// Stops the viewer (as a window manager's kill would), forcefully if it lingers.
  func terminate() { process.stop() }
}
