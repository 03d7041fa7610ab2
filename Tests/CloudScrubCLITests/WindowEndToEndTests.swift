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

    // Play to the end: the recording does not loop, so playback stops there by itself
    // and the title drops " — playing" (pausing on the way would race the end, where a
    // second space starts playback again from the beginning).
    try x.key("space")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "playback to start") {
      $0.contains(" — playing") || Self.frame(in: $0)?.index == 11
    }
    let stopped = try x.waitForName(
      of: window, timeout: 60, stillRunning: alive, "playback to stop at the end"
    ) { !$0.contains(" — playing") }
    #expect(Self.frame(in: stopped)?.index == 11, "playback stopped at \(stopped)")

    // Drag the timeline slider from a quarter to half way, from frame 0, so that every
    // step of the drag shows in the title as the viewer handles it.
    try x.key("Home")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 0 before the drag") {
      $0.contains("frame 0/12")
    }
    let start = Layout.sliderPoint(fraction: 0.25)
    let end = Layout.sliderPoint(fraction: 0.5)
    let beforeHover = try XWDImage.capture(display: display)
    try x.moveMouse(x: start.x, y: start.y)
    // The panels take a press where their last frame saw the pointer, so wait for a
    // frame that shows the slider hovered before pressing.
    try WindowScreen.waitForScreen(timeout: 30, display: display, "the slider to show hover") {
      WindowScreen.changedPixels(beforeHover, $0, in: Layout.slider) > 1_000
    }
    try x.mouseDown()
    // The press puts the playhead under the pointer, a quarter along 0…11 (2 or so, the
    // grab's width shifts it): seen in the title, the press has been handled.
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "the press on the slider") {
      (1...3).contains(Self.frame(in: $0)?.index ?? -1)
    }
    // One move, so that the first title past the quarter is where the drag ends. The
    // button stays down until the title shows it: a move handled in the same frame as
    // the release would end the drag before the slider followed it (Dear ImGui lets go
    // of a slider whose button is up without reading the pointer).
    try x.moveMouse(x: end.x, y: end.y)
    // Half way along 0…11 is 5.5; allow one frame either side of 5 or 6 for the grab
    // width and for rounding.
    let halfWay = { (title: String) in (4...7).contains(Self.frame(in: title)?.index ?? -1) }
    let scrubbed = try x.waitForName(
      of: window, timeout: 30, stillRunning: alive, "half way", until: halfWay)
    let held = try WindowScreen.waitForSteadyScreen(
      display: display, timeout: 30, in: Layout.slider)
    try x.mouseUp()
    #expect(halfWay(scrubbed), "the slider at one half gave \(scrubbed)")
    // Dear ImGui keeps the keyboard while a widget is active, and the viewer asks it as
    // of the frame before: a key that came with the release would be dropped. The
    // slider drawn let go (its grab no longer in the active colour), then drawn no
    // longer hovered once the pointer has left, shows two frames have run since.
    let released = try WindowScreen.waitForScreen(
      timeout: 30, display: display, "the slider let go"
    ) { WindowScreen.changedPixels(held, $0, in: Layout.slider) > 500 }
    try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
    try WindowScreen.waitForScreen(timeout: 30, display: display, "the slider not hovered") {
      WindowScreen.changedPixels(released, $0, in: Layout.slider) > 500
    }

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
}
