import Foundation
import TestSupport
import Testing

/// Picking in the real window: a click on a point of the shown frame opens the picking
/// panel, and its button takes the timeline back to that frame.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowPickingEndToEndTests {
  /// The picking panel in the 3D view's top-left corner (PickingPanel.swift: 8 px in
  /// from the view, 270 px wide, 128 px tall while inspecting).
  static let panel = (x: 314, y: 16, width: 270, height: 128)
  /// Its "Go to frame K" button, the fifth line (checked on a screenshot).
  static let goToFrameButton = (x: 360, y: 101)

  @Test func clickAPointThenJumpToItsFrame() throws {
    try ViewerProcess.withSmallRecording { viewer, display, _ in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try x.waitForWindow(
        named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
      try x.waitForName(of: window, timeout: 60, stillRunning: alive, "fully loaded title") {
        !$0.hasSuffix(" — loading") && $0.contains("/12")
      }
      // Only frame 5 shown: whatever the click picks belongs to frame 5.
      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
      try x.key("m", "Home", "Right", "Right", "Right", "Right", "Right")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 5") {
        $0.contains("frame 5/12")
      }
      let shown = try WindowScreen.waitForSteadyScreen(display: display, timeout: 30)
      let target = try #require(Self.colouredPixel(nearCentreOf: shown), "no point is drawn")
      try x.moveMouse(x: target.x, y: target.y)
      try x.mouseDown()
      try x.mouseUp()
      try WindowScreen.waitForScreen(timeout: 30, display: display, "the picking panel") {
        WindowScreen.changedPixels(shown, $0, in: Self.panel) > 2_000
      }

      // Away to the last frame, then back with the panel's button.
      try x.key("End")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 11") {
        $0.contains("frame 11/12")
      }
      let beforeHover = try WindowScreen.waitForSteadyScreen(display: display, timeout: 30)
      try x.moveMouse(x: Self.goToFrameButton.x, y: Self.goToFrameButton.y)
      // ImGui takes the press only once a frame has seen the pointer over the button.
      let hovered = try WindowScreen.waitForScreen(
        timeout: 30, display: display, "the button to show hover"
      ) {
        WindowScreen.changedPixels(beforeHover, $0, in: Self.panel) > 100
      }
      // Released only once a frame has drawn the button pressed (its active colour), so
      // the press cannot be lost between two frames however slow they are.
      try x.mouseDown()
      try WindowScreen.waitForScreen(timeout: 30, display: display, "the button to show pressed") {
        WindowScreen.changedPixels(hovered, $0, in: Self.panel) > 20
      }
      try x.mouseUp()
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "back at frame 5") {
        $0.contains("frame 5/12")
      }
      #expect(viewer.isRunning)
    }
  }

  /// The clearly coloured pixel nearest the 3D view's centre, outside the panel.
  static func colouredPixel(nearCentreOf image: XWDImage) -> (x: Int, y: Int)? {
    for radius in stride(from: 0, to: 200, by: 2) {
      for dy in -radius...radius {
        for dx in [-radius, radius] {
          let x = Layout.sceneCentre.x + dx
          let y = Layout.sceneCentre.y + dy
          let p = image.pixel(x: x, y: y)
          if Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)) > 40 { return (x, y) }
        }
      }
    }
    return nil
  }
}
