import Foundation
import TestSupport
import Testing

/// Pose refinement in the real window, on a small capture with a known drift: "Refine
/// poses" on the timeline runs in the background while the window keeps drawing, the
/// title says when it is done, B switches between the recorded and the refined poses
/// (a different picture), and the export writes the points where they are drawn.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowRefineEndToEndTests {
  /// "Refine poses" on the timeline's first row, after the frame line (checked on a
  /// screenshot of the 12-frame capture, no error curve).
  static let refineButton = (x: 572, y: 731)
  static let timeline = (x: 8, y: 714, width: 1264, height: 78)
  /// The Export button with every section as it opens and a message line above them
  /// (`Layout.exportButtonAfterMessage` is measured with the View section closed).
  static let exportButton = (x: 110, y: 636)

  @Test func refineToggleAndExportTheRefinedCloud() throws {
    try ViewerProcess.withSmallRecording(synthOptions: ["--drift", "0.08,4"]) {
      viewer, display, folder in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try viewer.waitUntilSmallRecordingLoaded(x)
      let recorded = try WindowScreen.waitForSteadyScreen(display: display, timeout: 60)

      // ImGui takes a press only once a frame has seen the pointer over the button, and
      // the release only once a frame has drawn it pressed.
      let idle = try WindowScreen.waitForSteadyScreen(
        display: display, timeout: 30, in: Self.timeline)
      try x.moveMouse(x: Self.refineButton.x, y: Self.refineButton.y)
      let hovered = try WindowScreen.waitForScreen(
        timeout: 30, display: display, "the Refine button to show hover"
      ) { WindowScreen.changedPixels(idle, $0, in: Self.timeline) > 50 }
      try x.mouseDown()
      try WindowScreen.waitForScreen(timeout: 30, display: display, "the button pressed") {
        WindowScreen.changedPixels(hovered, $0, in: Self.timeline) > 20
      }
      try x.mouseUp()
      try x.waitForName(of: window, timeout: 300, stillRunning: alive, "refined poses") {
        $0.hasSuffix(" — refined poses")
      }
      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y + 200)
      // The picture may still be refining in passes: wait for it to differ, then to
      // settle (a steady picture alone may be one a slow turn has not replaced yet).
      try WindowScreen.waitForScreen(timeout: 60, display: display, "the refined picture") {
        WindowScreen.changedPixels(recorded, $0, in: Layout.scene) > 2_000
      }
      let refined = try WindowScreen.waitForSteadyScreen(display: display, timeout: 60)
      #expect(WindowScreen.changedPixels(recorded, refined, in: Layout.scene) > 2_000)
      let export = folder.appendingPathComponent("small-export.ply")
      let refinedExport = try Self.exported(x, to: export, display: display)

      // The key goes to the scene while the pointer is over it, not over a panel.
      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y + 200)
      try x.key("Left")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 10") {
        $0.contains("frame 10/12")
      }
      try x.key("End", "b")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "recorded poses") {
        $0.hasSuffix(" — recorded poses")
      }
      try WindowScreen.waitForScreen(timeout: 60, display: display, "the recorded picture") {
        WindowScreen.changedPixels(refined, $0, in: Layout.scene) > 2_000
      }
      let back = try WindowScreen.waitForSteadyScreen(display: display, timeout: 60)
      #expect(WindowScreen.changedPixels(refined, back, in: Layout.scene) > 2_000)
      let recordedExport = try Self.exported(x, to: export, display: display)
      // The same points, moved: one header, other coordinates.
      #expect(refinedExport.count == recordedExport.count)
      #expect(refinedExport != recordedExport)
      #expect(viewer.isRunning)
    }
  }

  /// Clicks Export (a message line sits above the panel by now), waits for the file and
  /// returns its bytes.
  static func exported(_ x: XDoTool, to file: URL, display: String) throws -> Data {
    try? FileManager.default.removeItem(at: file)
    // The click waits for the button drawn hovered, held and let go, not by time.
    try WindowScreen.click(x, at: Self.exportButton, display: display)
    // The export is written under a hidden temporary name and renamed when complete.
    let appeared = try FolderWatch.waitForEntry(
      in: file.deletingLastPathComponent().path, prefix: file.lastPathComponent, timeout: 60)
    guard appeared else { throw XToolError("no export appeared at \(file.path)") }
    return try Data(contentsOf: file)
  }
}
