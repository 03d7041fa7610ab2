import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `render --color error` on the real binary: render measures each frame's alignment
/// error itself and paints its points by it, on the window's ramp (blue 0, red the
/// scale, at least 1 cm). A synthetic capture drifted by 20 cm and 5° over 20 frames
/// has frames that each disagree with the ones before by centimetres: its points are
/// hot; the same capture without drift is cold throughout.
@Suite(.serialized) struct RenderErrorColorTests {
  /// Red-dominant pixels (the ramp's upper end) and blue-dominant ones (its lower end).
  static func census(_ path: String) throws -> (hot: Int, cold: Int) {
    let image = try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    var hot = 0
    var cold = 0
    for pixel in 0..<(image.width * image.height) {
      let r = Int(image.pixels[pixel * 3])
      let b = Int(image.pixels[pixel * 3 + 2])
      if r > 150 && b < 100 { hot += 1 }
      if b > 150 && r < 100 { cold += 1 }
    }
    return (hot, cold)
  }

  static func render(drift: String?, in folder: URL) throws -> (hot: Int, cold: Int, log: String) {
    let name = drift == nil ? "exact" : "drifted"
    let recording = folder.appendingPathComponent(name + ".csrec").path
    let synth = try CommandRunner.run(
      ["synth", recording, "--frames", "20"] + (drift.map { ["--drift", $0] } ?? []))
    #expect(synth.status == 0, "\(synth.standardError)")
    let output = folder.appendingPathComponent(name + ".png").path
    let result = try CommandRunner.run([
      "render", recording, "--color", "error", "-o", output, "--size", "240x150", "--overlays",
      "off",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let counts = try census(output)
    return (counts.hot, counts.cold, result.standardError)
  }

  @Test func driftedFramesArePaintedHotAndExactOnesCold() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let drifted = try Self.render(drift: "0.2,5", in: folder)
    let exact = try Self.render(drift: nil, in: folder)
    #expect(drifted.log.contains("alignment error colours: blue 0 mm to red"), "\(drifted.log)")
    #expect(drifted.hot > 500, "hot \(drifted.hot), cold \(drifted.cold)")
    #expect(exact.hot == 0 && exact.cold > 500, "hot \(exact.hot), cold \(exact.cold)")
  }

  @Test func aPointCloudHasNoErrorsToPaint() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("cloud.png").path
    let result = try CommandRunner.run([
      "render", "Assets/sample.ply", "--color", "error", "-o", output, "--size", "64x64",
    ])
    #expect(result.status != 0)
    #expect(result.standardError.contains("--color error needs a recording"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
