import Foundation
import TestSupport
import Testing

/// The X server the window tests start, and what the viewer says when it has none.
@Suite(
  .serialized,
  .enabled(if: XTools.installed(["Xvfb", "xdotool"]), "needs Xvfb and xdotool"))
struct WindowDisplayTests {
  /// The test server must not reset when its last client leaves. A reset is what made a
  /// window test fail now and then under load: the viewer connected while an xdotool
  /// call had just left, during the reset, and GLFW was refused the display. A reset
  /// clears the root window's properties, so a name that one client gives the root and
  /// the next client reads back shows, without any timing, whether the server reset in
  /// between (each `xdotool` run is a client that connects and leaves).
  @Test func theServerKeepsItsStateWhenTheLastClientLeaves() throws {
    let xvfb = try XvfbSession(width: 64, height: 64)
    defer { xvfb.stop() }
    let x = XDoTool(display: xvfb.display)
    let root = try x.run(["search", "--maxdepth", "0", "--name", ""])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    try #require(Int(root) != nil, "no root window id: '\(root)'")
    for round in 0..<3 {
      try x.run(["set_window", "--name", "kept-\(round)", root])
      #expect(try x.windowName(root) == "kept-\(round)")
    }
  }

  /// Children started by the harness take SIGTERM: the test threads block nearly every
  /// signal and a child inherits its starter's mask, so without care Xvfb and the viewer
  /// ignored `stop()`'s SIGTERM and were killed after its grace.
  @Test func childrenStartWithNoSignalBlocked() throws {
    let status = try CommandRunner.run(
      executable: URL(fileURLWithPath: "/bin/cat"), ["/proc/self/status"], timeoutSeconds: 60)
    let blocked = status.standardOutput.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
    let mask = try #require(blocked.map { $0.dropFirst(7).trimmingCharacters(in: .whitespaces) })
    #expect(UInt64(mask, radix: 16) == 0, "SigBlk \(mask)")
  }

  /// A display that cannot be opened gives GLFW's own reason after the viewer's, not
  /// only a guess that there is no display.
  @Test func aDisplayThatCannotBeOpenedIsNamed() throws {
    let result = try CommandRunner.run(
      executable: CommandRunner.binary, ["view", "--size", "320x240"],
      environment: ["DISPLAY": ":64999", "WAYLAND_DISPLAY": ""], timeoutSeconds: 120)
    #expect(result.status != 0)
    #expect(result.standardError.contains("GLFW could not start (is there a display?): "))
    #expect(result.standardError.contains(":64999"), "stderr: \(result.standardError)")
  }
}
