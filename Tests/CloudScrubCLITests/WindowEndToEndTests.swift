import Foundation
import TestSupport
import Testing

/// The real viewer window on a virtual X server, driven with the pointer and keyboard
/// the way a user would and checked through its title and screenshots.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowEndToEndTests {
  /// The same scenario with OpenGL drawing the points and with the CPU rasterizer.
  @Test(arguments: ["gl", "cpu"])
  func stepPlayRecolourScrubAndOrbitARecording(renderer: String) throws {
    try ViewerProcess.withSmallRecording(options: ["--renderer", renderer]) { viewer, display, _ in
      try Self.drive(viewer, on: display)
    }
  }

  // MARK: - The scenario

  private static func drive(_ viewer: ViewerProcess, on display: String) throws {
    let x = XDoTool(display: display)
    let alive = { viewer.isRunning }
    let window = try x.waitForWindow(
      named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
    // The title drops " — loading" when the loader finishes, which can be a frame-loop
    // turn before the last frames are shown, so wait for the full count as well.
    try x.waitForName(of: window, timeout: 60, stillRunning: alive, "fully loaded title") {
      !$0.hasSuffix(" — loading") && Self.frame(in: $0)?.count == 12
    }

    // Step with the keyboard, pointing at the 3D view first as the viewer's keys are
    // meant for the scene, not for a panel under the pointer.
    try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
    try x.key("Home")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 0") {
      $0.contains("frame 0/12")
    }
    try x.key("Right", "Right", "Right")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 3") {
      $0.contains("frame 3/12")
    }

    // The 3D view shows coloured points (the background and the grid are grey).
    let rgb = try WindowScreen.waitForScreen(
      timeout: 30, display: display, "coloured points in the 3D view"
    ) {
      WindowScreen.colouredPixels(in: $0) > Layout.sceneArea / 50
    }

    // Colour by confidence: the picture turns mostly confidence green and yellow.
    try x.key("4")
    let confidence = try WindowScreen.waitForScreen(
      timeout: 30, display: display, "confidence colours"
    ) {
      WindowScreen.dominantColours(in: $0).contains {
        WindowScreen.distance($0, Layout.confidenceGreen) < 30
      }
    }
    let recoloured = WindowScreen.changedPixels(rgb, confidence, in: Layout.scene)
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
    try WindowScreen.waitForScreen(timeout: 30, display: display, "the slider to show hover") {
      WindowScreen.changedPixels(beforeHover, $0, in: Layout.slider) > 1_000
    }
    try x.mouseDown()
    try x.moveMouse(x: (start.x + end.x) / 2, y: start.y)
    try x.moveMouse(x: end.x, y: end.y)
    // Half way along 0…11 is 5.5; allow one frame either side of 5 or 6 for the grab
    // width and for rounding. The button stays down until the viewer has seen the
    // pointer there (the title says so): a release that came first would end the drag
    // before it moved, however fast or slow the frames are.
    let halfWay = { (title: String) in (4...7).contains(Self.frame(in: title)?.index ?? -1) }
    _ = try? x.waitForName(of: window, timeout: 30, stillRunning: alive, "half way", until: halfWay)
    try x.mouseUp()
    // The title passes through the frames on the way, so judge it once it settles.
    let scrubbed = try Self.waitForSteadyName(of: window, x: x, steadyFor: 1, timeout: 30)
    #expect(halfWay(scrubbed), "the slider at one half gave \(scrubbed)")

    // Orbit. A press counts as a panel's while the previous frame had the pointer over
    // one, so after moving back into the 3D view, End's visible effect on the title
    // (from frame 5 or 6) proves a turn has run with the pointer off the panels before
    // the button goes down.
    try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
    try x.key("End")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 11") {
      $0.contains("frame 11/12")
    }
    try x.mouseDown()
    // The viewer takes a press's position from the pointer's position when it handles
    // the press, not from the event, so moves that arrive in the same turn would be
    // cancelled out. Home's effect on the title shows that the press has been handled.
    try x.key("Home")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 0") {
      $0.contains("frame 0/12")
    }
    let beforeOrbit = try WindowScreen.waitForSteadyScreen(display: display, timeout: 30)
    for step in 1...4 {
      try x.moveMouse(x: Layout.sceneCentre.x + 30 * step, y: Layout.sceneCentre.y)
    }
    try x.mouseUp()
    let afterOrbit = try WindowScreen.waitForScreen(
      timeout: 30, display: display, "the orbited view"
    ) {
      WindowScreen.changedPixels(beforeOrbit, $0, in: Layout.scene) > Layout.sceneArea / 50
    }
    // The camera moves, the panels stay: the controls panel is unchanged.
    let panelChanges = WindowScreen.changedPixels(beforeOrbit, afterOrbit, in: Layout.controls)
    #expect(
      panelChanges < Layout.controls.width * Layout.controls.height / 200,
      "\(panelChanges) panel pixels moved")
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
}
