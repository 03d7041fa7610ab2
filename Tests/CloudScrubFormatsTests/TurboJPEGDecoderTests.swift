import CTurboJPEG
import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

@Suite struct TurboJPEGDecoderTests {
  let decoder = TurboJPEGDecoder()

  // MARK: - Decoding

  @Test func fullScaleDecodeMatchesGradientWithinJPEGTolerance() throws {
    let original = TestImages.gradient(width: 64, height: 48)
    let image = try decoder.decodeJPEG(try TestImages.jpeg(original), scale: .full)
    #expect(image.width == 64 && image.height == 48)
    let differences = zip(image.pixels, original.pixels).map { abs(Int($0) - Int($1)) }
    #expect(differences.max() ?? 0 <= 8)
    #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 1.5)
  }

  @Test func halfScaleDecodeAveragesNeighbouringPixels() throws {
    let original = TestImages.gradient(width: 64, height: 48)
    let image = try decoder.decodeJPEG(try TestImages.jpeg(original), scale: .half)
    #expect(image.width == 32 && image.height == 24)
    for (x, y) in [(0, 0), (10, 5), (31, 23), (16, 12)] {
      // Output pixel (x, y) covers input pixels 2x…2x+1, 2y…2y+1.
      let expectedRed =
        (Double(original.pixel(x: 2 * x, y: 0).r) + Double(original.pixel(x: 2 * x + 1, y: 0).r))
        / 2
      let expectedGreen =
        (Double(original.pixel(x: 0, y: 2 * y).g) + Double(original.pixel(x: 0, y: 2 * y + 1).g))
        / 2
      let pixel = image.pixel(x: x, y: y)
      #expect(abs(Double(pixel.r) - expectedRed) <= 8, "red at \(x), \(y)")
      #expect(abs(Double(pixel.g) - expectedGreen) <= 8, "green at \(x), \(y)")
      #expect(abs(Int(pixel.b) - 128) <= 4, "blue at \(x), \(y)")
    }
  }

  @Test func preferredSizeDecodesAtTheClosestScale() throws {
    let jpeg = try TestImages.jpeg(
      TestImages.gradient(width: 1440, height: 1920), quality: 80, subsampling: TJSAMP_420)
    // 180×240 (1/8) is closer to a 192×256 depth map than 360×480 (1/4).
    let forDepth = try decoder.decodeJPEG(jpeg, preferredWidth: 192, preferredHeight: 256)
    #expect(forDepth.width == 180 && forDepth.height == 240)
    // 360×480 is closer to 400×500 than 540×720 (3/8) or 180×240.
    let quarter = try decoder.decodeJPEG(jpeg, preferredWidth: 400, preferredHeight: 500)
    #expect(quarter.width == 360 && quarter.height == 480)
    let exact = try decoder.decodeJPEG(jpeg, preferredWidth: 180, preferredHeight: 240)
    #expect(exact.width == 180 && exact.height == 240)
    let larger = try decoder.decodeJPEG(jpeg, preferredWidth: 4000, preferredHeight: 4000)
    #expect(larger.width == 1440 && larger.height == 1920)
    #expect(try decoder.imageSize(of: jpeg) == (1440, 1920))
  }

  @Test func concurrentDecodesGiveIdenticalImages() throws {
    let jpeg = try TestImages.jpeg(TestImages.gradient(width: 320, height: 240))
    let reference = try decoder.decodeJPEG(jpeg, scale: .full)
    let results = ResultSlots(count: 16)
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      results.set(index, try? TurboJPEGDecoder().decodeJPEG(jpeg, scale: .full))
    }
    #expect(results.all.allSatisfy { $0 == reference })
  }

  // MARK: - Scale rule

  @Test func supportedScalesRunFromOneEighthToFullSize() {
    let scales = JPEGScale.supported
    #expect(scales.first == .eighth)
    #expect(scales.last == .full)
    #expect(scales.contains(.quarter) && scales.contains(.half) && scales.contains(JPEGScale(3, 8)))
    #expect(zip(scales, scales.dropFirst()).allSatisfy { $0.value < $1.value })
  }

  @Test func scaleRuleChoosesSmallestScaleNotBelowPreferredSize() {
    func scale(_ width: Int, _ height: Int, _ preferredWidth: Int, _ preferredHeight: Int)
      -> JPEGScale
    {
      JPEGScale.smallest(
        forImageWidth: width, imageHeight: height, notBelowWidth: preferredWidth,
        height: preferredHeight)
    }
    // 1/8 gives 180×240, below the 192×256 depth map; 1/4 gives 360×480.
    #expect(scale(1440, 1920, 192, 256) == .quarter)
    #expect(scale(1440, 1920, 180, 240) == .eighth)
    #expect(scale(1440, 1920, 361, 0) == JPEGScale(3, 8))
    #expect(scale(1920, 1440, 256, 192) == .quarter)
    #expect(scale(1440, 1920, 1440, 1920) == .full)
    #expect(scale(1440, 1920, 2000, 3000) == .full)
    #expect(scale(1440, 1920, 0, 0) == .eighth)
    // Scaled sizes round up, as libjpeg-turbo's do: 1/8 of 1441 is 181.
    #expect(JPEGScale.eighth.scaled(1441) == 181)
  }

  // MARK: - Bad input

  @Test func textIsNotAJPEG() {
    #expect {
      try decoder.decodeJPEG(Array("hello, not a jpeg".utf8), preferredWidth: 1, preferredHeight: 1)
    } throws: { error in
      guard case .unreadableHeader(let message) = error as? JPEGError else { return false }
      return !message.isEmpty
    }
    #expect(throws: JPEGError.empty) { try decoder.decodeJPEG([], scale: .full) }
  }

  @Test func truncatedJPEGThrowsWithLibraryMessage() throws {
    let jpeg = try TestImages.jpeg(TestImages.gradient(width: 64, height: 48))
    for length in [jpeg.count / 2, jpeg.count - 40] {
      #expect {
        try decoder.decodeJPEG(Array(jpeg.prefix(length)), scale: .full)
      } throws: { error in
        guard case .decodeFailed(let message) = error as? JPEGError else { return false }
        return message.contains("Premature end")
      }
    }
    // Cut inside the header.
    #expect(throws: JPEGError.self) {
      try decoder.decodeJPEG(Array(jpeg.prefix(100)), scale: .full)
    }
  }

  @Test func unsupportedScaleIsRefused() throws {
    let jpeg = try TestImages.jpeg(TestImages.gradient(width: 8, height: 8))
    #expect(throws: JPEGError.unsupportedScale(JPEGScale(1, 3))) {
      try decoder.decodeJPEG(jpeg, scale: JPEGScale(1, 3))
    }
    #expect(throws: JPEGError.unsupportedScale(JPEGScale(2, 1))) {
      try decoder.decodeJPEG(jpeg, scale: JPEGScale(2, 1))
    }
  }

  // MARK: - Real capture

  @Test(.enabled(if: TestData.sharedData != nil))
  func realCaptureColourDecodesAtEighthScaleForItsDepthMap() throws {
    let path = try #require(TestData.shared("record3d-exr-desk/rgb/0.jpg"))
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let image = try decoder.decodeJPEG(bytes, preferredWidth: 192, preferredHeight: 256)
    #expect(image.width == 180 && image.height == 240)
    // A real scene: not one flat colour.
    #expect(Set(image.pixels).count > 100)
  }
}

/// Results written by concurrent tasks, one slot each.
final class ResultSlots: @unchecked Sendable {
  private var slots: [RGBImage?]
  private let lock = NSLock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: RGBImage?) { lock.withLock { slots[index] = value } }

  var all: [RGBImage?] { lock.withLock { slots } }
}
