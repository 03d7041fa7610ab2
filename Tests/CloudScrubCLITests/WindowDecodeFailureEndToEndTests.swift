import Foundation
import TestSupport
import Testing

/// A frame whose images cannot be decoded says so in the Frame panel instead of
/// showing nothing (or the previous frame's images): the recording is damaged on disk
/// after the viewer loaded it, and the viewer decodes the playhead's frame again for
/// its images.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowDecodeFailureEndToEndTests {
  /// The Frame panel on the right (ViewerPanels.swift: 290 px wide, 8 px margins).
  static let framePanel = (x: 982, y: 8, width: 290, height: 690)

  /// Pixels of the error colour (0.95, 0.4, 0.35) in `area`, and other clearly
  /// coloured pixels (the frame's images; the panel's text is white or grey).
  static func colours(
    in image: XWDImage, area: (x: Int, y: Int, width: Int, height: Int)
  ) -> (error: Int, other: Int) {
    var error = 0
    var other = 0
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width) {
        let p = image.pixel(x: x, y: y)
        if p.r > 180 && p.g > 60 && p.g < 140 && p.b > 50 && p.b < 130 {
          error += 1
        } else if Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)) > 60 {
          other += 1
        }
      }
    }
    return (error, other)
  }

  @Test func aFrameThatFailsToDecodeSaysWhyInTheFramePanel() throws {
    try ViewerProcess.withSmallRecording(options: ["--level-of-detail", "off"]) {
      viewer, display, folder in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try x.waitForWindow(
        named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
      try x.waitForName(of: window, timeout: 60, stillRunning: alive, "fully loaded title") {
        !$0.hasSuffix(" — loading") && $0.contains("frame 11/12")
      }
      // The last frame's images are up (the images may hold the error colour too;
      // once the failure is shown they are taken down, leaving the text).
      try WindowScreen.waitForSteadyScreen(display: display, timeout: 30, in: Self.framePanel)

      // Zeros over the first half of the frames (frame 0 among them), in place: the
      // viewer's mapping of the file sees them.
      let file = folder.appendingPathComponent("small.csrec")
      let size = try #require(
        try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
      let handle = try FileHandle(forWritingTo: file)
      try handle.seek(toOffset: UInt64(size / 50))
      try handle.write(contentsOf: Data(count: size / 2))
      try handle.close()

      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
      try x.key("Home")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 0") {
        $0.contains("frame 0/12")
      }
      // The viewer says it on standard error as the failure arrives …
      let reason = "cloudscrub: could not decode frame 0: "
      let deadline = Date().addingTimeInterval(30)
      while !viewer.output.contains(reason) {
        guard Date() < deadline, viewer.isRunning else {
          throw XToolError("no \"\(reason)\" within 30 s:\n\(viewer.output)")
        }
        Thread.sleep(forTimeInterval: 0.1)
      }
      #expect(viewer.output.contains("CRC-32 mismatch in frame 0"), "\(viewer.output)")
      // … and the Frame panel shows the reason in the error colour, with the last
      // frame's images taken down.
      try WindowScreen.waitForScreen(
        timeout: 30, display: display, "the decode failure in the Frame panel"
      ) {
        let found = Self.colours(in: $0, area: Self.framePanel)
        return found.error > 50 && found.other < 20
      }
      #expect(viewer.isRunning, "the viewer exited")
    }
  }
}
