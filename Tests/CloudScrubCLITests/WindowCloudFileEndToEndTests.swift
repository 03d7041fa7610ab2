import Foundation
import TestSupport
import Testing

/// The window opens a point-cloud file other than a binary PLY (here PCD) by reading it
/// in the background: the window is up and drawing while the file is read, the points
/// show once they are, and a file that cannot be read shows its error in the window,
/// which keeps running.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowCloudFileEndToEndTests {
  /// A binary PCD of `count` points (x y z rgb) filling a 2 × 1 × 1 m box, coloured by
  /// position; `declared` points promised in the header. With `intensity`, a float
  /// `intensity` follows: 100 on the half where x < 1, 900 on the other.
  static func writePCD(_ path: String, count: Int, declared: Int? = nil, intensity: Bool = false)
    throws
  {
    let extra = intensity ? 1 : 0
    let header = """
      # .PCD v0.7
      VERSION 0.7
      FIELDS x y z rgb\(intensity ? " intensity" : "")
      SIZE 4 4 4 4\(intensity ? " 4" : "")
      TYPE F F F U\(intensity ? " F" : "")
      COUNT 1 1 1 1\(intensity ? " 1" : "")
      WIDTH \(declared ?? count)
      HEIGHT 1
      VIEWPOINT 0 0 0 1 0 0 0
      POINTS \(declared ?? count)
      DATA binary

      """
    var bytes = Data(header.utf8)
    var records = [UInt32]()
    records.reserveCapacity(count * (4 + extra))
    var state: UInt64 = 12345
    func next() -> Float {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(state >> 40) / Float(1 << 24)
    }
    for _ in 0..<count {
      let (x, y, z) = (next() * 2, next(), next())
      let rgb = UInt32(x * 127) << 16 | UInt32(y * 255) << 8 | UInt32(z * 255)
      records += [x.bitPattern, y.bitPattern, z.bitPattern, rgb]
      if intensity { records.append(Float(x < 1 ? 100 : 900).bitPattern) }
    }
    records.withUnsafeBytes { bytes.append(contentsOf: $0) }
    try bytes.write(to: URL(fileURLWithPath: path))
  }

  static func withViewer(
    on file: (URL) throws -> String, _ drive: (ViewerProcess, String, XDoTool) throws -> Void
  ) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try file(folder)
    let xvfb = try XvfbSession(width: Layout.screenWidth, height: Layout.screenHeight)
    defer { xvfb.stop() }
    let viewer = try ViewerProcess(
      arguments: ["view", path, "--alignment", "off"], display: xvfb.display, folder: folder)
    defer { viewer.terminate() }
    do {
      try drive(viewer, xvfb.display, XDoTool(display: xvfb.display))
    } catch {
      Issue.record("\(error)\n--- viewer output ---\n\(viewer.output)")
    }
  }

  /// Waits for the window on `file` (a pattern), its load to end and its points to show
  /// in colour.
  static func waitForColouredPoints(
    _ viewer: ViewerProcess, _ display: String, _ x: XDoTool, file: String
  ) throws {
    let alive = { viewer.isRunning }
    let window = try x.waitForWindow(
      named: "^CloudScrub — \(file)", timeout: 60, stillRunning: alive)
    try x.waitForName(of: window, timeout: 120, stillRunning: alive, "the cloud loaded") {
      !$0.hasSuffix(" — loading") && $0.contains("frame 0/1")
    }
    try WindowScreen.waitForScreen(timeout: 60, display: display, "coloured points") {
      WindowScreen.colouredPixels(in: $0) > Layout.sceneArea / 50
    }
  }

  @Test func aPCDFileOpensInTheBackgroundAndItsPointsShow() throws {
    try Self.withViewer(on: { folder in
      let path = folder.appendingPathComponent("box.pcd").path
      try Self.writePCD(path, count: 200_000)
      return path
    }) { viewer, display, x in
      try Self.waitForColouredPoints(viewer, display, x, file: "box\\.pcd")
      #expect(viewer.isRunning)
    }
  }

  @Test func aPCDFileThatCannotBeReadShowsItsErrorAndTheWindowGoesOn() throws {
    try Self.withViewer(on: { folder in
      let path = folder.appendingPathComponent("short.pcd").path
      // 1,000 points promised, 10 given.
      try Self.writePCD(path, count: 10, declared: 1000)
      return path
    }) { viewer, _, x in
      let alive = { viewer.isRunning }
      let window = try x.waitForWindow(
        named: "^CloudScrub — short\\.pcd", timeout: 60, stillRunning: alive)
      try x.waitForName(of: window, timeout: 120, stillRunning: alive, "the error") {
        $0.hasSuffix(" — error")
      }
      #expect(viewer.isRunning)
    }
  }

  /// A scan with colour and intensity opens in colour; key 7 shows its intensity: the
  /// half of low intensity black, the other white (the 1st and 99th percentiles).
  @Test func key7ShowsAScansIntensity() throws {
    try Self.withViewer(on: { folder in
      let path = folder.appendingPathComponent("scan.pcd").path
      try Self.writePCD(path, count: 200_000, intensity: true)
      return path
    }) { viewer, display, x in
      try Self.waitForColouredPoints(viewer, display, x, file: "scan\\.pcd")
      try x.key("7")
      func count(_ image: XWDImage, _ grey: UInt8) -> Int {
        var found = 0
        let area = Layout.scene
        for y in area.y..<(area.y + area.height) {
          for x in area.x..<(area.x + area.width)
          where image.pixel(x: x, y: y) == (grey, grey, grey) {
            found += 1
          }
        }
        return found
      }
      try WindowScreen.waitForScreen(timeout: 60, display: display, "black and white points") {
        WindowScreen.colouredPixels(in: $0) < Layout.sceneArea / 1000
          && count($0, 0) > Layout.sceneArea / 50 && count($0, 255) > Layout.sceneArea / 50
      }
      #expect(viewer.isRunning)
    }
  }
}
