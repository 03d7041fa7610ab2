import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Stray Scanner exports written from a synthetic capture, video encoded with FFmpeg.
@Suite struct StrayScannerRecordingTests {
  let source = CaptureFixtures.synthetic(frames: 6)

  func export(_ writer: StrayScannerWriter = StrayScannerWriter(), frames: Int = 6) throws -> String
  {
    let folder = try CaptureFixtures.folder()
    try writer.write(frames == 6 ? source : CaptureFixtures.synthetic(frames: frames), to: folder)
    return folder
  }

  @Test func importedWorldPointsMatchTheSyntheticScene() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try InputDetector.kind(of: folder) == .recording(format: "Stray Scanner"))
    let recording = try InputDetector.openRecording(folder)
    #expect(recording.frameCount == 6)
    #expect(recording.description.format == "Stray Scanner export")
    #expect(recording.description.app == "Stray Scanner")
    #expect(recording.description.depthWidth == 64 && recording.description.depthHeight == 48)
    #expect(recording.description.colorWidth == 128 && recording.description.colorHeight == 96)
    #expect(recording.description.framesPerSecond == 60)
    #expect(recording.description.notes.isEmpty, "\(recording.description.notes)")
    let info = try recording.frameInfo(at: 2)
    #expect(info.pose.axes == .openCV)
    #expect(abs(info.timestampSeconds - source.timestampSeconds(at: 2)) < 1e-9)
    #expect(
      info.intrinsics.width == 128 && abs(info.intrinsics.fx - source.colorIntrinsics.fx) < 1e-9)
    let frame = try recording.frame(at: 2)
    #expect(frame.confidence == (try source.frame(at: 2).confidence))
    guard case .yCbCr420(let image) = frame.color else {
      Issue.record("expected decoded YCbCr planes, got \(String(describing: frame.color))")
      return
    }
    #expect(image.width == 128 && image.height == 96)
    try CaptureFixtures.expectSameWorldPoints(
      recording, source, frames: (0..<6).map { ($0, $0) }, toleranceMeters: 0.0015)
  }

  @Test func odometryHoldsCameraToWorldPosesInOpenCVAxes() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let text = try String(contentsOfFile: folder + "/odometry.csv", encoding: .utf8)
    #expect(text.hasPrefix("timestamp, frame, x, y, z, qx, qy, qz, qw\n"))
    let recording = try StrayScannerRecording(folder: folder)
    for index in [0, 5] {
      let expected = source.pose(at: index)
      let actual = try recording.frameInfo(at: index).pose
      // Same camera position; the camera's forward axis is +z in OpenCV axes and −z in
      // ARKit's, so the two rotations differ by the y–z flip.
      let d = actual.position - expected.position
      #expect((d * d).sum().squareRoot() < 1e-6)
      let forward = actual.worldFromCamera.rotate(SIMD3(0, 0, 1))
      let arkitForward = expected.worldFromCamera.rotate(SIMD3(0, 0, -1))
      let e = forward - arkitForward
      #expect((e * e).sum().squareRoot() < 1e-6)
    }
  }

  @Test(arguments: [["libx264", "mpeg4"], ["mpeg4"]])
  func coloursRoughlyMatchThroughTheLossyVideo(encoders: [String]) throws {
    let folder = try export(StrayScannerWriter(videoEncoders: encoders))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = try StrayScannerRecording(folder: folder)
    for index in [0, 3, 5] {
      guard case .yCbCr420(let planes) = try recording.frame(at: index).color,
        case .rgb(let wanted) = try source.frame(at: index).color
      else {
        Issue.record("frame \(index): expected decoded planes and a synthetic RGB image")
        continue
      }
      let actual = StrayScannerWriter.rgb(of: planes)
      // Only flat areas: the scene's cells alternate a channel between extremes, which
      // 4:2:0 chroma and lossy coding smear over a few pixels at every cell edge.
      var total = SIMD3<Double>.zero
      var count = 0
      for y in 3..<wanted.height - 3 {
        for x in 3..<wanted.width - 3 {
          let centre = wanted.pixel(x: x, y: y)
          let flat = (-3...3).allSatisfy { dy in
            (-3...3).allSatisfy { dx in wanted.pixel(x: x + dx, y: y + dy) == centre }
          }
          guard flat else { continue }
          let a = actual.pixel(x: x, y: y)
          total += SIMD3(
            abs(Double(a.r) - Double(centre.r)), abs(Double(a.g) - Double(centre.g)),
            abs(Double(a.b) - Double(centre.b)))
          count += 1
        }
      }
      #expect(count > 500, "frame \(index): \(count) flat pixels")
      let mean = total / Double(max(1, count))
      #expect(mean.max() < 12, "frame \(index): mean absolute error per channel \(mean)")
    }
  }

  @Test func numPyDepthOfOlderExportsIsRead() throws {
    let folder = try export(StrayScannerWriter(depthFormat: .numPy))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(FileManager.default.fileExists(atPath: folder + "/depth/000003.npy"))
    #expect(!FileManager.default.fileExists(atPath: folder + "/depth/000003.png"))
    let recording = try StrayScannerRecording(folder: folder)
    #expect(recording.frames.allSatisfy { $0.depthIsNumPy })
    #expect(recording.description.depthWidth == 64 && recording.description.depthHeight == 48)
    #expect(recording.description.notes.contains { $0.contains(".npy") })
    try CaptureFixtures.expectSameWorldPoints(
      recording, source, frames: [(0, 0), (3, 3)], toleranceMeters: 0.0015)
  }

  @Test func perFrameIntrinsicsColumnsAreUsed() throws {
    let folder = try export(StrayScannerWriter(writesPerFrameIntrinsics: true))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A camera matrix that would put every point elsewhere: the columns must win.
    try CaptureFixtures.write(
      Array("500,0,10\n0,500,20\n0,0,1\n".utf8), to: folder + "/camera_matrix.csv")
    let recording = try StrayScannerRecording(folder: folder)
    let intrinsics = try recording.frameInfo(at: 1).intrinsics
    #expect(abs(intrinsics.fx - source.colorIntrinsics.fx) < 1e-9)
    #expect(abs(intrinsics.cy - source.colorIntrinsics.cy) < 1e-9)
    #expect(recording.description.notes.contains("per-frame intrinsics from odometry.csv"))
    try CaptureFixtures.expectSameWorldPoints(
      recording, source, frames: [(1, 1)], toleranceMeters: 0.0015)
  }

  @Test func columnsInAnotherOrderStillParse() throws {
    let folder = try export(StrayScannerWriter(writesPerFrameIntrinsics: true))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let original = try StrayScannerRecording(folder: folder)
    let path = folder + "/odometry.csv"
    let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    // Reversed columns, an extra one, no space after commas, CRLF line ends.
    let shuffled = rows.enumerated().map { offset, fields in
      ([offset == 0 ? "note" : "x\(offset)"] + fields.reversed()).joined(separator: ",")
    }
    try CaptureFixtures.write(Array((shuffled.joined(separator: "\r\n") + "\r\n").utf8), to: path)
    let reordered = try StrayScannerRecording(folder: folder)
    #expect(reordered.frames == original.frames)
  }

  @Test func aVideoShorterThanTheDepthFramesNamesTheMissingFrame() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let short = try export(frames: 4)
    defer { try? FileManager.default.removeItem(atPath: short) }
    try FileManager.default.removeItem(atPath: folder + "/rgb.mp4")
    try FileManager.default.copyItem(atPath: short + "/rgb.mp4", toPath: folder + "/rgb.mp4")
    let recording = try StrayScannerRecording(folder: folder)
    #expect(recording.description.notes.contains { $0.contains("rgb.mp4 has 4 frames") })
    #expect(try recording.frame(at: 3).color != nil)
    #expect(
      throws: VideoError(.missingFrame(index: 5, decodedFrames: 4), path: folder + "/rgb.mp4")
    ) {
      try recording.frame(at: 5)
    }
    // Still usable afterwards, backwards and at the end again.
    #expect(try recording.frame(at: 0).color != nil)
    #expect(throws: VideoError.self) { try recording.frame(at: 4) }
  }

  @Test func randomOrderRequestsGiveTheSameFramesAsInOrderOnes() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let inOrder = try (0..<6).map { try StrayScannerRecording(folder: folder).frame(at: $0).color }
    // A small ring forces real rewinds as well as ring hits.
    let recording = try StrayScannerRecording(folder: folder)
    let decoder = try VideoDecoder(path: folder + "/rgb.mp4", ringCapacity: 2)
    for index in [5, 0, 3, 3, 1, 4, 2, 0, 5, 1] {
      #expect(try recording.frame(at: index).color == inOrder[index], "frame \(index)")
      #expect(try decoder.frame(at: index) == inOrder[index], "frame \(index), small ring")
    }
    // From several threads at once, as the loader calls it.
    let results = LockedResults(count: 24)
    DispatchQueue.concurrentPerform(iterations: 24) { i in
      let index = (i * 7) % 6
      results.set(i, (try? recording.frame(at: index).color) == inOrder[index])
    }
    #expect(results.all)
  }

  @Test func truncatedOrWrongNumPyIsNamed() throws {
    let folder = try export(StrayScannerWriter(depthFormat: .numPy))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/depth/000002.npy"
    let whole = try FileBytes.read(path)
    try CaptureFixtures.write(Array(whole.prefix(whole.count - 100)), to: path)
    let recording = try StrayScannerRecording(folder: folder)
    let error = #expect(throws: CaptureFolderError.self) { try recording.frame(at: 2) }
    #expect(error?.path == path)
    #expect(error?.description.contains("data ends after 6044 bytes, the shape needs 6144") == true)
    // The same file with a big-endian dtype: only the '<' of "<u2" changes.
    var swapped = whole
    let dtypeAt = try #require((0..<128).first { Array(whole[$0..<$0 + 3]) == Array("<u2".utf8) })
    swapped[dtypeAt] = UInt8(ascii: ">")
    try CaptureFixtures.write(swapped, to: path)
    let bigEndian = #expect(throws: CaptureFolderError.self) { try recording.frame(at: 2) }
    #expect(bigEndian?.description.contains("dtype is >u2") == true)
    try CaptureFixtures.write(Array(whole.prefix(20)), to: path)
    #expect(throws: CaptureFolderError.self) { try recording.frame(at: 2) }
  }

  @Test func badCSVIsNamedWithFileAndLine() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let odometry = folder + "/odometry.csv"
    var lines = try String(contentsOfFile: odometry, encoding: .utf8).components(separatedBy: "\n")
    let good = lines
    lines[2] = lines[2].replacingOccurrences(of: ", 1, ", with: ", one, ")
    try CaptureFixtures.write(Array(lines.joined(separator: "\n").utf8), to: odometry)
    let error = #expect(throws: CaptureFolderError.self) {
      try StrayScannerRecording(folder: folder)
    }
    #expect(error?.path == odometry)
    guard case .badLine(line: 3, _) = error?.reason else {
      Issue.record("expected line 3, got \(String(describing: error))")
      return
    }
    #expect(error?.description.contains("column 'frame'") == true)

    lines = good
    lines[0] = "timestamp, frame, x, y, z, qx, qy, qz"
    try CaptureFixtures.write(Array(lines.joined(separator: "\n").utf8), to: odometry)
    #expect(
      throws: CaptureFolderError(
        .badLine(line: 1, expected: "a header naming a 'qw' column"), path: odometry)
    ) { try StrayScannerRecording(folder: folder) }

    try CaptureFixtures.write(Array(good.joined(separator: "\n").utf8), to: odometry)
    let matrix = folder + "/camera_matrix.csv"
    try CaptureFixtures.write(Array("1440,0,64\n0,1440\n0,0,1\n".utf8), to: matrix)
    #expect(
      throws: CaptureFolderError(
        .badLine(line: 2, expected: "3 comma-separated numbers"), path: matrix)
    ) { try StrayScannerRecording(folder: folder) }
  }

  @Test func infoThroughTheBinaryNamesTheFormat() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run(["info", folder])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.contains("Stray Scanner export (Stray Scanner)"),
      "\(result.standardOutput)")
  }
}

/// Booleans set from several threads.
final class LockedResults: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Bool]

  init(count: Int) { values = Array(repeating: false, count: count) }

  func set(_ index: Int, _ value: Bool) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }

  var all: Bool {
    lock.lock()
    defer { lock.unlock() }
    return values.allSatisfy { $0 }
  }
}
