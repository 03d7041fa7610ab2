import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `cloudscrub video` on the real binary: videos read back with FFmpeg, their frames
/// compared with `render`'s pictures of the same moment (exactly, through the lossless
/// format and the CPU renderer, whose pictures do not depend on the drawing order).
@Suite(.serialized) struct VideoCommandTests {
  /// A 12-frame synthetic recording at 30 frames a second: 0.367 s.
  static let recording: String? = {
    guard let folder = try? TestData.makeTemporaryDirectory() else { return nil }
    let path = folder.appendingPathComponent("video-test.csrec").path
    let result = try? CommandRunner.run(["synth", path, "--frames", "12"])
    return result?.status == 0 ? path : nil
  }()

  static func run(_ arguments: [String]) throws -> CommandRunner.Result {
    let result = try CommandRunner.run(arguments)
    #expect(result.status == 0, "\(result.standardError)")
    return result
  }

  /// Every frame of a video.
  static func frames(_ path: String) throws -> (decoder: VideoDecoder, images: [RGBImage]) {
    let decoder = try VideoDecoder(path: path)
    return (decoder, try decoder.rgbFrames())
  }

  static func picture(_ path: String) throws -> RGBImage {
    try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  @Test func aTimelineVideoLastsAsTheCaptureAndEndsOnTheRenderedPicture() throws {
    let recording = try #require(Self.recording)
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("timeline.mkv").path
    let common = ["--size", "160x96", "--renderer", "cpu"]
    let result = try Self.run(["video", recording, "-o", video, "--fps", "15"] + common)
    // 11 frame intervals of 1/30 s, at 15 frames a second: 5.5 intervals; 6, and the
    // first, so that the last video frame shows the last capture frame.
    #expect(result.standardOutput.contains("7 frames, 160×96 at 15 frames/s"))
    let (decoder, images) = try Self.frames(video)
    #expect(images.count == 7)
    #expect(decoder.width == 160 && decoder.height == 96 && decoder.framesPerSecond == 15)
    // Each frame added points: the first shows less than the last.
    #expect(images[0] != images[6])
    // The last frame, built up frame by frame, is render's picture of the whole capture.
    let still = folder.appendingPathComponent("last.png").path
    _ = try Self.run(["render", recording, "-o", still] + common)
    #expect(images[6] == (try Self.picture(still)))
    // H.264 gives the same video within the codec's loss.
    let mp4 = folder.appendingPathComponent("timeline.mp4").path
    _ = try Self.run(["video", recording, "-o", mp4, "--fps", "15"] + common)
    let lossy = try Self.frames(mp4)
    #expect(lossy.images.count == 7 && lossy.decoder.framesPerSecond == 15)
    // 4:2:0 keeps colour at half the resolution each way, which the picture's one- and
    // two-pixel points feel; brightness is kept at full resolution, within a few levels.
    #expect(Self.meanLumaDifference(lossy.images[6], images[6]) < 3)
  }

  /// The mean difference of two pictures' BT.601 luma.
  static func meanLumaDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
    func luma(_ image: RGBImage, _ i: Int) -> Double {
      0.299 * Double(image.pixels[3 * i]) + 0.587 * Double(image.pixels[3 * i + 1]) + 0.114
        * Double(image.pixels[3 * i + 2])
    }
    let count = a.width * a.height
    let total = (0..<count).reduce(0.0) { $0 + abs(luma(a, $1) - luma(b, $1)) }
    return total / Double(count)
  }

  @Test func aTurntableEndsOnItsFirstPictureWhichIsRendersView() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("turn.mkv").path
    let common = ["--size", "120x80", "--renderer", "cpu", "--camera", "orbit:30,25"]
    // A point-cloud file turns without being asked; 1 s at 6 a second is 7 frames.
    let result = try Self.run(["video", "Assets/sample.ply", "-o", video, "--fps", "6"] + common)
    #expect(result.standardOutput.contains("49 frames"), "\(result.standardOutput)")
    let short = folder.appendingPathComponent("short.mkv").path
    _ = try Self.run(
      ["video", "Assets/sample.ply", "-o", short, "--fps", "6", "--turntable", "1"] + common)
    let images = try Self.frames(short).images
    #expect(images.count == 7)
    #expect(images[0] == images[6])
    #expect(images[0] != images[3])
    let still = folder.appendingPathComponent("still.png").path
    _ = try Self.run(["render", "Assets/sample.ply", "-o", still] + common)
    #expect(images[0] == (try Self.picture(still)))
  }

  @Test func sideBySideFramesHoldTheViewAndTheFramesColourImage() throws {
    let recording = try #require(Self.recording)
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pictures = folder.appendingPathComponent("side").path + "/"
    _ = try Self.run([
      "video", recording, "-o", pictures, "--fps", "3", "--side-by-side", "--size", "200x96",
      "--renderer", "cpu",
    ])
    let names = try FileManager.default.contentsOfDirectory(atPath: pictures).sorted()
    #expect(names == ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
    let last = try Self.picture(pictures + "frame-00002.png")
    // A 4:3 colour image at 96 high is 128 wide, more than half: the view keeps 100.
    let still = folder.appendingPathComponent("view.png").path
    _ = try Self.run(["render", recording, "-o", still, "--size", "100x96", "--renderer", "cpu"])
    let view = try Self.picture(still)
    for y in [0, 40, 95] {
      let row = Array(last.pixels[(y * 200 * 3)..<(y * 200 * 3 + 300)])
      #expect(row == Array(view.pixels[(y * 300)..<(y * 300 + 300)]), "row \(y)")
    }
    // The right half is the synthetic frame's colour image, not black.
    var lit = 0
    for y in 0..<96 {
      for x in 100..<200 where last.pixel(x: x, y: y) != RGB8(0, 0, 0) { lit += 1 }
    }
    #expect(lit > 100 * 96 / 2)
  }

  @Test func badRequestsAreRefusedAndWriteNothing() throws {
    let recording = try #require(Self.recording)
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    func refused(_ arguments: [String], saying message: String) throws {
      let result = try CommandRunner.run(["video"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
    let out = folder.appendingPathComponent("out.mp4").path
    try refused(
      [recording, "-o", folder.appendingPathComponent("out.avi").path],
      saying: "a video's name ends in .mp4, .webm, .mkv or .gif")
    try refused(
      ["Assets/sample.ply", "-o", out, "--timeline"], saying: "--timeline needs a recording")
    try refused(
      ["Assets/sample.ply", "-o", out, "--camera", "follow"], saying: "capture cameras")
    try refused(
      [recording, "-o", out, "--turntable", "2", "--timeline"], saying: "give one")
    try refused(
      [recording, "-o", out, "--mode", "last:0"], saying: "--mode is up-to, frame or last:N")
    try refused([recording, "-o", out, "--fps", "500"], saying: "--fps")
    try refused([recording, "-o", out, "--size", "321x240"], saying: "needs even sides")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func anInterruptedVideoLeavesNothingBehind() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("long.mp4").path
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = [
      "video", "Assets/sample.ply", "-o", output, "--turntable", "600", "--renderer", "cpu",
    ]
    process.currentDirectoryURL = TestData.packageRoot
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { process.stop(grace: 2) }
    // 18,000 frames take minutes; the temporary file appears once drawing starts.
    let started = try FolderWatch.waitForEntry(
      in: folder.path, prefix: ".long.mp4.tmp-", timeout: 120)
    try #require(started, "the video never started writing")
    try #require(process.isRunning, "the video finished before it could be interrupted")
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func theDeskCapturesTimelinePlaysAtItsOwnRate() throws {
    guard let desk = TestData.shared("record3d-exr-desk") else { return }
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("desk.mkv").path
    let common = ["--size", "128x96", "--renderer", "cpu"]
    _ = try Self.run(["video", desk, "-o", video, "--fps", "10"] + common)
    // 240 frames over 4.001 s: 40.01 intervals at 10 a second; 41, and the first.
    let images = try Self.frames(video).images
    #expect(images.count == 42)
    let still = folder.appendingPathComponent("desk.png").path
    _ = try Self.run(["render", desk, "-o", still] + common)
    #expect(images.last == (try Self.picture(still)))
  }
}
