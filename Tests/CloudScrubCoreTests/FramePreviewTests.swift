import TestSupport
import Testing

@testable import CloudScrubCore

/// The preview images worked out by hand for tiny frames. Colour bytes are the shader's
/// numbers × 255, rounded (ties up), computed on paper.
@Suite struct FramePreviewTests {
  /// The ramp's stops from Shaders/points.vert as bytes.
  let stops = [
    RGB8(38, 64, 242),  // (0.15, 0.25, 0.95)
    RGB8(26, 204, 242),  // (0.10, 0.80, 0.95)
    RGB8(51, 217, 64),  // (0.20, 0.85, 0.25)
    RGB8(250, 217, 38),  // (0.98, 0.85, 0.15)
    RGB8(235, 46, 31),  // (0.92, 0.18, 0.12)
  ]
  let black = RGB8(0, 0, 0)

  /// All pixels of `image`, row by row.
  func pixels(_ image: RGBImage?) -> [RGB8] {
    guard let image else { return [] }
    return (0..<image.height).flatMap { y in (0..<image.width).map { image.pixel(x: $0, y: y) } }
  }

  // MARK: - Ramp and confidence colours

  @Test func rampGivesTheShaderStopsAtQuarterSteps() {
    #expect([0, 0.25, 0.5, 0.75, 1].map { FalseColor.ramp($0) } == stops)
  }

  @Test func rampClampsOutsideZeroToOne() {
    #expect(FalseColor.ramp(-3) == stops[0])
    #expect(FalseColor.ramp(1.5) == stops[4])
    #expect(FalseColor.ramp(.infinity) == stops[4])
    #expect(FalseColor.ramp(.nan) == stops[0])
  }

  @Test func rampMixesLinearlyBetweenStops() {
    // Halfway from stop 0 to stop 1: (0.125, 0.525, 0.95) × 255 = 31.875, 133.875, 242.25.
    #expect(FalseColor.ramp(0.125) == RGB8(32, 134, 242))
  }

  @Test func confidenceColoursAreTheShaders() {
    #expect(FalseColor.confidence(.low) == RGB8(230, 51, 38))  // (0.90, 0.20, 0.15)
    #expect(FalseColor.confidence(.medium) == RGB8(242, 204, 38))  // (0.95, 0.80, 0.15)
    #expect(FalseColor.confidence(.high) == RGB8(51, 204, 77))  // (0.20, 0.80, 0.30)
    #expect(FalseColor.confidence(3) == RGB8(191, 191, 191))  // (0.75, 0.75, 0.75)
  }

  // MARK: - Depth

  @Test func depthsOneTwoThreeAndInvalidWithRangeOneToThree() throws {
    let frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 2, 3, 0])
    let preview = try FramePreview.make(
      from: frame, frameIndex: 7, decoder: nil, depthRangeMeters: 1...3)
    #expect(preview.frameIndex == 7)
    #expect(preview.depthRangeMeters == 1...3)
    #expect(preview.depth.width == 2 && preview.depth.height == 2)
    #expect(
      pixels(preview.depth)
        == [FalseColor.ramp(0), FalseColor.ramp(0.5), FalseColor.ramp(1), black])
    #expect(pixels(preview.depth) == [stops[0], stops[2], stops[4], black])
  }

  @Test func depthsOutsideAnExplicitRangeAreClamped() throws {
    let frame = Frames.depthFrame(width: 3, height: 1, meters: [0.5, 2, 9])
    let preview = try FramePreview.make(
      from: frame, frameIndex: 0, decoder: nil, depthRangeMeters: 1...3)
    #expect(pixels(preview.depth) == [stops[0], stops[2], stops[4]])
  }

  @Test func automaticRangeSpansTheValidDepthsAndSkipsInvalidOnes() throws {
    let frame = Frames.depthFrame(width: 3, height: 2, meters: [2, .nan, .infinity, -1, 0, 4])
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(preview.depthRangeMeters == 2...4)
    #expect(pixels(preview.depth) == [stops[0], black, black, black, black, stops[4]])
  }

  @Test func automaticRangeDropsTheOuterTwoPercent() throws {
    // 100 depths 1…100 m: nearest ranks 0.02·99 ≈ 2 and 0.98·99 ≈ 97 hold 3 m and 98 m.
    let frame = Frames.depthFrame(width: 10, height: 10, meters: (1...100).map { Float($0) })
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(preview.depthRangeMeters == 3...98)
    #expect(preview.depth.pixel(x: 0, y: 0) == stops[0])
    #expect(preview.depth.pixel(x: 9, y: 9) == stops[4])
  }

  @Test func frameWithoutValidDepthIsBlackWithAnEmptyRange() throws {
    let frame = Frames.depthFrame(width: 2, height: 1, meters: [0, .nan])
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(preview.depthRangeMeters == 0...0)
    #expect(pixels(preview.depth) == [black, black])
  }

  @Test func float16DisparityWithPaddedRowsBecomesMetres() throws {
    // Half-float disparities 1 (0x3C00) and 0.5 (0x3800) per metre: 1 m and 2 m. Each
    // 4-byte row is padded to 6 with a NaN that must not be read.
    var frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 1, 1, 1])
    frame.depth = DepthMap(
      width: 2, height: 2, bytesPerRow: 6, sampleType: .float16,
      encoding: .disparityInverseMeters,
      bytes: [0x00, 0x3C, 0x00, 0x38, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x38, 0xFF, 0xFF])
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    // Disparity 0 is no depth.
    #expect(preview.depthRangeMeters == 1...2)
    #expect(pixels(preview.depth) == [stops[0], stops[4], black, stops[4]])
  }

  @Test func incompleteDepthMapThrows() {
    var frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 2, 3, 4])
    frame.depth.bytes.removeLast()
    #expect(throws: UnprojectionError.incompleteDepth(width: 2, height: 2, bytes: 15)) {
      try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    }
  }

  // MARK: - Confidence

  @Test func confidenceLevelsGetTheirColoursWithPaddedRows() throws {
    var frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 1, 1, 1])
    // Rows padded to 3 bytes; 7 is no level and shows grey.
    frame.confidence = ConfidenceMap(
      width: 2, height: 2, bytesPerRow: 3, values: [0, 1, 99, 2, 7, 99])
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(
      pixels(preview.confidence)
        == [RGB8(230, 51, 38), RGB8(242, 204, 38), RGB8(51, 204, 77), RGB8(191, 191, 191)])
  }

  @Test func frameWithoutColourOrConfidenceGivesNils() throws {
    let frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 2, 3, 4])
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(preview.color == nil)
    #expect(preview.confidence == nil)
    #expect(preview.depth.width == 2 && preview.depth.height == 2)
  }

  // MARK: - Colour

  @Test func rgbEightByFourReducedToWidthFourGivesTwoByTwoBoxMeans() throws {
    // r = 10x + 40y, g = 255 − r, b = (x + y) mod 2: a 2×2 block at (2i, 2j) averages to
    // r = 20i + 80j + 25, and b to 0.5, which rounds up.
    var bytes: [UInt8] = []
    for y in 0..<4 {
      for x in 0..<8 {
        let r = UInt8(10 * x + 40 * y)
        bytes += [r, 255 - r, UInt8((x + y) % 2)]
      }
    }
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: [1, 1, 1, 1],
      color: .rgb(RGBImage(width: 8, height: 4, pixels: bytes)))
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil, maxColorWidth: 4)
    let color = try #require(preview.color)
    #expect(color.width == 4 && color.height == 2)
    var expected: [RGB8] = []
    for j in 0..<2 {
      for i in 0..<4 {
        let r = UInt8(20 * i + 80 * j + 25)
        expected.append(RGB8(r, 255 - r, 1))
      }
    }
    #expect(pixels(color) == expected)
  }

  @Test func rgbNarrowerThanTheLimitIsKeptAsIs() throws {
    let image = RGBImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6])
    let frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 1, 1, 1], color: .rgb(image))
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(preview.color == image)
  }

  @Test func videoRangeYCbCrWithPaddedPlanes() throws {
    // Left 2×2 block: neutral chroma, Y 16 (black) and 235 (1.164·219 ≈ 255, white).
    // Right block: BT.601 red, Y 81, Cb 90, Cr 240: R = 75.66 + 1.596·112 ≈ 254,
    // G = 75.66 + 0.392·38 − 0.813·112 ≈ −0.5 → 0, B = 75.66 − 2.017·38 < 0 → 0.
    let image = YCbCrImage(
      width: 4, height: 2, range: .video,
      luma: [16, 235, 81, 81, 0, 235, 16, 81, 81, 0], lumaBytesPerRow: 5,
      chroma: [128, 128, 90, 240, 0, 0], chromaBytesPerRow: 6)
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: [1, 1, 1, 1], color: .yCbCr420(image))
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    let white = RGB8(255, 255, 255)
    let red = RGB8(254, 0, 0)
    #expect(pixels(preview.color) == [black, white, red, red, white, black, red, red])
  }

  @Test func fullRangeYCbCr() throws {
    // Cb 128, Cr 255: R = Y + 1.402·127, G = Y − 0.714136·127, B = Y.
    let image = YCbCrImage(width: 2, height: 1, range: .full, luma: [128, 0], chroma: [128, 255])
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: [1, 1, 1, 1], color: .yCbCr420(image))
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(pixels(preview.color) == [RGB8(255, 37, 128), RGB8(178, 0, 0)])
  }

  @Test func bgraWithPaddedRowsSwapsToRGB() throws {
    let image = BGRAImage(
      width: 2, height: 2, bytesPerRow: 12,
      bytes: [1, 2, 3, 255, 4, 5, 6, 255, 99, 99, 99, 99, 7, 8, 9, 0, 10, 11, 12, 0])
    let frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 1, 1, 1], color: .bgra(image))
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    #expect(
      pixels(preview.color) == [RGB8(3, 2, 1), RGB8(6, 5, 4), RGB8(9, 8, 7), RGB8(12, 11, 10)])
  }

  @Test func truncatedBGRAThrows() {
    let image = BGRAImage(
      width: 2, height: 2, bytesPerRow: 12, bytes: [UInt8](repeating: 0, count: 19))
    let frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 1, 1, 1], color: .bgra(image))
    #expect(throws: UnprojectionError.incompleteColor(width: 2, height: 2)) {
      try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    }
  }

  /// Decodes any bytes to a grey image twice the size it is asked for, as a decoder
  /// whose nearest DCT scale is larger than the target would.
  struct DoubleSizeDecoder: ColorDecoder {
    func decodeJPEG(_ bytes: [UInt8], preferredWidth: Int, preferredHeight: Int) throws -> RGBImage
    {
      let (width, height) = (preferredWidth * 2, preferredHeight * 2)
      return RGBImage(
        width: width, height: height, pixels: [UInt8](repeating: 90, count: width * height * 3))
    }
  }

  struct FailingDecoder: ColorDecoder {
    struct Failure: Error, Equatable {}
    func decodeJPEG(_ bytes: [UInt8], preferredWidth: Int, preferredHeight: Int) throws -> RGBImage
    {
      throw Failure()
    }
  }

  /// The start of a JPEG whose frame header says `width` × `height`.
  func jpegHeader(width: Int, height: Int) -> [UInt8] {
    [
      0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF),
      UInt8(width >> 8), UInt8(width & 0xFF), 0x01, 0x01, 0x11, 0x00,
    ]
  }

  @Test func jpegIsDecodedForTheTargetSizeThenReduced() throws {
    // 1920×1440 for at most 480 wide: the decoder is asked for 480×360, answers
    // 960×720, and the box filter takes that to 480×360.
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: [1, 1, 1, 1], color: .jpeg(jpegHeader(width: 1920, height: 1440))
    )
    let preview = try FramePreview.make(from: frame, frameIndex: 0, decoder: DoubleSizeDecoder())
    let color = try #require(preview.color)
    #expect(color.width == 480 && color.height == 360)
    #expect(color.pixel(x: 479, y: 359) == RGB8(90, 90, 90))
  }

  @Test func jpegWithoutADecoderThrows() {
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: [1, 1, 1, 1], color: .jpeg(jpegHeader(width: 4, height: 4)))
    #expect(throws: UnprojectionError.noJPEGDecoder) {
      try FramePreview.make(from: frame, frameIndex: 0, decoder: nil)
    }
  }

  @Test func decoderErrorsPassThrough() {
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: [1, 1, 1, 1], color: .jpeg(jpegHeader(width: 4, height: 4)))
    #expect(throws: FailingDecoder.Failure()) {
      try FramePreview.make(from: frame, frameIndex: 0, decoder: FailingDecoder())
    }
  }
}
