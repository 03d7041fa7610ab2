import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `render` of points with no colour draws them by height with eye-dome lighting and
/// says so; `--color` or `--edl` is the user's choice, and no note is printed.
@Suite struct RenderFirstLookTests {
  /// A 20 × 20 grid of points 5 cm apart in x and y at z = 0, as XYZ text in `folder`.
  static func plane(in folder: URL, name: String) throws -> String {
    let path = folder.appendingPathComponent(name).path
    let rows = (0..<400).map { "\(Double($0 % 20) * 0.05) \(Double($0 / 20) * 0.05) 0" }
    try rows.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// How many distinct colours `image` has.
  static func colours(_ image: RGBImage) -> Int {
    Set(
      stride(from: 0, to: image.pixels.count, by: 3).map {
        [image.pixels[$0], image.pixels[$0 + 1], image.pixels[$0 + 2]]
      }
    ).count
  }

  @Test func pointsWithNoColourAreDrawnByHeightAndSaySo() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cloud = try Self.plane(in: folder, name: "grey.xyz")
    let output = folder.appendingPathComponent("grey.png").path
    func render(_ options: [String]) throws -> (note: Bool, image: RGBImage) {
      let run = try CommandRunner.run(
        ["render", cloud, "-o", output, "--size", "160x120", "--point-size", "6"] + options)
      #expect(run.status == 0, "\(run.standardError)")
      let image = try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
      return (run.standardError.contains("coloured by height, with eye-dome lighting"), image)
    }
    let first = try render([])
    let grey = try render(["--color", "rgb"])
    #expect(first.note)
    #expect(!grey.note)
    #expect(!(try render(["--edl"])).note)
    // By height the points take the ramp's colours; as stored, they are all one grey.
    #expect(Self.colours(first.image) > Self.colours(grey.image) + 10)
  }

  @Test func lasFilesAreZUp() throws {
    // A level plane of a LAS file (z = 0, spread in x and y) is one height, so
    // `--color height` draws it in one colour; the same points as text (y up) span the
    // ramp.
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try Self.plane(in: folder, name: "plane.xyz")
    let las = folder.appendingPathComponent("plane.las").path
    #expect(try CommandRunner.run(["export", text, "-o", las]).status == 0)
    func colours(_ input: String) throws -> Int {
      let output = folder.appendingPathComponent("plane.png").path
      let run = try CommandRunner.run(
        [
          "render", input, "-o", output, "--size", "160x120", "--point-size", "6", "--color",
          "height", "--overlays", "off",
        ])
      #expect(run.status == 0, "\(run.standardError)")
      return Self.colours(
        try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: output)))))
    }
    let zUp = try colours(las)
    let yUp = try colours(text)
    #expect(zUp <= 8, "\(zUp) colours")
    #expect(yUp > 20, "\(yUp) colours")
  }
}
