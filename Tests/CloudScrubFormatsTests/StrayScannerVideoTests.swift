import CFFmpeg
import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// `VideoDecoder` on small videos made with `VideoEncoder`.
@Suite struct StrayScannerVideoTests {
  /// Four flat-coloured 64×48 frames, each a different colour.
  static let colours: [RGB8] = [
    RGB8(200, 40, 40), RGB8(40, 180, 60), RGB8(50, 60, 210), RGB8(128, 128, 128),
  ]

  func video(pixelFormat: AVPixelFormat) throws -> String {
    let folder = try CaptureFixtures.folder()
    let path = folder + "/rgb.mp4"
    let encoder = try VideoEncoder(
      path: path, width: 64, height: 48, framesPerSecond: 30, pixelFormat: pixelFormat)
    for colour in Self.colours {
      let pixels = (0..<64 * 48).flatMap { _ in [colour.r, colour.g, colour.b] }
      try encoder.append(RGBImage(width: 64, height: 48, pixels: pixels))
    }
    try encoder.finish()
    return path
  }

  func centre(_ image: ColorImage) throws -> RGB8 {
    switch image {
    case .rgb(let rgb): return rgb.pixel(x: 32, y: 24)
    case .yCbCr420(let planes): return StrayScannerWriter.rgb(of: planes).pixel(x: 32, y: 24)
    default: throw VideoError(.badFrame("unexpected colour form"), path: "")
    }
  }

  func expectClose(_ a: RGB8, _ b: RGB8, _ comment: String) {
    let worst = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
    #expect(worst <= 8, "\(comment): \(a) against \(b)")
  }

  @Test func yuv420VideoComesAsPlanes() throws {
    let path = try video(pixelFormat: AV_PIX_FMT_YUV420P)
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let decoder = try VideoDecoder(path: path)
    #expect(decoder.width == 64 && decoder.height == 48)
    #expect(decoder.framesPerSecond == 30)
    #expect(decoder.declaredFrameCount == 4)
    for index in [2, 0, 3, 1] {
      let image = try decoder.frame(at: index)
      guard case .yCbCr420(let planes) = image else {
        Issue.record("frame \(index): expected YCbCr planes")
        continue
      }
      #expect(planes.range == .video)
      expectClose(try centre(image), Self.colours[index], "frame \(index)")
    }
  }

  @Test func otherPixelFormatsAreConvertedToRGB() throws {
    let path = try video(pixelFormat: AV_PIX_FMT_YUV444P)
    defer {
      try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
    let decoder = try VideoDecoder(path: path)
    for index in [0, 1, 2, 3, 1] {
      let image = try decoder.frame(at: index)
      guard case .rgb = image else {
        Issue.record("frame \(index): expected RGB")
        continue
      }
      expectClose(try centre(image), Self.colours[index], "frame \(index)")
    }
    #expect(throws: VideoError(.missingFrame(index: 4, decodedFrames: 4), path: path)) {
      try decoder.frame(at: 4)
    }
  }

  @Test func aFileThatIsNoVideoNamesTheCallAndTheFile() throws {
    let folder = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/rgb.mp4"
    try CaptureFixtures.write(Array("not a video at all".utf8), to: path)
    let error = #expect(throws: VideoError.self) { try VideoDecoder(path: path) }
    #expect(error?.path == path)
    #expect(error?.description.hasSuffix(": " + path) == true)
    guard case .ffmpeg(let call, _, let message) = error?.reason else {
      Issue.record("expected an FFmpeg error, got \(String(describing: error))")
      return
    }
    #expect(call.hasPrefix("avformat_"))
    #expect(!message.isEmpty)
  }
}
