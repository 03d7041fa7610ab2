import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// The Record section in the real window: V records what the 3D view shows until V
/// again, into `small.mp4` beside the recording, whose last frame is the picture on the
/// screen; "Timeline" draws the capture as it plays off screen, a frame a turn.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowRecordEndToEndTests {
  /// The Record header with the controls scrolled to the bottom, and its Timeline button
  /// once the section is open (checked on screenshots of the 12-frame capture).
  static let recordHeader = (x: 55, y: 688)
  static let timelineButton = (x: 128, y: 632)
  /// The 3D view on the screen (`Layout.scene` is inset from it).
  static let view = (x: 306, y: 8, width: 668, height: 698)

  @Test func vRecordsTheViewAndTimelineDrawsTheCapture() throws {
    try ViewerProcess.withSmallRecording(options: ["--renderer", "cpu"]) {
      viewer, display, folder in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try viewer.waitUntilSmallRecordingLoaded(x)
      _ = try WindowScreen.waitForSteadyScreen(display: display, timeout: 60)
      try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y)
      try x.key("v")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "recording") {
        $0.hasSuffix(" — recording")
      }
      try x.key("Left")
      // The title says " — drawing" until the level of detail's last pass is on screen.
      try x.waitForName(of: window, timeout: 60, stillRunning: alive, "frame 10 drawn") {
        $0.contains("frame 10/12") && !$0.contains(" — drawing")
      }
      let screen = try XWDImage.capture(display: display)
      try x.key("v")
      try x.waitForName(of: window, timeout: 60, stillRunning: alive, "recording stopped") {
        !$0.contains("recording")
      }
      let video = folder.appendingPathComponent("small.mp4").path
      let recorded = try VideoCommandTests.frames(video)
      #expect(recorded.decoder.width == Self.view.width)
      #expect(recorded.decoder.height == Self.view.height)
      #expect(recorded.decoder.framesPerSecond == 30)
      let last = try #require(recorded.images.last)
      #expect(recorded.images.count >= 2)
      // The last frame is the view on the screen, within H.264's loss.
      var pixels: [UInt8] = []
      for y in 0..<Self.view.height {
        for x in 0..<Self.view.width {
          let pixel = screen.pixel(x: Self.view.x + x, y: Self.view.y + y)
          pixels += [pixel.r, pixel.g, pixel.b]
        }
      }
      let onScreen = RGBImage(width: Self.view.width, height: Self.view.height, pixels: pixels)
      #expect(VideoCommandTests.meanLumaDifference(last, onScreen) < 3)

      try FileManager.default.removeItem(atPath: video)
      try WindowModelEndToEndTests.scrollControlsDown(x, display: display)
      try WindowScreen.click(x, at: Self.recordHeader, display: display)
      try WindowModelEndToEndTests.scrollControlsDown(x, display: display)
      try WindowScreen.click(x, at: Self.timelineButton, display: display)
      // The drawn video appears under the name only when complete.
      let appeared = try FolderWatch.waitForEntry(
        in: folder.path, prefix: "small.mp4", timeout: 300)
      try #require(appeared, "no drawn video appeared")
      try x.waitForName(of: window, timeout: 30, stillRunning: alive, "the video done") {
        !$0.contains(" — video ")
      }
      // 12 frames 1/30 s apart at 30 frames a second: one video frame each.
      let drawn = try VideoCommandTests.frames(video)
      #expect(drawn.images.count == 12)
      #expect(drawn.decoder.width == 1280 && drawn.decoder.height == 720)
      #expect(drawn.images.first != drawn.images.last)
      #expect(viewer.isRunning)
      #expect(!viewer.output.contains("error"), "\(viewer.output)")
    }
  }
}
