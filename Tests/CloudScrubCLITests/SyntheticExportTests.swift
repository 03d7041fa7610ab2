import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// The whole path a user takes: `synth` writes a recording of the analytic scene,
/// `export` merges it into a PLY, and every exported point lies on the scene.
@Suite struct SyntheticExportTests {
  @Test func everyExportedPointLiesOnTheSceneWithItsTextureColour() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("scene.csrec").path
    let output = folder.appendingPathComponent("scene.ply").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "4", "--color", "rgb"])
    #expect(synth.status == 0, "\(synth.standardError)")
    let export = try CommandRunner.run(
      ["export", recording, "-o", output, "--attributes", "confidence,frame"])
    #expect(export.status == 0, "\(export.standardError)")

    let cloud = try PLYReader.read(path: output).cloud
    #expect(cloud.count > 4 * 30_000)
    let scene = SyntheticScene.standard
    var offSurface = 0
    var colourMatches = 0
    for (index, p) in cloud.positions.enumerated() {
      let point = SIMD3(Double(p.x), Double(p.y), Double(p.z))
      guard scene.distanceToNearestSurface(point) <= 0.001,
        let surface = scene.surface(containing: point, tolerance: 0.001)
      else {
        offSurface += 1
        continue
      }
      if cloud.colors?[index] == scene.color(at: point, on: surface) { colourMatches += 1 }
    }
    #expect(offSurface == 0, "\(offSurface) points lie more than 1 mm from every surface")
    // A colour pixel is sampled up to half a pixel from the depth ray, so points within
    // a few millimetres of a texture cell's edge may take the neighbouring cell's colour.
    let fraction = Double(colourMatches) / Double(cloud.count)
    #expect(fraction > 0.9, "only \(fraction) of points have their surface's texture colour")
    // The frame attribute counts the four frames in order.
    guard case .uint32(let frames)? = cloud.attribute(named: "frame")?.values else {
      Issue.record("no frame attribute")
      return
    }
    #expect(Set(frames) == [0, 1, 2, 3])
    #expect(frames == frames.sorted())
  }

  @Test func recordingInfoDescribesTheSyntheticCapture() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("scene.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "3"]).status == 0)
    let info = try CommandRunner.run(["info", recording, "--json"])
    #expect(info.status == 0)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])
    #expect(object["format"] as? String == "CloudScrub recording")
    #expect(object["frames"] as? Int == 3)
    #expect(object["fps"] as? Double == 30)
    #expect((object["depth"] as? [String: Int]) == ["width": 256, "height": 192])
    #expect((object["color"] as? [String: Int]) == ["width": 640, "height": 480])
    // Three frames at 30 fps span two frame periods.
    #expect(abs((object["duration_seconds"] as? Double ?? 0) - 2.0 / 30) < 1e-9)
  }

  @Test func frameSelectionAndFiltersReachTheExport() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("scene.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "6"]).status == 0)
    let all = folder.appendingPathComponent("all.ply").path
    let some = folder.appendingPathComponent("some.ply").path
    #expect(
      try CommandRunner.run(["export", recording, "-o", all, "--attributes", "all"]).status == 0)
    let result = try CommandRunner.run([
      "export", recording, "-o", some, "--frames", "1-5", "--every", "2", "--min-confidence",
      "high", "--depth-range", "1-3", "--stride", "2", "--attributes", "all",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let full = try PLYReader.read(path: all).cloud
    let filtered = try PLYReader.read(path: some)
    guard case .uint32(let frames)? = filtered.cloud.attribute(named: "frame")?.values,
      case .uint8(let confidence)? = filtered.cloud.attribute(named: "confidence")?.values
    else {
      Issue.record("attributes missing")
      return
    }
    #expect(Set(frames) == [1, 3, 5])
    #expect(confidence.allSatisfy { $0 == 2 })
    #expect(filtered.cloud.count < full.count / 8)
    #expect(filtered.header.comments.contains { $0.contains("frames 1-5 every 2") })
    let bad = try CommandRunner.run(["export", recording, "-o", some, "--depth-range", "3-1"])
    #expect(bad.status == 2)
  }
}
