import Foundation
import TestSupport
import Testing

/// The crop box in the real viewer window: switched on in the Clean panel, one face
/// handle dragged in the 3D view, then undone with Ctrl+Z. What the window would export
/// is read back from the PLY header it writes, which records the crop box.
@Suite(
  .serialized,
  .enabled(
    if: XTools.installed(["Xvfb", "xdotool", "xwd"]), "needs Xvfb, xdotool and xwd (x11-apps)"))
struct WindowCropEndToEndTests {
  @Test func dragACropHandleThenUndo() throws {
    try ViewerProcess.withSmallRecording(options: ["--level-of-detail", "off"]) {
      viewer, display, folder in
      try Self.drive(viewer, on: display, export: folder.appendingPathComponent("small-export.ply"))
    }
  }

  private static func drive(_ viewer: ViewerProcess, on display: String, export: URL) throws {
    let x = XDoTool(display: display)
    let alive = { viewer.isRunning }
    let window = try x.waitForWindow(
      named: "^CloudScrub — small\\.csrec", timeout: 60, stillRunning: alive)
    try x.waitForName(of: window, timeout: 60, stillRunning: alive, "fully loaded title") {
      !$0.hasSuffix(" — loading") && $0.contains("frame 11/12")
    }

    // Trajectory off (its colour is close to the box's), then fold the Points, Timeline
    // and View sections (bottom first, so that the others stay put) so that Clean and
    // Export fit, and switch the crop box on.
    for point in [
      Layout.trajectoryToggle, Layout.viewHeader, Layout.timelineHeader, Layout.pointsHeader,
      Layout.cleanHeader, Layout.cropToggle,
    ] {
      try WindowScreen.click(x, at: point, display: display)
    }
    let boxed = try WindowScreen.waitForScreen(timeout: 30, display: display, "the crop box") {
      boxPixels(in: $0).count > 300
    }

    let original = try exportedCrop(x, button: Layout.exportButton, to: export, display: display)

    // Drag one face handle a third of the way towards the box's middle.
    let handle = try #require(Self.handle(in: boxed), "no face handle found on the screen")
    let middle = centroid(boxPixels(in: boxed))
    let step = (x: (middle.x - handle.x) / 3, y: (middle.y - handle.y) / 3)
    let reach = (step.x * step.x + step.y * step.y).squareRoot()
    let scale = reach < 40 ? 40 / max(reach, 1) : 1
    let end = (x: handle.x + step.x * scale, y: handle.y + step.y * scale)
    try x.moveMouse(x: Int(handle.x.rounded()), y: Int(handle.y.rounded()))
    // A press goes to the scene only when the previous frame had the pointer off the
    // panels: a step back and forth, seen in the title, proves frames have run since.
    try x.key("Left")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 10") {
      $0.contains("frame 10/12")
    }
    try x.key("Right")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 11") {
      $0.contains("frame 11/12")
    }
    let before = try WindowScreen.waitForSteadyScreen(display: display, timeout: 30)
    try x.mouseDown()
    // Moves that arrive before the viewer has handled the press would be lost: a step
    // back shows in the title once it has (and a step forward undoes it below).
    try x.key("Left")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 10") {
      $0.contains("frame 10/12")
    }
    // The moves and the release need no waits between them: the viewer handles a crop
    // drag's moves itself, in the order they arrive, before the release that follows.
    for fraction in [0.25, 0.5, 0.75, 1.0] {
      try x.moveMouse(
        x: Int((handle.x + (end.x - handle.x) * fraction).rounded()),
        y: Int((handle.y + (end.y - handle.y) * fraction).rounded()))
    }
    try x.mouseUp()
    try x.key("Right")
    try x.waitForName(of: window, timeout: 30, stillRunning: alive, "frame 11") {
      $0.contains("frame 11/12")
    }
    try WindowScreen.waitForScreen(timeout: 30, display: display, "the box to move") {
      WindowScreen.changedPixels(before, $0, in: Layout.scene) > 100
    }

    // Exactly one face moved, and the export keeps fewer points. After the first
    // export, its message line moves the Export button down one line.
    let dragged = try exportedCrop(
      x, button: Layout.exportButtonAfterMessage, to: export, display: display)
    let moved = zip(original.crop, dragged.crop).filter { abs($0 - $1) > 0.01 }.count
    #expect(moved == 1, "crop \(original.crop) became \(dragged.crop)")
    #expect(
      dragged.points < original.points,
      "\(dragged.points) points after the drag, \(original.points) before")

    // Ctrl+Z with the pointer over the scene puts the box back.
    try x.moveMouse(x: Layout.sceneCentre.x, y: Layout.sceneCentre.y + 200)
    try x.key("ctrl+z")
    // Judged on the extent of the box's own pixels (the drag moved a face by 40 px or
    // more): which of its pixels points hide depends on how far the picture had refined
    // when each screenshot was taken.
    let boxBefore = extent(of: boxPixels(in: before))
    try WindowScreen.waitForScreen(timeout: 30, display: display, "the box back in place") {
      let now = extent(of: boxPixels(in: $0))
      return zip(now, boxBefore).allSatisfy { abs($0 - $1) <= 4 }
    }
    let undone = try exportedCrop(
      x, button: Layout.exportButtonAfterMessage, to: export, display: display)
    #expect(undone.crop == original.crop)
    #expect(undone.points == original.points)
    #expect(viewer.isRunning, "the viewer exited during the scenario")
  }

  // MARK: - Export

  /// Clicks the export button, waits for the file and reads its crop comment and count.
  private static func exportedCrop(
    _ x: XDoTool, button: (x: Int, y: Int), to file: URL, display: String
  ) throws -> (crop: [Float], points: Int) {
    try? FileManager.default.removeItem(at: file)
    try WindowScreen.click(x, at: button, display: display)
    // The export is written to a hidden temporary name and renamed when complete.
    let appeared = try FolderWatch.waitForEntry(
      in: file.deletingLastPathComponent().path, prefix: file.lastPathComponent, timeout: 60)
    guard appeared else { throw XToolError("no export appeared at \(file.path)") }
    let handle = try FileHandle(forReadingFrom: file)
    defer { try? handle.close() }
    let head = String(decoding: try handle.read(upToCount: 2048) ?? Data(), as: UTF8.self)
    guard let crop = head.firstMatch(of: /comment cleaning: crop ([-0-9.e,]+)/),
      let count = head.firstMatch(of: /element vertex (\d+)/), let points = Int(count.1)
    else { throw XToolError("no crop comment or vertex count in the export's header:\n\(head)") }
    return (crop.1.split(separator: ",").compactMap { Float($0) }, points)
  }

  // MARK: - Finding the box

  /// The crop box's colour (250, 210, 60) in the 3D view.
  private static func boxPixels(in image: XWDImage) -> [(x: Int, y: Int)] {
    var found: [(x: Int, y: Int)] = []
    let area = Layout.scene
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width) {
        let p = image.pixel(x: x, y: y)
        if p.r > 200 && p.g > 160 && p.b < 120 && Int(p.r) - Int(p.b) > 110 { found.append((x, y)) }
      }
    }
    return found
  }

  /// Smallest and largest x and y of some pixels.
  private static func extent(of pixels: [(x: Int, y: Int)]) -> [Int] {
    let xs = pixels.map(\.x)
    let ys = pixels.map(\.y)
    return [xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0]
  }

  private static func centroid(_ pixels: [(x: Int, y: Int)]) -> (x: Double, y: Double) {
    let n = Double(max(pixels.count, 1))
    return (Double(pixels.reduce(0) { $0 + $1.x }) / n, Double(pixels.reduce(0) { $0 + $1.y }) / n)
  }

  /// The middle of a face handle: a small cross in the handles' colour (90, 220, 255).
  /// Of those not hidden behind points, the one farthest from the box's middle is
  /// taken: it floats outside the cloud, where a drag reaches it cleanly.
  private static func handle(in image: XWDImage) -> (x: Double, y: Double)? {
    var pixels: [(x: Int, y: Int)] = []
    let area = Layout.scene
    for y in area.y..<(area.y + area.height) {
      for x in area.x..<(area.x + area.width) {
        let p = image.pixel(x: x, y: y)
        if abs(Int(p.r) - 90) < 40 && abs(Int(p.g) - 220) < 35 && p.b > 220 {
          pixels.append((x, y))
        }
      }
    }
    let middle = centroid(boxPixels(in: image))
    var remaining = Set(pixels.map { $0.x << 16 | $0.y })
    var best: (point: (x: Double, y: Double), distance: Double)?
    while let seed = remaining.first {
      remaining.remove(seed)
      var stack = [seed]
      var component: [(x: Int, y: Int)] = []
      while let key = stack.popLast() {
        component.append((key >> 16, key & 0xFFFF))
        for dx in -1...1 {
          for dy in -1...1 {
            let next = (key >> 16 + dx) << 16 | (key & 0xFFFF + dy)
            if remaining.remove(next) != nil { stack.append(next) }
          }
        }
      }
      // A whole cross: both strokes, not a stray pixel or a stroke cut by points.
      let span = extent(of: component)
      guard component.count >= 10, span[1] - span[0] >= 5, span[3] - span[2] >= 5 else {
        continue
      }
      let c = centroid(component)
      let distance = ((c.x - middle.x) * (c.x - middle.x) + (c.y - middle.y) * (c.y - middle.y))
        .squareRoot()
      if distance > (best?.distance ?? -1) { best = (c, distance) }
    }
    return best?.point
  }
}
