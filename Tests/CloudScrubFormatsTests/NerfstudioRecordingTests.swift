import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// nerfstudio-style `transforms.json` folders written from a synthetic capture.
@Suite struct NerfstudioRecordingTests {
  let source = CaptureFixtures.synthetic(frames: 5)

  func export() throws -> String {
    let folder = try CaptureFixtures.folder()
    try NerfstudioWriter().write(source, to: folder)
    return folder
  }

  func rewrite(_ folder: String, _ change: (inout [String: Any]) -> Void) throws {
    let path = folder + "/transforms.json"
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    change(&object)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
  }

  @Test func importedWorldPointsMatchTheSyntheticScene() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try InputDetector.kind(of: folder) == .recording(format: NerfstudioFormat.name))
    let recording = try InputDetector.openRecording(folder)
    #expect(recording.frameCount == 5)
    #expect(recording.description.depthWidth == 64 && recording.description.depthHeight == 48)
    #expect(recording.description.colorWidth == 128 && recording.description.colorHeight == 96)
    #expect(recording.description.worldUp == .y)
    #expect(
      recording.description.notes == ["no timestamps: frames timed at 30 fps in file order"])
    let info = try recording.frameInfo(at: 3)
    #expect(info.pose.axes == .openGL && info.timestampSeconds == 0.1)
    #expect(abs(info.intrinsics.fx - source.colorIntrinsics.fx) < 1e-9)
    let expected = try source.frameInfo(at: 3).pose.worldFromOpenCVCamera.rowMajor
    let actual = info.pose.worldFromOpenCVCamera.rowMajor
    #expect(zip(actual, expected).allSatisfy { abs($0 - $1) < 1e-12 })
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: (0..<5).map { ($0, $0) })
  }

  @Test func writerNamesFilesLikeNerfstudioAndSharesIntrinsics() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let object = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: folder + "/transforms.json")))
        as? [String: Any])
    #expect(object["camera_model"] as? String == "OPENCV")
    #expect(object["w"] as? Int == 128 && object["h"] as? Int == 96)
    let frames = try #require(object["frames"] as? [[String: Any]])
    #expect(frames.count == 5)
    #expect(frames[0]["file_path"] as? String == "images/frame_00001.jpg")
    #expect(frames[4]["depth_file_path"] as? String == "depth/frame_00005.png")
    #expect(frames[0]["fl_x"] == nil)
    let rows = try #require(frames[0]["transform_matrix"] as? [[Double]])
    #expect(rows.count == 4 && rows[3] == [0, 0, 0, 1])
  }

  @Test func perFrameIntrinsicsOverrideTheSharedOnes() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try rewrite(folder) { object in
      var frames = object["frames"] as? [[String: Any]] ?? []
      frames[2]["fl_x"] = 200.0
      frames[2]["cx"] = 60.0
      object["frames"] = frames
    }
    let recording = try NerfstudioRecording(folder: folder)
    #expect(try recording.frameInfo(at: 2).intrinsics.fx == 200)
    #expect(try recording.frameInfo(at: 2).intrinsics.cx == 60)
    #expect(try recording.frameInfo(at: 1).intrinsics.fx == source.colorIntrinsics.fx)
  }

  @Test func framesWithoutDepthAreLeftOutAndNoDepthAtAllIsAnError() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try rewrite(folder) { object in
      var frames = object["frames"] as? [[String: Any]] ?? []
      frames[1]["depth_file_path"] = nil
      object["frames"] = frames
      object["k1"] = 0.01
    }
    let recording = try NerfstudioRecording(folder: folder)
    #expect(recording.frameCount == 4)
    #expect(recording.frames[1].imagePath == "images/frame_00003.jpg")
    #expect(recording.description.notes.contains("1 of 5 frames have no depth_file_path: left out"))
    #expect(
      recording.description.notes.contains("distortion coefficients (k1, k2, p1, p2, …) ignored"))
    try rewrite(folder) { object in
      object["frames"] = (object["frames"] as? [[String: Any]] ?? []).map { frame in
        var copy = frame
        copy["depth_file_path"] = nil
        return copy
      }
    }
    let error = #expect(throws: CaptureFolderError.self) {
      try NerfstudioRecording(folder: folder)
    }
    #expect(
      error?.reason
        == .noFrames(expected: "frames with a depth_file_path (16-bit PNG, millimetres)"))
  }

  @Test func malformedKeysAreNamed() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try rewrite(folder) { object in
      var frames = object["frames"] as? [[String: Any]] ?? []
      frames[0]["transform_matrix"] = [[1, 0, 0], [0, 1, 0]]
      object["frames"] = frames
    }
    let error = #expect(throws: CaptureFolderError.self) {
      try NerfstudioRecording(folder: folder)
    }
    #expect(
      error?.reason == .badValue(key: "transform_matrix", expected: "4 rows of 4 numbers (frame 0)")
    )
    #expect(error?.path == folder + "/transforms.json")
    try rewrite(folder) { object in object["fl_x"] = nil }
    #expect(throws: CaptureFolderError(.missingKey("fl_x"), path: folder + "/transforms.json")) {
      try NerfstudioRecording(folder: folder)
    }
  }

  @Test func pngImagesAreDecodedAndAMissingImageIsNamed() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Turn frame 0's image into a PNG named without its extension (Blender style).
    let recording = try NerfstudioRecording(folder: folder)
    let jpegFrame = try recording.frame(at: 0)
    guard case .jpeg(let jpeg) = jpegFrame.color else {
      Issue.record("expected JPEG colour")
      return
    }
    let rgb = try TurboJPEGDecoder().decodeJPEG(jpeg, preferredWidth: 128, preferredHeight: 96)
    try Data(try PNGCodec.encode(rgb)).write(to: URL(fileURLWithPath: folder + "/images/first.png"))
    try rewrite(folder) { object in
      var frames = object["frames"] as? [[String: Any]] ?? []
      frames[0]["file_path"] = "images/first"
      frames[1]["file_path"] = "images/gone.jpg"
      object["frames"] = frames
    }
    let reopened = try NerfstudioRecording(folder: folder)
    #expect(try reopened.frame(at: 0).color == .rgb(rgb))
    #expect(
      throws: CaptureFolderError(
        .missingFile(what: "image of frame 1"), path: folder + "/images/gone.jpg")
    ) { try reopened.frame(at: 1) }
  }
}
