import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// An unzipped `.r3d` folder opens like the archive; a `.r3d` holding only `metadata`
/// says exactly that.
@Suite struct R3DUnzippedAndMetadataOnlyTests {
  /// Writes the fixture's archive entries as files under `folder`.
  func unzip(_ entries: [(String, [UInt8])], into folder: URL) throws {
    for (name, bytes) in entries {
      let file = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: file)
    }
  }

  @Test func unzippedFolderOpensLikeTheArchive() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let archivePath = try fixture.write()
    let folder = fixture.folder.appendingPathComponent("capture")
    try unzip(try fixture.entries(), into: folder)
    #expect(try InputDetector.kind(of: folder.path) == .recording(format: "Record3D .r3d"))
    let unzipped = try #require(try InputDetector.openRecording(folder.path) as? R3DRecording)
    let archive = try R3DRecording(path: archivePath)
    #expect(unzipped.isUnzippedFolder && !archive.isUnzippedFolder)
    #expect(unzipped.frameCount == 5 && unzipped.description == archive.description)
    for index in 0..<5 {
      let same = try unzipped.frame(at: index) == archive.frame(at: index)
      #expect(same, "frame \(index)")
    }
  }

  @Test func unzippedFolderWithAMissingFileNamesIt() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let folder = fixture.folder.appendingPathComponent("capture")
    try unzip(try fixture.entries(), into: folder)
    let recording = try R3DRecording(path: folder.path)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("rgbd/3.conf"))
    let reopened = try R3DRecording(path: folder.path)
    #expect(throws: R3DError(.missingFile("rgbd/3.conf"), path: folder.path)) {
      try reopened.frame(at: 3)
    }
    #expect(try recording.frame(at: 2).confidence != nil)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("metadata"))
    #expect(!R3DFolder.looksLike(folder: folder.path))
  }

  @Test(.enabled(if: TestData.sharedData != nil))
  func realMetadataOnlyFileSaysItHoldsNoFrames() throws {
    let path = try #require(TestData.shared("r3d-metadata-only/data.r3d"))
    #expect(try InputDetector.kind(of: path) == .recording(format: "Record3D .r3d"))
    let error = #expect(throws: R3DError.self) { try R3DRecording(path: path) }
    #expect(error?.reason == .metadataOnly(poseCount: 49))
    #expect(
      error?.description.hasPrefix("this .r3d holds only 'metadata' (49 poses) and no frames")
        == true)
    #expect(error?.description.hasSuffix(": \(path)") == true)
    // What the metadata says (checked with Python's zipfile and json).
    let metadata = try R3DRecording.readMetadata(path: path)
    #expect(metadata.colorWidth == 720 && metadata.colorHeight == 960)
    #expect(metadata.framesPerSecond == 60 && metadata.worldFromCameraPoses.count == 49)
    #expect(!metadata.hasDepthSize && metadata.cameraType == nil)
    #expect(metadata.frameTimestampsSeconds.isEmpty)
  }
}
