import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// `VideoEncoder` and `VideoOutput`: every format read back with FFmpeg (`VideoDecoder`)
/// for its frame count, size and rate, and the lossless one pixel for pixel.
@Suite struct VideoEncoderTests {
  /// `count` 48×32 frames: a gradient that moves a pixel right each frame, so every
  /// frame differs and every byte value of red and green appears.
  static func frames(_ count: Int, width: Int = 48, height: Int = 32) -> [RGBImage] {
    (0..<count).map { index in
      var pixels: [UInt8] = []
      for y in 0..<height {
        for x in 0..<width {
          pixels += [UInt8((x + index) * 255 / (width + count)), UInt8(y * 255 / height), 90]
        }
      }
      return RGBImage(width: width, height: height, pixels: pixels)
    }
  }

  /// Every frame of the video at `path`.
  static func decoded(_ path: String) throws -> (VideoDecoder, [RGBImage]) {
    let decoder = try VideoDecoder(path: path)
    return (decoder, try decoder.rgbFrames())
  }

  static func write(_ frames: [RGBImage], to path: String, fps: Int) throws {
    let sink = try VideoOutput.open(
      path, width: frames[0].width, height: frames[0].height, framesPerSecond: fps)
    for frame in frames { try sink.append(frame) }
    try sink.finish()
  }

  /// Each 4×4 block's mean colour, as a picture a quarter the size each way.
  static func blockMeans(_ image: RGBImage) -> RGBImage {
    let width = image.width / 4
    let height = image.height / 4
    var pixels: [UInt8] = []
    for by in 0..<height {
      for bx in 0..<width {
        for channel in 0..<3 {
          var sum = 0
          for y in 0..<4 {
            for x in 0..<4 {
              sum += Int(image.pixels[((by * 4 + y) * image.width + bx * 4 + x) * 3 + channel])
            }
          }
          pixels.append(UInt8((sum + 8) / 16))
        }
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// The mean difference of two images' channels.
  static func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
    let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(a.pixels.count)
  }

  @Test func aLosslessVideoDecodesToTheVeryPixelsEncoded() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("clip.mkv").path
    let frames = Self.frames(7)
    try Self.write(frames, to: path, fps: 12)
    let (decoder, images) = try Self.decoded(path)
    #expect(decoder.width == 48 && decoder.height == 32)
    #expect(decoder.framesPerSecond == 12)
    #expect(images == frames)
  }

  @Test(arguments: ["clip.mp4", "clip.webm", "clip.gif"])
  func eachFormatReadsBackWithItsCountSizeAndRate(_ name: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(name).path
    let frames = Self.frames(9)
    try Self.write(frames, to: path, fps: 25)
    let (decoder, images) = try Self.decoded(path)
    #expect(images.count == 9)
    #expect(decoder.width == 48 && decoder.height == 32)
    // GIF keeps delays in hundredths of a second: 4/100 s is 25 a second.
    #expect(
      decoder.framesPerSecond.map { abs($0 - 25) < 0.01 } == true,
      "\(String(describing: decoder.framesPerSecond))")
    // Lossy codecs keep the picture: the mean channel error stays below a few levels
    // (the gradient's steps are 5 apart). The GIF's 252 colours are 42–51 levels apart,
    // and dithering keeps each 4×4 block's average instead.
    let gif = name.hasSuffix(".gif")
    for (image, frame) in zip(images, frames) {
      let difference =
        gif
        ? Self.meanDifference(Self.blockMeans(image), Self.blockMeans(frame))
        : Self.meanDifference(image, frame)
      #expect(difference < (gif ? 4 : 3), "\(difference)")
    }
  }

  @Test func theGIFPaletteDithersAFlatColourToItsAverage() {
    // 150 lies between red levels 102 and 153: dithered, a 4×4 block averages close to it.
    let image = RGBImage(
      width: 4, height: 4, pixels: Array(repeating: [150, 150, 150], count: 16).flatMap { $0 })
    var indices = [UInt8](repeating: 0, count: 16)
    indices.withUnsafeMutableBufferPointer {
      GIFPalette.indices(of: image, into: $0.baseAddress!, rowStride: 4)
    }
    let colours = indices.map { GIFPalette.colours[Int($0)] }
    let red = Double(colours.map { Int($0.r) }.reduce(0, +)) / 16
    let green = Double(colours.map { Int($0.g) }.reduce(0, +)) / 16
    #expect(abs(red - 150) < 4, "\(red)")
    #expect(abs(green - 150) < 4, "\(green)")
    // The cube's corners are exact.
    #expect(GIFPalette.colours[0] == RGB8(0, 0, 0))
    #expect(GIFPalette.colours[251] == RGB8(255, 255, 255))
  }

  @Test func anAbandonedVideoLeavesNothingBehind() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("clip.mp4").path
    let sink = try VideoOutput.open(path, width: 48, height: 32, framesPerSecond: 30)
    for frame in Self.frames(3) { try sink.append(frame) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
    sink.abandon()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    // A wrong size is an error naming the frame, and the target never appears.
    let second = try VideoOutput.open(path, width: 48, height: 32, framesPerSecond: 30)
    #expect(throws: VideoError(.badFrame("frame 0 is 16×16, the video 48×32"), path: path)) {
      try second.append(RGBImage(width: 16, height: 16, pixels: Array(repeating: 0, count: 768)))
    }
    second.abandon()
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aFolderHoldsNumberedPicturesAndAnUnknownNameIsRefused() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let frames = Self.frames(3)
    let pictures = folder.appendingPathComponent("frames").path + "/"
    try Self.write(frames, to: pictures, fps: 30)
    let names = try FileManager.default.contentsOfDirectory(atPath: pictures).sorted()
    #expect(names == ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
    let last = try PNGCodec.decodeRGB(
      Array(try Data(contentsOf: URL(fileURLWithPath: pictures + names[2]))))
    #expect(last == frames[2])
    let odd = folder.appendingPathComponent("clip.avi").path
    #expect(throws: VideoError(.unknownFormat, path: odd)) {
      _ = try VideoOutput.open(odd, width: 48, height: 32, framesPerSecond: 30)
    }
  }
}
