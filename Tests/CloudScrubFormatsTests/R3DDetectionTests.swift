import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// `.r3d` files are found by content, whatever their name, and `info` names them.
@Suite struct R3DDetectionTests {
  @Test func renamedR3DIsStillDetectedAndOpened() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let written = try fixture.write()
    let renamed = fixture.file("capture.bin")
    try FileManager.default.moveItem(atPath: written, toPath: renamed)
    #expect(try InputDetector.kind(of: renamed) == .recording(format: "Record3D .r3d"))
    let source = try InputDetector.openRecording(renamed)
    #expect(source is R3DRecording)
    #expect(source.frameCount == 5)
    #expect(source.description.format == "Record3D .r3d")
  }

  @Test func zipWithoutMetadataOrFramesIsNotARecording() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let plain = try fixture.writeZip("plain.zip", entries: [("hello.txt", Array("hi".utf8))])
    #expect(!R3DFormat.recognizes(path: plain, isFolder: false, prefix: [0x50, 0x4B, 0x03, 0x04]))
    #expect(throws: FileError.self) { try InputDetector.kind(of: plain) }

    // An archive with `metadata` alone is a .r3d without frames: recognised, so that
    // opening it says so (see R3DUnzippedAndMetadataOnlyTests).
    let onlyMetadata = try fixture.writeZip(
      "metadata-only.zip", entries: [("metadata", Array("{}".utf8))])
    #expect(
      R3DFormat.recognizes(path: onlyMetadata, isFolder: false, prefix: [0x50, 0x4B, 0x03, 0x04]))
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CommandRunner.binary.path)))
  func infoThroughTheRealBinaryNamesTheFormat() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let path = try fixture.write()
    let result = try CommandRunner.run(["info", path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Record3D .r3d"))
    #expect(result.standardOutput.contains("Record3D"))
  }
}
