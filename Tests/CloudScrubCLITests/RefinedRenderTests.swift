import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// A picture drawn pass by pass under a small point budget, refined to the end, is the
/// picture drawn in one pass: the window's refinement loses nothing.
@Suite(.serialized) struct RefinedRenderTests {
  @Test(arguments: [
    ["--renderer", "cpu", "--color", "frame"],
    ["--renderer", "cpu", "--color", "rgb", "--edl", "--point-size", "3"],
    ["--renderer", "gl", "--color", "frame"],
    ["--renderer", "gl", "--color", "rgb", "--edl", "--point-size", "3"],
  ])
  func refinedToTheEndEqualsTheBudgetFreePicture(_ looks: [String]) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("scene.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "12"]).status == 0)
    var pictures: [RGBImage] = []
    for budget in [[], ["--budget", "20000"]] {
      let output = folder.appendingPathComponent("picture\(pictures.count).png").path
      let result = try CommandRunner.run(
        ["render", recording, "-o", output, "--size", "320x200", "--camera", "orbit:30,30"] + looks
          + budget)
      #expect(result.status == 0, "\(result.standardError)")
      pictures.append(
        try PNGCodec.decodeRGB(Array(Data(contentsOf: URL(fileURLWithPath: output))), path: output))
    }
    // Twelve frames of about 45 000 points under a budget of 20 000: every pass holds
    // a single frame.
    let (whole, refined) = (pictures[0], pictures[1])
    var differing = 0
    for pixel in 0..<(whole.width * whole.height) {
      let a = whole.pixels[(3 * pixel)..<(3 * pixel + 3)]
      let b = refined.pixels[(3 * pixel)..<(3 * pixel + 3)]
      if !a.elementsEqual(b) { differing += 1 }
    }
    // Points at exactly the same depth on one pixel keep whichever came first, and the
    // passes change that order; nothing else may differ.
    #expect(
      Double(differing) / Double(whole.width * whole.height) < 0.002, "\(differing) pixels differ")
    let first = whole.pixels[0]
    #expect(whole.pixels.contains { $0 != first })
  }

  @Test func budgetMustBeAPositiveWholeNumber() throws {
    for value in ["0", "-5", "lots"] {
      let result = try CommandRunner.run([
        "render", "Assets/sample.ply", "-o", "/tmp/never.png", "--budget", value,
      ])
      #expect(result.status == 2, "\(value): \(result.standardError)")
    }
  }
}
