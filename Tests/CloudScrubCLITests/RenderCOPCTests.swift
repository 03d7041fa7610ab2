import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `render` of a COPC file reads the levels of its octree that fit the viewer, as the
/// window does, and draws what reading the whole file draws.
@Suite struct RenderCOPCTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("CloudScrubFormatsTests/Fixtures/laz")

  /// The pixels away from the background grey, and their mean position.
  private func drawn(_ path: String) throws -> (count: Int, centre: SIMD2<Double>) {
    let image = try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    let background = image.pixel(x: 0, y: 0)
    var count = 0
    var sum = SIMD2<Double>()
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.pixel(x: x, y: y)
        let difference =
          abs(Int(p.r) - Int(background.r)) + abs(Int(p.g) - Int(background.g))
          + abs(Int(p.b) - Int(background.b))
        guard difference > 30 else { continue }
        count += 1
        sum += SIMD2(Double(x), Double(y))
      }
    }
    return (count, sum / Double(max(count, 1)))
  }

  @Test func aCOPCFileIsDrawnFromItsOctreeAsItsLAZTwinIsReadWhole() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var pictures: [String: (count: Int, centre: SIMD2<Double>)] = [:]
    for name in ["simple.copc.laz", "simple.laz"] {
      let output = folder.appendingPathComponent(name + ".png").path
      let result = try CommandRunner.run([
        "render", Self.fixtures.appendingPathComponent(name).path, "-o", output, "--renderer",
        "cpu", "--overlays", "off", "--size", "320x240",
      ])
      #expect(result.status == 0, "\(name): \(result.standardError)")
      // Only the COPC file goes through the octree, and says how much of it was read.
      #expect(
        result.standardError.contains("1065 points, octree of 4 levels")
          == name.hasPrefix(
            "simple.copc"), "\(name): \(result.standardError)")
      pictures[name] = try drawn(output)
    }
    let octree = try #require(pictures["simple.copc.laz"])
    let whole = try #require(pictures["simple.laz"])
    // The same 1,065 points: about as many pixels lit, in the same place (the points
    // come in another order, and the camera fits the pieces' extents, not the whole's).
    #expect(whole.count > 1_000)
    #expect(abs(octree.count - whole.count) <= whole.count / 20, "\(octree) against \(whole)")
    let offset = octree.centre - whole.centre
    #expect((offset * offset).sum().squareRoot() < 3, "\(octree) against \(whole)")
  }

  @Test func posesAreRefusedForACOPCFile() throws {
    let result = try CommandRunner.run([
      "render", Self.fixtures.appendingPathComponent("simple.copc.laz").path, "-o",
      "/tmp/never.png", "--poses", "Assets/none.txt",
    ])
    #expect(result.status == 2)
    #expect(result.standardError.contains("--poses applies to recordings"))
    #expect(!FileManager.default.fileExists(atPath: "/tmp/never.png"))
  }
}
