import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Polycam raw-data exports written from a synthetic capture.
@Suite struct PolycamRecordingTests {
  let source = CaptureFixtures.synthetic(frames: 5)

  func export(_ writer: PolycamWriter = PolycamWriter()) throws -> String {
    let folder = try CaptureFixtures.folder()
    try writer.write(source, to: folder)
    return folder
  }

  func ids() -> [String] {
    (0..<source.frameCount).map {
      PolycamWriter.id(timestampSeconds: source.timestampSeconds(at: $0))
    }
  }

  @Test func importedWorldPointsMatchTheSyntheticScene() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = try InputDetector.openRecording(folder)
    #expect(recording.frameCount == 5)
    #expect(
      recording.description.format == "Polycam raw data" && recording.description.app == "Polycam")
    #expect(recording.description.colorWidth == 128 && recording.description.depthWidth == 64)
    #expect(recording.description.notes == ["keyframe timestamps read as microseconds"])
    let info = try recording.frameInfo(at: 3)
    #expect(info.pose.axes == .openGL)
    #expect(abs(info.timestampSeconds - source.timestampSeconds(at: 3)) < 1e-6)
    let expected = try source.frame(at: 3).confidence
    #expect(try recording.frame(at: 3).confidence == expected)
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: (0..<5).map { ($0, $0) })
  }

  @Test func correctedCamerasAndImagesArePreferredAndNoted() throws {
    let folder = try export(PolycamWriter(writesCorrected: true))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // ARKit's own cameras are a metre off: only the corrected ones give the scene.
    for id in ids() {
      let path = folder + "/keyframes/cameras/\(id).json"
      var camera = try CaptureFixtures.jsonObject(path)
      camera["t_03"] = try #require(camera["t_03"] as? Double) + 1
      try CaptureFixtures.writeJSON(camera, to: path)
    }
    let recording = try PolycamRecording(folder: folder)
    #expect(recording.keyframes.allSatisfy { $0.usesCorrected })
    #expect(
      recording.description.notes.contains(
        "5 of 5 keyframes use corrected_cameras and corrected_images (Polycam's optimised poses)"))
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: (0..<5).map { ($0, $0) })
    // Without a corrected image, a keyframe falls back to the ARKit camera.
    try FileManager.default.removeItem(
      atPath: folder + "/keyframes/corrected_images/\(ids()[1]).jpg")
    let fallback = try PolycamRecording(folder: folder)
    #expect(!fallback.keyframes[1].usesCorrected && fallback.keyframes[2].usesCorrected)
    let corrected = try recording.frameInfo(at: 1).pose.position
    let shift = try fallback.frameInfo(at: 1).pose.position - corrected
    #expect(abs(shift.x - 1) < 1e-9)
  }

  @Test func confidenceStoredAs0_127_255IsDetectedAndMapped() throws {
    let folder = try export(PolycamWriter(spreadsConfidence: true))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = try PolycamRecording(folder: folder)
    #expect(
      recording.description.notes.contains("confidence stored as 0/127/255: mapped to levels 0/1/2")
    )
    for index in [0, 4] {
      let expected = try source.frame(at: index).confidence
      #expect(try recording.frame(at: index).confidence == expected)
      #expect(expected.map { Set($0.values).isSuperset(of: [0, 2]) } == true)
    }
  }

  @Test func idsSortNumericallyAndKeyframesWithoutDepthAreSkipped() throws {
    #expect(
      ["100", "99", "1000", "0098"].sorted(by: PolycamRecording.numericOrder) == [
        "0098", "99", "100", "1000",
      ])
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.removeItem(atPath: folder + "/keyframes/depth/\(ids()[2]).png")
    let recording = try PolycamRecording(folder: folder)
    #expect(
      recording.keyframes.map(\.id) == ids().enumerated().filter { $0.offset != 2 }.map(\.element))
    #expect(recording.description.notes.contains("1 keyframes without a depth map skipped"))
  }

  @Test(arguments: ["fx", "width", "t_12", "t_23"])
  func missingKeyIsNamedWithThePathLast(key: String) throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/keyframes/cameras/\(ids()[1]).json"
    var camera = try CaptureFixtures.jsonObject(path)
    camera[key] = nil
    try CaptureFixtures.writeJSON(camera, to: path)
    let error = #expect(throws: CaptureFolderError.self) { try PolycamRecording(folder: folder) }
    #expect(error?.description == "no '\(key)' key: \(path)")
  }

  @Test func badDepthAndConfidenceAreNamed() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let depthPath = folder + "/keyframes/depth/\(ids()[0]).png"
    let whole = try FileBytes.read(depthPath)
    try CaptureFixtures.write(Array(whole.prefix(60)), to: depthPath)
    let confidencePath = folder + "/keyframes/confidence/\(ids()[1]).png"
    try CaptureFixtures.write(
      try PNGCodec.encodeGray8(width: 4, height: 4, samples: .init(repeating: 2, count: 16)),
      to: confidencePath)
    let recording = try PolycamRecording(folder: folder)
    let error = #expect(throws: CaptureFolderError.self) { try recording.frame(at: 0) }
    #expect(error?.path == depthPath)
    #expect(
      throws: CaptureFolderError(
        .wrongImageSize(width: 4, height: 4, expectedWidth: 64, expectedHeight: 48),
        path: confidencePath)
    ) {
      try recording.frame(at: 1)
    }
  }

  @Test func detectionGoesByContentAndInfoNamesTheFormat() throws {
    let folder = try export(PolycamWriter(writesCorrected: true))
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try InputDetector.kind(of: folder) == .recording(format: "Polycam"))
    #expect(!PolycamRecording.looksLike(folder: folder + "/keyframes"))
    let empty = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: empty) }
    let error = #expect(throws: FileError.self) { try InputDetector.kind(of: empty) }
    #expect(error?.description.contains(PolycamFormat.lookedFor) == true)
    let result = try CommandRunner.run(["info", folder])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Polycam raw data (Polycam)"))
    #expect(result.standardOutput.contains("corrected_cameras"))
  }
}
