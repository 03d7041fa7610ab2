import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// Frames in every colour and depth form come back from a recording equal, in any
/// order and from several threads.
@Suite struct RecordingFormatRoundTripTests {
  enum ColorForm: String, CaseIterable, CustomTestStringConvertible {
    case none, jpeg, rgb, yCbCrVideoPadded, yCbCrFullOddSize, bgraPadded
    var testDescription: String { rawValue }
  }

  @Test(arguments: ColorForm.allCases)
  func everyColourFormReadsBackEqual(form: ColorForm) throws {
    let frames = (0..<3).map { RecordingSamples.frame(index: $0, color: form) }
    let path = try RecordingSamples.write(frames)
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.frameCount == 3)
    #expect(!recording.recoveredWithoutIndex)
    for (i, frame) in frames.enumerated() { #expect(try recording.frame(at: i) == frame) }
  }

  enum DepthForm: String, CaseIterable, CustomTestStringConvertible {
    case float32DepthPaddedRows, float16Disparity, float32Disparity, float16Depth
    var testDescription: String { rawValue }
  }

  @Test(arguments: DepthForm.allCases, [false, true])
  func everyDepthFormReadsBackEqual(form: DepthForm, withConfidence: Bool) throws {
    let depth: DepthMap
    switch form {
    case .float32DepthPaddedRows:
      depth = RecordingSamples.depth(
        width: 7, height: 5, sampleType: .float32, padding: 12, seed: 1)
    case .float16Disparity:
      depth = RecordingSamples.depth(
        width: 6, height: 4, sampleType: .float16, encoding: .disparityInverseMeters, seed: 2)
    case .float32Disparity:
      depth = RecordingSamples.depth(
        width: 5, height: 3, sampleType: .float32, encoding: .disparityInverseMeters, padding: 4,
        seed: 3)
    case .float16Depth:
      depth = RecordingSamples.depth(width: 9, height: 2, sampleType: .float16, padding: 6, seed: 4)
    }
    var frame = RecordingSamples.frame(index: 0, color: .jpeg)
    frame.depth = depth
    frame.confidence =
      withConfidence
      ? RecordingSamples.confidence(width: depth.width, height: depth.height, padding: 3) : nil
    let path = try RecordingSamples.write([frame, frame])
    let recording = try CloudScrubRecording(path: path)
    #expect(try recording.frame(at: 0) == frame)
    #expect(try recording.frame(at: 1) == frame)
  }

  @Test func metadataAndDescriptionReadBack() throws {
    let metadata = RecordingMetadata(
      appName: "Capture 2.1", deviceModel: "iPhone15,3", framesPerSecond: 60, depthSensor: .lidar,
      extraFields: ["note": "kitchen, second pass", "session": "ü-42"])
    let frame = RecordingSamples.frame(index: 0, color: .jpeg)
    let path = try RecordingSamples.write([frame], metadata: metadata)
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.metadata == metadata)
    #expect(recording.version == (1, 0))
    #expect(
      recording.description
        == RecordingDescription(
          format: "CloudScrub recording", app: "Capture 2.1", framesPerSecond: 60, depthWidth: 8,
          depthHeight: 6, colorWidth: 1920, colorHeight: 1440))
  }

  @Test func emptyMetadataReadsBackEmpty() throws {
    let path = try RecordingSamples.write([], metadata: RecordingMetadata())
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.metadata == RecordingMetadata())
    #expect(recording.frameCount == 0)
    #expect(recording.description.depthWidth == 0)
    #expect(recording.description.colorWidth == nil)
  }

  @Test func frameNOfFiftyIsReadInAnyOrderAndFromSeveralThreads() throws {
    let frames = (0..<50).map {
      RecordingSamples.frame(index: $0, color: ColorForm.allCases[$0 % ColorForm.allCases.count])
    }
    let orientations = (0..<50).map {
      DeviceOrientation.allCases[$0 % DeviceOrientation.allCases.count]
    }
    let path = try RecordingSamples.write(frames, orientations: orientations)
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.frameCount == 50)
    var random = SplitMix64(seed: 9)
    for index in (0..<50).shuffled(using: &random) {
      #expect(try recording.frame(at: index) == frames[index])
      #expect(try recording.frameOrientation(at: index) == orientations[index])
      #expect(try recording.frameInfo(at: index).pose == frames[index].pose)
    }
    let matches = ParallelSlots(count: 200, initial: false)
    DispatchQueue.concurrentPerform(iterations: 200) { i in
      let index = (i * 37) % 50
      let read = try? recording.frameAndOrientation(at: index)
      matches[i] = read?.frame == frames[index] && read?.orientation == orientations[index]
    }
    #expect((0..<200).allSatisfy { matches[$0] })
  }

  @Test func aLiDARFrameCostsItsBlobsAndAFixedHeaderOnly() throws {
    var frame = RecordingSamples.frame(index: 0, color: .jpeg)
    frame.depth = DepthMap(
      width: 256, height: 192, meters: [Float](repeating: 1.5, count: 256 * 192))
    frame.confidence = ConfidenceMap(
      width: 256, height: 192, values: [UInt8](repeating: 2, count: 256 * 192))
    let jpeg = RecordingSamples.jpeg(width: 1920, height: 1440, extra: 40_001)
    frame.color = .jpeg(jpeg)
    let one = try RecordingSamples.write([frame])
    let two = try RecordingSamples.write([frame, frame])
    let size = { (path: String) in
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }
    let frameCost = try size(two) - size(one) - 8  // one more index entry
    let blobs = 256 * 192 * 4 + 256 * 192 + jpeg.count
    // Chunk header 16, frame header 240, three blob lengths, the JPEG padded to 8.
    #expect(frameCost == 16 + 240 + 3 * 8 + blobs + (8 - jpeg.count % 8) % 8)
  }
}

/// Frames and files for the recording format's tests.
enum RecordingSamples {
  typealias ColorForm = RecordingFormatRoundTripTests.ColorForm

  /// Writes `frames` to a new file and returns its path; `finish: false` leaves it as a
  /// crashed app would.
  static func write(
    _ frames: [CapturedFrame], metadata: RecordingMetadata = RecordingMetadata(appName: "Tests"),
    orientations: [DeviceOrientation]? = nil, finish: Bool = true
  ) throws -> String {
    let path = try TestData.makeTemporaryDirectory().appendingPathComponent("take.csrec").path
    let writer = try CloudScrubRecordingWriter(path: path, metadata: metadata)
    for (i, frame) in frames.enumerated() {
      try writer.append(frame, orientation: orientations?[i] ?? .landscapeRight)
    }
    if finish { try writer.finish() }
    return path
  }

  static func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  /// Writes `bytes` to a new file and returns its path.
  static func file(_ bytes: [UInt8], name: String = "cut.csrec") throws -> String {
    let path = try TestData.makeTemporaryDirectory().appendingPathComponent(name).path
    try overwrite(path, with: bytes)
    return path
  }

  /// Replaces the file's contents, without the `fsync` that `Data.write` does, which
  /// makes loops over many variants slow.
  static func overwrite(_ path: String, with bytes: [UInt8]) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw FileError(.cannotOpen("test file"), path: path) }
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw FileError(.cannotWrite("test file"), path: path) }
  }

  static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }

  static func depth(
    width: Int, height: Int, sampleType: DepthSampleType, encoding: DepthEncoding = .depthMeters,
    padding: Int = 0, seed: UInt64
  ) -> DepthMap {
    let stride = width * (sampleType == .float32 ? 4 : 2) + padding
    // The last row is left unpadded, as some capture APIs hand it out.
    return DepthMap(
      width: width, height: height, bytesPerRow: stride, sampleType: sampleType, encoding: encoding,
      bytes: noise(stride * height - padding, seed: seed))
  }

  static func confidence(width: Int, height: Int, padding: Int = 0) -> ConfidenceMap {
    let stride = width + padding
    return ConfidenceMap(
      width: width, height: height, bytesPerRow: stride,
      values: (0..<(stride * height)).map { UInt8($0 % 3) })
  }

  /// A JPEG's markers up to its scan, with a start-of-frame for `width` × `height`
  /// after an APP0 segment, `extra` bytes of scan data and the end marker.
  static func jpeg(width: Int, height: Int, extra: Int = 5) -> [UInt8] {
    let app0: [UInt8] =
      [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    let sof: [UInt8] = [
      0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
      UInt8(width & 0xFF), 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    ]
    return [0xFF, 0xD8] + app0 + sof + [0xFF, 0xDA] + noise(extra, seed: 5) + [0xFF, 0xD9]
  }

  static func color(_ form: ColorForm, seed: UInt64) -> ColorImage? {
    switch form {
    case .none:
      return nil
    case .jpeg:
      return .jpeg(jpeg(width: 1920, height: 1440))
    case .rgb:
      return .rgb(RGBImage(width: 4, height: 3, pixels: noise(36, seed: seed)))
    case .yCbCrVideoPadded:
      return .yCbCr420(
        YCbCrImage(
          width: 8, height: 6, range: .video, luma: noise(12 * 6, seed: seed), lumaBytesPerRow: 12,
          chroma: noise(16 * 3, seed: seed + 1), chromaBytesPerRow: 16))
    case .yCbCrFullOddSize:
      return .yCbCr420(
        YCbCrImage(
          width: 5, height: 3, range: .full, luma: noise(15, seed: seed),
          chroma: noise(12, seed: seed + 1)))
    case .bgraPadded:
      return .bgra(BGRAImage(width: 3, height: 2, bytesPerRow: 16, bytes: noise(32, seed: seed)))
    }
  }

  /// Frame `index`: an 8×6 float32 depth map, confidence, the colour form asked for, and
  /// a pose, intrinsics and time that change with the index.
  static func frame(index: Int, color form: ColorForm) -> CapturedFrame {
    let seed = UInt64(index) * 100
    let angle = Double(index) * 0.1
    return CapturedFrame(
      timestampSeconds: 1000.25 + Double(index) / 60,
      depth: depth(width: 8, height: 6, sampleType: .float32, seed: seed),
      confidence: confidence(width: 8, height: 6),
      color: color(form, seed: seed + 7),
      intrinsics: CameraIntrinsics(
        fx: 1450.5 + Double(index), fy: 1451.25, cx: 959.5, cy: 719.75, width: 1920, height: 1440),
      pose: CameraPose(
        worldFromCamera: Transform3D(
          axisAngle: SIMD3(0.2, angle, -0.1), translation: SIMD3(Double(index), 1.5, -0.25)),
        axes: index % 2 == 0 ? .openGL : .openCV))
  }
}
