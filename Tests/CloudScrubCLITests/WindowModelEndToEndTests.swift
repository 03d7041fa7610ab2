import Foundation
import TestSupport
import Testing

/// The Model section in the real window, with each renderer: "Fuse shown frames" fuses
/// the small capture in the background, the mesh replaces the points on screen, S
/// shows the points with it, stepping the timeline marks it stale, and OpenGL and the
/// CPU rasterizer draw the same picture of it.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowModelEndToEndTests {
  /// The Model header with the controls scrolled to the bottom, and the Fuse button
  /// once the section is open (checked on screenshots of the 12-frame capture).
  static let modelHeader = (x: 55, y: 665)
  static let fuseButton = (x: 120, y: 635)
  /// Where the pointer rests to scroll the controls: over text, not a widget.
  static let scrollSpot = (x: 200, y: 240)

  /// Scrolls the controls to their end and waits until a screenshot shows them there,
  /// then steady. Two equal screenshots alone do not say the scroll is over: a loaded
  /// machine can leave the wheel events unread between them, and a click that lands
  /// while the panel still moves presses one widget and lets go of another.
  static func scrollControlsDown(_ x: XDoTool, display: String) throws {
    try x.moveMouse(x: scrollSpot.x, y: scrollSpot.y)
    for _ in 0..<12 {
      try x.mouseDown(5)
      try x.mouseUp(5)
    }
    try WindowScreen.waitForScreen(
      timeout: 60, display: display, "the controls scrolled to their end", until: scrolledToTheEnd)
    try WindowScreen.waitForSteadyScreen(display: display, timeout: 30, in: Layout.controls)
  }

  /// Whether the controls' scrollbar grab reaches the bottom of its track (x 290, 2 px
  /// above the track's end at y 696), where it is only once they are scrolled to their
  /// end, whatever section is open (checked on screenshots: grab grey 79, track 10).
  static func scrolledToTheEnd(_ image: XWDImage) -> Bool {
    let p = image.pixel(x: 290, y: 694)
    return WindowScreen.distance((Int(p.r), Int(p.g), Int(p.b)), (79, 79, 79)) < 12
  }

  /// The mesh fused in the window drawn by `renderer`, after checking what the window
  /// shows on the way.
  static func meshPicture(renderer: String) throws -> XWDImage? {
    var picture: XWDImage?
    try ViewerProcess.withSmallRecording(options: ["--renderer", renderer]) {
      viewer, display, _ in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try viewer.waitUntilSmallRecordingLoaded(x)
      let points = try WindowScreen.waitForSteadyScreen(display: display, timeout: 60)
      try scrollControlsDown(x, display: display)
      try WindowScreen.click(x, at: modelHeader, display: display)
      try scrollControlsDown(x, display: display)
      try WindowScreen.click(x, at: fuseButton, display: display)
      try x.waitForName(of: window, timeout: 300, stillRunning: alive, "the fused mesh") {
        $0.hasSuffix("/12 — mesh")
      }
      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y + 200)
      try WindowScreen.waitForScreen(timeout: 60, display: display, "the mesh drawn") {
        WindowScreen.changedPixels(points, $0, in: Layout.scene) > 2_000
      }
      let mesh = try WindowScreen.waitForSteadyScreen(display: display, timeout: 60)
      picture = mesh

      try x.key("s")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "mesh and points") {
        $0.hasSuffix(" — mesh and points")
      }
      try WindowScreen.waitForScreen(timeout: 60, display: display, "the points over the mesh") {
        WindowScreen.changedPixels(mesh, $0, in: Layout.scene) > 2_000
      }
      try x.key("Left")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "a stale mesh") {
        $0.contains("frame 10/12") && $0.hasSuffix(" — mesh and points (stale)")
      }
      #expect(viewer.isRunning)
    }
    return picture
  }

  @Test func fuseShowTheMeshAndDrawItAlikeWithEitherRenderer() throws {
    let cpu = try #require(try Self.meshPicture(renderer: "cpu"))
    let gl = try #require(try Self.meshPicture(renderer: "gl"))
    // The tolerance of the renderers' pictures (MeshAgreementTests): 1 % of the view.
    let differing = WindowScreen.changedPixels(cpu, gl, in: Layout.scene)
    if differing > Layout.sceneArea / 100 {
      let pid = getpid()
      Issue.record(
        "\(differing) pixels differ: \(cpu.saveForInspection("model-cpu-\(pid)")), \(gl.saveForInspection("model-gl-\(pid)"))"
      )
    }
  }
}
