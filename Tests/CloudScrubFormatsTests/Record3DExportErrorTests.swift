import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Small exports written on the fly: what the importer reads, and how it fails.
@Suite struct Record3DExportErrorTests {
  @Test func syntheticExportReadsBackWhatWasWritten() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 3), depthFrames: [0, 1, 2])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(recording.frameCount == 3 && recording.description.notes.isEmpty)
    let frame = try recording.frame(at: 2)
    #expect(frame.depth.metersGrid().allSatisfy { $0 == Record3DTestExport.depthMeters(frame: 2) })
    #expect(frame.timestampSeconds == 100 + 2.0 / 30)
    #expect(
      frame.intrinsics == CameraIntrinsics(fx: 52, fy: 50, cx: 24, cy: 32, width: 48, height: 64))
    // JSONSerialization writes doubles to about 16 digits: compare within 1e-12.
    let expected = Record3DMetadata.transform(Record3DTestExport.pose(frame: 2))
    #expect(
      zip(frame.pose.worldFromCamera.rowMajor, expected.rowMajor).allSatisfy {
        abs($0 - $1) < 1e-12
      })
    #expect(frame.pose.position == SIMD3(2, 2, 3))
    #expect(recording.metadata.initialWorldFromCamera == .identity)
    let info = try recording.frameInfo(at: 2)
    #expect(info.timestampSeconds == frame.timestampSeconds && info.pose == frame.pose)
    #expect(info.intrinsics == frame.intrinsics)
    #expect(Record3DEXRRecording.looksLike(folder: export.path))
  }

  @Test(arguments: ["w", "h", "K", "poses"])
  func missingMetadataKeyIsNamed(key: String) throws {
    var metadata = Record3DTestExport.metadata(frameCount: 2)
    metadata[key] = nil
    let export = try Record3DTestExport(metadata: metadata, depthFrames: [0, 1])
    defer { export.delete() }
    let error = #expect(throws: Record3DError.self) {
      try Record3DEXRRecording(folder: export.path)
    }
    #expect(error?.reason == .missingKey(key))
    #expect(error?.description == "metadata has no '\(key)' key: \(export.file("metadata.json"))")
  }

  @Test func fpsIsRequiredOnlyWithoutFrameTimestamps() throws {
    var metadata = Record3DTestExport.metadata(frameCount: 2)
    metadata["fps"] = nil
    let export = try Record3DTestExport(metadata: metadata, depthFrames: [0, 1])
    defer { export.delete() }
    #expect(try Record3DEXRRecording(folder: export.path).description.framesPerSecond == nil)
    metadata["frameTimestamps"] = nil
    try export.writeMetadata(metadata)
    #expect(throws: Record3DError(.missingKey("fps"), path: export.file("metadata.json"))) {
      try Record3DEXRRecording(folder: export.path)
    }
  }

  @Test func malformedValuesAreNamed() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 1), depthFrames: [0])
    defer { export.delete() }
    let cases: [(String, Any, String)] = [
      ("K", [1, 2, 3], "K"), ("w", "wide", "w"), ("poses", [[1, 2, 3]], "poses"),
      ("dw", -4, "dw"), ("perFrameIntrinsicCoeffs", [[1, 2]], "perFrameIntrinsicCoeffs"),
    ]
    for (key, value, named) in cases {
      var metadata = Record3DTestExport.metadata(frameCount: 1)
      metadata[key] = value
      try export.writeMetadata(metadata)
      let error = #expect(throws: Record3DError.self, "\(key)") {
        try Record3DEXRRecording(folder: export.path)
      }
      guard case .badValue(let reported, _) = error?.reason else {
        Issue.record("\(key): \(String(describing: error))")
        continue
      }
      #expect(reported == named)
    }
    try Data("{ not json".utf8).write(to: URL(fileURLWithPath: export.file("metadata.json")))
    #expect {
      try Record3DEXRRecording(folder: export.path)
    } throws: { error in
      guard case .metadataNotJSON = (error as? Record3DError)?.reason else { return false }
      return true
    }
    // Nested past the parser's limit: the message says so, not just "not in the correct
    // format".
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    try Data(deep.utf8).write(to: URL(fileURLWithPath: export.file("metadata.json")))
    let nested = #expect(throws: Record3DError.self) {
      try Record3DEXRRecording(folder: export.path)
    }
    guard case .metadataNotJSON(let message) = nested?.reason else {
      Issue.record("\(String(describing: nested))")
      return
    }
    #expect(message.contains("Too many nested arrays or dictionaries around character"))
    #expect(nested?.description.hasSuffix(export.file("metadata.json")) == true)
  }

  @Test func oldExportWithoutDepthSizeAssumesPortraitDefault() throws {
    var metadata = Record3DTestExport.metadata(frameCount: 1)
    metadata["dw"] = nil
    metadata["dh"] = nil
    metadata["perFrameIntrinsicCoeffs"] = nil
    metadata["frameTimestamps"] = nil
    let export = try Record3DTestExport(metadata: metadata, depthFrames: [0])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(recording.description.depthWidth == 192 && recording.description.depthHeight == 256)
    #expect(recording.description.notes.count == 3)
    let frame = try recording.frame(at: 0)
    #expect(
      frame.intrinsics == CameraIntrinsics(fx: 50, fy: 50, cx: 24, cy: 32, width: 48, height: 64))
    #expect(frame.timestampSeconds == 0)
  }

  @Test func exportWithoutAnyPosesFilesIsNamedAtTheFirstDepthFile() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 2), depthFrames: [2])
    defer { export.delete() }
    let error = #expect(throws: Record3DError.self) {
      try Record3DEXRRecording(folder: export.path)
    }
    #expect(error?.reason == .missingDepthFile(frame: 0))
    #expect(error?.description == "frame 0 has no depth image: \(export.file("depth/0.exr"))")
  }

  @Test func missingFirstDepthFileLeavesOutOnlyFrameZero() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 2), depthFrames: [1])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(recording.fileNumbers == [1] && recording.missingFileNumbers == [0])
    let frame = try recording.frame(at: 0)
    #expect(frame.depth.metersGrid().allSatisfy { $0 == Record3DTestExport.depthMeters(frame: 1) })
    #expect(frame.pose.position == SIMD3(1, 2, 3))
  }

  @Test func gapsInDepthFilesLeaveOutOnlyTheirFramesWithANote() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 6), depthFrames: [0, 1, 3, 5])
    defer { export.delete() }
    // `02.exr` is not frame 2's file.
    try FileManager.default.copyItem(
      atPath: export.file("depth/3.exr"), toPath: export.file("depth/02.exr"))
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(recording.frameCount == 4)
    #expect(recording.fileNumbers == [0, 1, 3, 5])
    #expect(recording.missingFileNumbers == [2, 4])
    #expect(
      recording.description.notes == [
        "2 poses without a depth file, left out: frame numbers 2, 4 (no depth/2.exr …)",
        "4 frames of 6 poses; each keeps its file number's pose, time and intrinsics",
      ])
    // Frame 2 is file 3: its depth, pose and time (30 fps from 100 s).
    let frame = try recording.frame(at: 2)
    #expect(frame.depth.metersGrid().allSatisfy { $0 == Record3DTestExport.depthMeters(frame: 3) })
    #expect(frame.pose.position == SIMD3(3, 2, 3))
    #expect(frame.timestampSeconds == 100 + 3.0 / 30)
    #expect(try recording.frameInfo(at: 3).pose.position == SIMD3(5, 2, 3))
  }

  @Test func depthFileWithoutItsColourFileIsLeftOutAndNamed() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 3), depthFrames: [0, 1, 2],
      colorFrames: [0, 2])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(recording.fileNumbers == [0, 2] && recording.missingFileNumbers == [1])
    #expect(
      recording.description.notes.first
        == "1 pose without a colour file, left out: frame number 1 (no rgb/1.jpg)")
  }

  @Test func fewerPosesThanDepthFilesUsesThePoses() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 2), depthFrames: [0, 1, 2])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(recording.frameCount == 2)
    #expect(
      recording.description.notes == [
        "1 depth file numbered past the last of 2 poses (depth/2.exr on): ignored"
      ])
  }

  @Test func depthFileRemovedAfterOpeningIsNamedWithItsFrame() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 3), depthFrames: [0, 1, 2])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    try export.remove("depth/2.exr")
    #expect(throws: Record3DError(.missingDepthFile(frame: 2), path: export.file("depth/2.exr"))) {
      try recording.frame(at: 2)
    }
    try export.remove("rgb/1.jpg")
    #expect(throws: Record3DError(.missingColorFile(frame: 1), path: export.file("rgb/1.jpg"))) {
      try recording.frame(at: 1)
    }
    #expect(throws: Record3DError(.frameOutOfRange(index: 3, frameCount: 3), path: export.path)) {
      try recording.frame(at: 3)
    }
  }

  @Test func corruptDepthFileIsNamedWithItsFrame() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 2), depthFrames: [0, 1])
    defer { export.delete() }
    try Data("not an exr".utf8).write(to: URL(fileURLWithPath: export.file("depth/1.exr")))
    let recording = try Record3DEXRRecording(folder: export.path)
    let error = #expect(throws: Record3DError.self) { try recording.frame(at: 1) }
    #expect(error?.reason == .depth(frame: 1, .notEXR(byteCount: 10)))
    #expect(error?.description.hasPrefix("frame 1: not an OpenEXR file") == true)
    #expect(error?.path == export.file("depth/1.exr"))
  }

  @Test func exportWithoutColourHasFramesWithoutColour() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 1), depthFrames: [0], colorFrames: [])
    defer { export.delete() }
    let recording = try Record3DEXRRecording(folder: export.path)
    #expect(
      !recording.hasColor
        && recording.description.notes == ["no rgb/<n>.jpg files: frames have no colour"])
    #expect(try recording.frame(at: 0).color == nil)
  }

  @Test func folderWithoutMetadataIsNeitherDetectedNorOpened() throws {
    let export = try Record3DTestExport(
      metadata: Record3DTestExport.metadata(frameCount: 1), depthFrames: [0])
    defer { export.delete() }
    try export.remove("metadata.json")
    #expect(!Record3DEXRRecording.looksLike(folder: export.path))
    #expect(throws: Record3DError(.missingMetadata, path: export.file("metadata.json"))) {
      try Record3DEXRRecording(folder: export.path)
    }
    #expect(throws: Record3DError(.notAFolder, path: export.file("depth/0.exr"))) {
      try Record3DEXRRecording(folder: export.file("depth/0.exr"))
    }
  }
}
