import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `cloudscrub render` on the real binary: fixed scenes against small baselines (see
/// `ImageBaseline` for the tolerance), drawn with EGL and no display. The baselines are
/// OpenGL's pictures; each scene is drawn by the CPU rasterizer too and compared with
/// OpenGL's (see `cpuRendererDrawsTheBaselineScenesAsOpenGLDoes`).
@Suite(.serialized) struct RenderCommandTests {
  static func render(_ arguments: [String], name: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent(name).path
    let result = try CommandRunner.run(
      ["render"] + arguments + ["-o", output, "--size", "240x150", "--renderer", "gl"])
    #expect(result.status == 0, "\(result.standardError)")
    try ImageBaseline.check(output, against: name)
  }

  /// The baseline scenes' arguments.
  static func baselineScenes() throws -> [[String]] {
    let path = try #require(recording)
    return [
      ["Assets/sample.ply", "--camera", "orbit:30,25"],
      [
        "Assets/sample.ply", "--camera", "orbit:-60,40", "--color", "height", "--edl",
        "--point-size", "3",
      ],
      [path, "--camera", "capture:3", "--color", "confidence"],
      [path, "--frames", "0-4", "--color", "frame", "--camera", "orbit:20,35"],
      [
        path, "--color", "depth", "--point-size", "1", "--min-confidence", "medium", "--camera",
        "orbit:50,30",
      ],
    ]
  }

  /// `--renderer cpu` against `--renderer gl` on the same scenes. Tolerance: at most
  /// 2 % of pixels may differ by more than 48 in a channel, with a mean channel
  /// difference of at most 2. Beyond what the Render tests' agreement allows (1 %),
  /// this covers the recording's overlapping frames: the same surface seen by several
  /// frames gives points within float rounding of each other's depth, and which of
  /// them is nearer then depends on the order of the float operations (llvmpipe's
  /// fused multiply-adds against the CPU loop's), which frame colours make visible
  /// (1.4 % of pixels in the frame-coloured scene here).
  @Test func cpuRendererDrawsTheBaselineScenesAsOpenGLDoes() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (index, arguments) in try Self.baselineScenes().enumerated() {
      var pictures: [RGBImage] = []
      for renderer in ["gl", "cpu"] {
        let output = folder.appendingPathComponent("scene\(index)-\(renderer).png").path
        let result = try CommandRunner.run(
          ["render"] + arguments + ["-o", output, "--size", "240x150", "--renderer", renderer])
        #expect(result.status == 0, "\(result.standardError)")
        pictures.append(
          try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: output)))))
      }
      let comparison = ImageBaseline.compare(pictures[0], pictures[1])
      #expect(
        comparison.differingFraction <= 0.02,
        "\(arguments): \(comparison.differingFraction * 100) % differ")
      #expect(
        comparison.meanDifference <= 2, "\(arguments): mean difference \(comparison.meanDifference)"
      )
    }
  }

  @Test func unknownRendererIsAUsageError() throws {
    let result = try CommandRunner.run([
      "render", "Assets/sample.ply", "-o", "/tmp/never.png", "--renderer", "vulkan",
    ])
    #expect(result.status == 2)
    #expect(result.standardError.contains("--renderer is auto, gl or cpu, not 'vulkan'"))
  }

  /// A small recording made once for these tests: 6 frames of the synthetic room.
  static let recording: String? = {
    guard let folder = try? TestData.makeTemporaryDirectory() else { return nil }
    let path = folder.appendingPathComponent("render-test.csrec").path
    let result = try? CommandRunner.run(["synth", path, "--frames", "6"])
    return result?.status == 0 ? path : nil
  }()

  @Test func samplePLYFromAFixedOrbit() throws {
    try Self.render(["Assets/sample.ply", "--camera", "orbit:30,25"], name: "sample-orbit.png")
  }

  @Test func samplePLYInHeightColoursWithEyeDomeLighting() throws {
    try Self.render(
      [
        "Assets/sample.ply", "--camera", "orbit:-60,40", "--color", "height", "--edl",
        "--point-size", "3",
      ],
      name: "sample-height-edl.png")
  }

  @Test func recordingThroughItsCaptureCameraInConfidenceColours() throws {
    let path = try #require(Self.recording)
    try Self.render(
      [path, "--camera", "capture:3", "--color", "confidence"],
      name: "synthetic-capture3-confidence.png")
  }

  @Test func recordingFirstFramesInFrameColoursWithOverlays() throws {
    let path = try #require(Self.recording)
    try Self.render(
      [path, "--frames", "0-4", "--color", "frame", "--camera", "orbit:20,35"],
      name: "synthetic-frames-0-4.png")
  }

  @Test func missingInputFailsWithItsPathAndWritesNothing() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("never.png").path
    let result = try CommandRunner.run(["render", "/nonexistent/cloud.ply", "-o", output])
    #expect(result.status == 1)
    #expect(result.standardError.contains("/nonexistent/cloud.ply"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func badRenderFlagsAreUsageErrors() throws {
    for flags in [
      ["--size", "10x10"], ["--color", "purple"], ["--camera", "orbit:1"],
      ["--camera", "capture:-2"],
    ] {
      let result = try CommandRunner.run(
        ["render", "Assets/sample.ply", "-o", "/tmp/never.png"] + flags)
      #expect(result.status == 2, "\(flags): \(result.standardError)")
    }
  }

  @Test func renderedPictureIsAValidPNGOfTheAskedSize() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("size.png").path
    let result = try CommandRunner.run([
      "render", "Assets/sample.ply", "-o", output, "--size", "123x77",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let image = try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    #expect(image.width == 123 && image.height == 77)
    // The corners are background grey (0.1 → 26), the middle has the cloud in it.
    #expect(image.pixel(x: 0, y: 0) == RGB8(26, 26, 26))
    let colourful = (0..<(123 * 77)).filter { i in
      let p = image.pixels[(i * 3)..<(i * 3 + 3)]
      return (p.max() ?? 0) - (p.min() ?? 0) > 40
    }
    #expect(colourful.count > 123 * 77 / 20)
  }
}

@Suite(.serialized) struct ImageBaselineToleranceTests {
  @Test func differentScenesAreTooFarApartToPass() throws {
    let folder = ImageBaseline.folder
    let a = try PNGCodec.decodeRGB(
      Array(try Data(contentsOf: folder.appendingPathComponent("sample-orbit.png"))))
    let b = try PNGCodec.decodeRGB(
      Array(try Data(contentsOf: folder.appendingPathComponent("sample-height-edl.png"))))
    let comparison = ImageBaseline.compare(a, b)
    #expect(comparison.differingFraction > ImageBaseline.differingPixelFraction)
    #expect(ImageBaseline.compare(a, a).differingFraction == 0)
  }

  /// Renders with `arguments` (at the baselines' size) and compares with baseline
  /// `name`.
  func comparison(_ arguments: [String], against name: String) throws -> (
    differingFraction: Double, meanDifference: Double
  ) {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("near-miss.png").path
    // The baselines are OpenGL's pictures.
    let result = try CommandRunner.run(
      ["render"] + arguments + ["-o", output, "--size", "240x150", "--renderer", "gl"])
    #expect(result.status == 0, "\(result.standardError)")
    let actual = try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    let baseline = try PNGCodec.decodeRGB(
      Array(try Data(contentsOf: ImageBaseline.folder.appendingPathComponent(name))))
    return ImageBaseline.compare(actual, baseline)
  }

  @Test func aFrameLeftOutFailsTheBaseline() throws {
    let path = try #require(RenderCommandTests.recording)
    let view = ["--color", "frame", "--camera", "orbit:20,35"]
    let same = try comparison(
      [path, "--frames", "0-4"] + view, against: "synthetic-frames-0-4.png")
    #expect(ImageBaseline.matches(same))
    for frames in ["0-3", "1-4"] {
      let nearMiss = try comparison(
        [path, "--frames", frames] + view, against: "synthetic-frames-0-4.png")
      #expect(!ImageBaseline.matches(nearMiss), "frames \(frames): \(nearMiss)")
    }
  }

  @Test func pointsOnePixelLargerFailTheBaseline() throws {
    let view = ["Assets/sample.ply", "--camera", "orbit:-60,40", "--color", "height", "--edl"]
    let same = try comparison(view + ["--point-size", "3"], against: "sample-height-edl.png")
    #expect(ImageBaseline.matches(same))
    for size in ["2", "4"] {
      let nearMiss = try comparison(
        view + ["--point-size", size], against: "sample-height-edl.png")
      #expect(!ImageBaseline.matches(nearMiss), "point size \(size): \(nearMiss)")
    }
  }
}
