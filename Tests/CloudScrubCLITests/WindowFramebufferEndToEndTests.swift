import Foundation
import TestSupport
import Testing

/// A scene framebuffer that cannot be made: `CLOUDSCRUB_SCENE_TARGET_LIMIT` lowers the
/// largest side the OpenGL backend accepts, as a GPU whose `GL_MAX_TEXTURE_SIZE` is
/// smaller than the picture would. `render` fails with the reason; the window says it
/// in its message (and its title's error mark and standard error) and keeps running.
@Suite(.serialized) struct WindowFramebufferEndToEndTests {
  static func synthesized(in folder: URL) throws -> String {
    let recording = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "4"])
    try #require(synth.status == 0, "synth failed: \(synth.standardError)")
    return recording
  }

  @Test func renderFailsWithTheReasonWhenTheSceneFramebufferCannotBeMade() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = try Self.synthesized(in: folder)
    let output = folder.appendingPathComponent("out.png")
    let refused = try CommandRunner.run(
      executable: CommandRunner.binary,
      ["render", recording, "-o", output.path, "--size", "240x150", "--renderer", "gl"],
      environment: ["CLOUDSCRUB_SCENE_TARGET_LIMIT": "200"])
    #expect(refused.status == 1)
    #expect(
      refused.standardError.contains(
        "the scene framebuffer cannot be 240×150 pixels: this OpenGL draws at most 200 pixels"),
      "\(refused.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output.path), "a picture was written")
    // The CPU rasterizer draws into the same scene target: the same failure.
    let cpu = try CommandRunner.run(
      executable: CommandRunner.binary,
      ["render", recording, "-o", output.path, "--size", "240x150", "--renderer", "cpu"],
      environment: ["CLOUDSCRUB_SCENE_TARGET_LIMIT": "200"])
    #expect(cpu.status == 1, "\(cpu.standardError)")
    // At the limit itself the picture is made.
    let fits = try CommandRunner.run(
      executable: CommandRunner.binary,
      ["render", recording, "-o", output.path, "--size", "240x150", "--renderer", "gl"],
      environment: ["CLOUDSCRUB_SCENE_TARGET_LIMIT": "240"])
    #expect(fits.status == 0, "\(fits.standardError)")
    #expect(FileManager.default.fileExists(atPath: output.path))
  }

  @Test(
    .enabled(
      if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
  func theWindowSaysWhyItsThreeDViewIsEmptyAndKeepsRunning() throws {
    try ViewerProcess.withSmallRecording(
      options: ["--level-of-detail", "off"],
      environment: ["CLOUDSCRUB_SCENE_TARGET_LIMIT": "100"]
    ) { viewer, display, _ in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try x.waitForWindow(
        named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
      // The 3D view (664×686 here) is past the limit: the title carries the error mark.
      try x.waitForName(of: window, timeout: 60, stillRunning: alive, "the error mark") {
        $0.hasSuffix(" — error") && $0.contains("frame 11/12")
      }
      let reason = "cloudscrub: cannot draw the 3D view: the scene framebuffer cannot be"
      #expect(viewer.output.contains(reason), "\(viewer.output)")
      // The message is in the panel: the controls panel shows red text.
      let screen = try XWDImage.capture(display: display)
      var red = 0
      for y in Layout.controls.y..<(Layout.controls.y + Layout.controls.height) {
        for x in Layout.controls.x..<(Layout.controls.x + Layout.controls.width) {
          let p = screen.pixel(x: x, y: y)
          if p.r > 180 && p.g < 140 && p.b < 140 { red += 1 }
        }
      }
      #expect(red > 50, "no red message text in the controls panel (\(red) pixels)")
      // Still running and answering: a step back shows in the title.
      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
      try x.key("Left")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 10") {
        $0.contains("frame 10/12")
      }
      #expect(viewer.isRunning, "the viewer exited")
    }
  }
}
