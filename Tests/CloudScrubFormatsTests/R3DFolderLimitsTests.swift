import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// An unzipped `.r3d`'s files are held to the archive's size limits, by their real size,
/// before any byte of them is read.
@Suite struct R3DFolderLimitsTests {
  /// The fixture's archive unzipped into a folder beside it.
  func unzipped(_ fixture: R3DTestFixture) throws -> URL {
    let folder = fixture.folder.appendingPathComponent("capture")
    for (name, bytes) in try fixture.entries() {
      let file = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: file)
    }
    return folder
  }

  @Test func aFrameFileOverTheLimitIsRefusedUnread() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let folder = try unzipped(fixture)
    // A sparse gigabyte: mapping it takes no memory, reading it would.
    let depth = folder.appendingPathComponent("rgbd/1.depth").path
    #expect(truncate(depth, 1 << 30) == 0)
    let recording = try R3DRecording(path: folder.path)
    #expect(
      throws: R3DError(
        .entryTooLarge(
          entry: "rgbd/1.depth", declaredBytes: 1 << 30,
          limitBytes: R3DRecording.frameEntryLimitBytes), path: folder.path)
    ) {
      try recording.frame(at: 1)
    }
    #expect(try recording.frame(at: 0).depth.width > 0)
  }

  @Test func metadataOverItsLimitIsRefusedUnread() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let folder = try unzipped(fixture)
    #expect(truncate(folder.appendingPathComponent("metadata").path, 1 << 30) == 0)
    #expect(
      throws: R3DError(
        .entryTooLarge(
          entry: "metadata", declaredBytes: 1 << 30, limitBytes: R3DRecording.metadataLimitBytes),
        path: folder.path)
    ) {
      try R3DRecording(path: folder.path)
    }
  }
}
