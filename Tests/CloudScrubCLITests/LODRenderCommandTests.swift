import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// `render --budget N` through the level of detail, in this process with EGL: the GPU
/// node cache's accounting under `--gpu-cache`, and the picture against the one drawn
/// without a budget.
@Suite(.serialized) struct LODRenderCommandTests {
  static func picture(_ recording: String, _ options: [String]) throws -> HeadlessRenderer.Picture {
    let parsed = try ParsedArguments(
      [recording, "-o", "unused.png", "--size", "320x200", "--camera", "orbit:30,30"] + options,
      command: RenderCommand.spec)
    let request = try RenderRequest(parsed)
    let (content, commands) = try RenderRequest.load(recording, choices: request.load)
    return try HeadlessRenderer.draw(content: content, commands: commands, request: request)
  }

  static func differingPixels(_ a: RGBImage, _ b: RGBImage) -> Int {
    (0..<(a.width * a.height)).filter { pixel in
      !a.pixels[(3 * pixel)..<(3 * pixel + 3)].elementsEqual(
        b.pixels[(3 * pixel)..<(3 * pixel + 3)])
    }.count
  }

  @Test func aSmallGPUCacheEvictsAndStillDrawsEveryPoint() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("scene.csrec").path
    try SynthCommand.run([recording, "--frames", "12"])
    let whole = try Self.picture(recording, ["--renderer", "gl"])
    let roomy = try Self.picture(recording, ["--renderer", "gl", "--budget", "20000"])
    let tight = try Self.picture(
      recording, ["--renderer", "gl", "--budget", "20000", "--gpu-cache", "1M"])
    // Twelve frames of about 45,000 points: every point in view, in passes of 20,000.
    #expect(whole.drawnPoints > 400_000)
    #expect(roomy.drawnPoints == tight.drawnPoints && roomy.drawnPoints > 400_000)
    #expect(roomy.passes == (roomy.drawnPoints + 19_999) / 20_000)
    // With 2 GiB nothing goes; each node is uploaded once, when a pass first needs it.
    #expect(roomy.evictions == 0 && roomy.uploadedPoints == roomy.drawnPoints)
    // 1 MiB holds 65,536 points: nodes go once their passes are drawn. A node's points are
    // one item of the plan, drawn in consecutive passes, so none is uploaded twice.
    #expect(tight.evictions > 0)
    #expect(tight.uploadedPoints == tight.drawnPoints)
    // Evicting changes nothing on the picture.
    #expect(tight.image == roomy.image)
    // Against one pass of every point: only equal-depth ties may go the other way.
    let differing = Self.differingPixels(whole.image, tight.image)
    #expect(Double(differing) / Double(320 * 200) < 0.002, "\(differing) pixels differ")
  }

  @Test func theCPURasterizerDrawsTheLevelOfDetailAsOnePass() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("scene.csrec").path
    try SynthCommand.run([recording, "--frames", "8"])
    let whole = try Self.picture(recording, ["--renderer", "cpu", "--color", "frame"])
    let refined = try Self.picture(
      recording, ["--renderer", "cpu", "--color", "frame", "--budget", "15000"])
    #expect(refined.passes > 10 && refined.uploadedPoints == 0)
    let differing = Self.differingPixels(whole.image, refined.image)
    #expect(Double(differing) / Double(320 * 200) < 0.002, "\(differing) pixels differ")
  }
}
