import Foundation
import TestSupport
import Testing

/// A window whose background passes have ended rests: once the title says nothing is
/// loading, measuring or sorting and the picture is drawn, the process uses (almost) no
/// processor time.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowRestEndToEndTests {
  /// Clock ticks a second (`sysconf(_SC_CLK_TCK)`, 100 on Linux).
  static let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))

  /// Waits until `viewer` has used no clock tick over three polls in a row, or until
  /// `timeout` seconds; whether it came to rest.
  static func waitUntilStill(_ viewer: ViewerProcess, timeout: TimeInterval) throws -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var last = try #require(viewer.processorTicks)
    var stillPolls = 0
    while stillPolls < 3 {
      guard Date() < deadline, viewer.isRunning else { return false }
      Thread.sleep(forTimeInterval: 0.2)
      let now = try #require(viewer.processorTicks)
      stillPolls = now == last ? stillPolls + 1 : 0
      last = now
    }
    return true
  }

  @Test func aWindowWithNothingLeftToDoRests() throws {
    try ViewerProcess.withSmallRecording(options: ["--renderer", "cpu"], alignment: true) {
      viewer, display, _ in
      let x = XDoTool(display: display)
      let alive = { viewer.isRunning }
      let window = try viewer.waitUntilSmallRecordingLoaded(x)
      // The pointer away from the window first: hovering redraws the panels.
      try x.moveMouse(x: 1279, y: 799)
      try x.waitForName(of: window, timeout: 300, stillRunning: alive, "every pass ended") {
        !$0.contains(" — loading") && !$0.contains(" — measuring")
          && !$0.contains(" — sorting") && !$0.contains(" — drawing")
      }
      // The panels settle over a few frames after the title changes (each a picture
      // drawn by llvmpipe, a tenth of a second on a loaded machine): the measurement
      // starts once the process has used no processor time for a while.
      #expect(try Self.waitUntilStill(viewer, timeout: 120), "the window never came to rest")
      let before = try #require(viewer.processorTicks)
      // The sleep is the measurement's window, not a wait for something to happen: what
      // the window should do by then it has done (the title said so). A loaded machine
      // only delays its wake-ups, which cost no more processor time.
      Thread.sleep(forTimeInterval: 3)
      let after = try #require(viewer.processorTicks)
      // Resting, the loop wakes twice a second to look for events: a generous bound of
      // 5 % of a core over the 3 s.
      #expect(after - before <= 3 * Self.ticksPerSecond / 20, "\(after - before) ticks in 3 s")
      #expect(viewer.isRunning)
    }
  }
}
