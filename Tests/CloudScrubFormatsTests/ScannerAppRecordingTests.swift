import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// 3D Scanner App "All Data" exports written from a synthetic capture.
@Suite struct ScannerAppRecordingTests {
  let source = CaptureFixtures.synthetic(frames: 6)

  func export(_ writer: ScannerAppWriter = ScannerAppWriter()) throws -> String {
    let folder = try CaptureFixtures.folder()
    try writer.write(source, to: folder)
    return folder
  }

  @Test func importedWorldPointsMatchTheSyntheticScene() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = try InputDetector.openRecording(folder)
    #expect(recording.frameCount == 6)
    #expect(recording.description.format == "3D Scanner App export")
    #expect(recording.description.app == "3D Scanner App")
    #expect(recording.description.depthWidth == 64 && recording.description.depthHeight == 48)
    #expect(recording.description.colorWidth == 128 && recording.description.colorHeight == 96)
    #expect(recording.description.notes.isEmpty)
    let info = try recording.frameInfo(at: 2)
    #expect(info.pose.axes == .openGL)
    #expect(abs(info.timestampSeconds - source.timestampSeconds(at: 2)) < 1e-9)
    #expect(
      info.intrinsics.width == 128 && abs(info.intrinsics.fx - source.colorIntrinsics.fx) < 1e-9)
    let frame = try recording.frame(at: 2)
    let expected = try source.frame(at: 2).confidence
    #expect(frame.confidence == expected)
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: (0..<6).map { ($0, $0) })
  }

  @Test func depthFramesWithoutImagesTakeTheNearestImagesColour() throws {
    let folder = try export(ScannerAppWriter(imageEvery: 3))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = try ScannerAppRecording(folder: folder)
    #expect(
      recording.frames.map(\.colorNumber) == ["00000", "00000", "00003", "00003", "00003", "00003"])
    let image3 = try FileBytes.read(folder + "/frame_00003.jpg")
    #expect(try recording.frame(at: 2).color == .jpeg(image3))
    #expect(try recording.frame(at: 5).color == .jpeg(image3))
    #expect(
      recording.description.notes.contains { $0.contains("4 of 6 depth frames have no image") })
    // Intrinsics still belong to the images' size, measured from a JPEG header.
    #expect(try recording.frameInfo(at: 1).intrinsics.width == 128)
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: [(1, 1), (4, 4)])
  }

  @Test func withoutImagesFramesAreUncolouredAndIntrinsicsSizeIsInferred() throws {
    let folder = try export(ScannerAppWriter(imageEvery: 2, writesConfidence: false))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for name in CaptureFolderFiles.names(in: folder) where name.hasSuffix(".jpg") {
      try FileManager.default.removeItem(atPath: folder + "/" + name)
    }
    let recording = try ScannerAppRecording(folder: folder)
    let frame = try recording.frame(at: 0)
    #expect(frame.color == nil && frame.confidence == nil)
    #expect(frame.intrinsics.width == 128 && frame.intrinsics.height == 96)
    #expect(recording.description.notes.contains { $0.contains("no frame_NNNNN.jpg images") })
    #expect(recording.description.notes.contains { $0.contains("6 of 6 frames have no conf") })
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: [(3, 3)])
  }

  @Test func jsonWithoutDepthIsSkippedAndFramesComeInTimeOrder() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.removeItem(atPath: folder + "/depth_00001.png")
    // Frame 4's clock runs before frame 0's: time, not file number, orders frames.
    var json = try CaptureFixtures.jsonObject(folder + "/frame_00004.json")
    json["time"] = 1.0
    try CaptureFixtures.writeJSON(json, to: folder + "/frame_00004.json")
    let recording = try ScannerAppRecording(folder: folder)
    #expect(recording.frames.map(\.number) == ["00004", "00000", "00002", "00003", "00005"])
    #expect(recording.description.notes.contains("1 frame JSON files without a depth map skipped"))
  }

  @Test(arguments: ["cameraPoseARFrame", "intrinsics", "time"])
  func missingKeyIsNamedWithThePathLast(key: String) throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/frame_00002.json"
    var json = try CaptureFixtures.jsonObject(path)
    json[key] = nil
    try CaptureFixtures.writeJSON(json, to: path)
    let error = #expect(throws: CaptureFolderError.self) { try ScannerAppRecording(folder: folder) }
    #expect(error?.reason == .missingKey(key))
    #expect(error?.description == "no '\(key)' key: \(path)")
  }

  @Test func malformedIntrinsicsAreNamed() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/frame_00000.json"
    var json = try CaptureFixtures.jsonObject(path)
    json["intrinsics"] = [1, 2, 3]
    try CaptureFixtures.writeJSON(json, to: path)
    try CaptureFixtures.write(Array("{".utf8), to: folder + "/frame_00001.json")
    let error = #expect(throws: CaptureFolderError.self) { try ScannerAppRecording(folder: folder) }
    #expect(
      error
        == CaptureFolderError(
          .badValue(key: "intrinsics", expected: "an array of 9 numbers"), path: path))
  }

  @Test func depthOfTheWrongSizeOrTruncatedIsNamed() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let wrongSize = try PNGCodec.encodeGray16(
      Gray16Image(width: 8, height: 6, samples: .init(repeating: 1000, count: 48)))
    try CaptureFixtures.write(wrongSize, to: folder + "/depth_00003.png")
    let recording = try ScannerAppRecording(folder: folder)
    #expect(
      throws: CaptureFolderError(
        .wrongImageSize(width: 8, height: 6, expectedWidth: 64, expectedHeight: 48),
        path: folder + "/depth_00003.png")
    ) { try recording.frame(at: 3) }
    let whole = try FileBytes.read(folder + "/depth_00004.png")
    try CaptureFixtures.write(Array(whole.prefix(whole.count / 2)), to: folder + "/depth_00004.png")
    let error = #expect(throws: CaptureFolderError.self) { try recording.frame(at: 4) }
    guard case .badImage = error?.reason else {
      Issue.record("expected a bad image, got \(String(describing: error))")
      return
    }
    #expect(error?.path == folder + "/depth_00004.png")
  }

  @Test func detectionGoesByContentAndUnknownFoldersListWhatWasLookedFor() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let renamed = folder + "-renamed.zip"
    try FileManager.default.moveItem(atPath: folder, toPath: renamed)
    defer { try? FileManager.default.removeItem(atPath: renamed) }
    #expect(try InputDetector.kind(of: renamed) == .recording(format: "3D Scanner App"))
    let empty = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: empty) }
    try CaptureFixtures.write([1], to: empty + "/frame_00000.json")
    #expect(!ScannerAppRecording.looksLike(folder: empty))
    let error = #expect(throws: FileError.self) { try InputDetector.kind(of: empty) }
    #expect(error?.description.contains(ScannerAppFormat.lookedFor) == true)
  }

  @Test func infoThroughTheBinaryNamesTheFormat() throws {
    let folder = try export(ScannerAppWriter(imageEvery: 2))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try CommandRunner.run(["info", folder])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("3D Scanner App export (3D Scanner App)"))
    #expect(result.standardOutput.contains("each takes the colour of the image nearest in time"))
  }
}
