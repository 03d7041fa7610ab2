import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Broken and hostile `.r3d` archives throw an error naming the entry and the file,
/// crash nothing and write nothing to disk.
@Suite struct R3DMalformedArchiveTests {
  /// The valid entries of a 5-frame LiDAR capture, to alter.
  let fixture: R3DTestFixture
  let entries: [(String, [UInt8])]

  /// Rendered once for every test: the synthetic frames are what takes time.
  static let validEntries: [(String, [UInt8])]? = {
    guard let fixture = try? R3DTestFixture() else { return nil }
    defer { fixture.delete() }
    return try? fixture.entries()
  }()

  init() throws {
    fixture = try R3DTestFixture()
    entries = try #require(Self.validEntries)
  }

  func replacing(_ name: String, with bytes: [UInt8]?) -> [(String, [UInt8])] {
    entries.compactMap { entry in
      guard entry.0 == name else { return entry }
      return bytes.map { (name, $0) }
    }
  }

  /// The folder's files, to show that reading extracted nothing.
  func folderListing() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).sorted()
  }

  @Test func entryClaimingAHugeSizeIsRefusedBeforeReading() throws {
    defer { fixture.delete() }
    let path = try fixture.writeZip("huge.r3d", entries: entries)
    try ZipPatch.claimSize(0x7FFF_FFF0, entry: "rgbd/1.depth", in: path)
    let recording = try R3DRecording(path: path)
    #expect(try recording.frame(at: 0).depth.width == 256)
    let expected = R3DError(
      .entryTooLarge(entry: "rgbd/1.depth", declaredBytes: 0x7FFF_FFF0, limitBytes: 64 << 20),
      path: path)
    #expect(throws: expected) { try recording.frame(at: 1) }
    #expect("\(expected)".hasSuffix(": \(path)"))

    let hugeMetadata = try fixture.writeZip("huge-metadata.r3d", entries: entries)
    try ZipPatch.claimSize(0x7FFF_FFF0, entry: "metadata", in: hugeMetadata)
    #expect(
      throws: R3DError(
        .entryTooLarge(entry: "metadata", declaredBytes: 0x7FFF_FFF0, limitBytes: 16 << 20),
        path: hugeMetadata)
    ) { try R3DRecording(path: hugeMetadata) }
  }

  @Test func entryNamesClimbingOutOfTheArchiveAreRefused() throws {
    defer { fixture.delete() }
    for name in ["../evil.txt", "rgbd/../../evil.txt", "/etc/evil"] {
      let path = try fixture.writeZip(
        "climb-\(abs(name.hashValue)).r3d", entries: entries + [(name, Array("x".utf8))])
      let before = try folderListing()
      #expect(throws: R3DError(.unsafeEntryName(name), path: path)) {
        try R3DRecording(path: path)
      }
      #expect(try folderListing() == before)
    }
    #expect(R3DArchive.isUnsafe("C:evil") && R3DArchive.isUnsafe("rgbd\\..\\x"))
    #expect(!R3DArchive.isUnsafe("rgbd/0.depth") && !R3DArchive.isUnsafe("rgbd/..depth"))
  }

  @Test func missingMetadataOrEveryDepthIsNamed() throws {
    defer { fixture.delete() }
    let noMetadata = try fixture.writeZip(
      "no-metadata.r3d", entries: replacing("metadata", with: nil))
    #expect(throws: R3DError(.missingEntry("metadata"), path: noMetadata)) {
      try R3DRecording(path: noMetadata)
    }
    let noDepth = try fixture.writeZip(
      "no-depth.r3d", entries: entries.filter { !$0.0.hasSuffix(".depth") })
    #expect(throws: R3DError(.missingEntry("rgbd/0.depth"), path: noDepth)) {
      try R3DRecording(path: noDepth)
    }
    // Without its first depth entry, the rest still opens.
    let noFirst = try fixture.writeZip(
      "no-first-depth.r3d", entries: replacing("rgbd/0.depth", with: nil))
    #expect(try R3DRecording(path: noFirst).fileNumbers == [1, 2, 3, 4])
  }

  @Test func missingDepthOfAMiddleFrameLeavesOutOnlyThatFrame() throws {
    defer { fixture.delete() }
    let path = try fixture.writeZip("gap.r3d", entries: replacing("rgbd/2.depth", with: nil))
    let recording = try R3DRecording(path: path)
    #expect(recording.frameCount == 4)
    #expect(recording.fileNumbers == [0, 1, 3, 4] && recording.missingFileNumbers == [2])
    #expect(
      recording.description.notes.contains(
        "1 pose without a depth file, left out: frame number 2 (no rgbd/2.depth)"))
    // Frame 2 is entry 3: the same as the source's frame 3.
    let frame = try recording.frame(at: 2)
    let expected = try fixture.source.frame(at: 3)
    #expect(frame.timestampSeconds == expected.timestampSeconds)
    #expect(frame.depth.height == 192)
  }

  @Test func corruptLZFSEStreamNamesTheEntry() throws {
    defer { fixture.delete() }
    let garbage = Array("bvx2".utf8) + [UInt8](repeating: 0xA5, count: 300)
    let path = try fixture.writeZip(
      "corrupt.r3d", entries: replacing("rgbd/1.depth", with: garbage))
    let recording = try R3DRecording(path: path)
    let error = #expect(throws: R3DError.self) { try recording.frame(at: 1) }
    guard case .lzfse(let entry, _) = error?.reason else {
      Issue.record("expected an LZFSE error, got \(String(describing: error))")
      return
    }
    #expect(entry == "rgbd/1.depth")
    #expect(error?.path == path)

    let truncatedConfidence = entries.first { $0.0 == "rgbd/1.conf" }?.1.dropLast(4)
    let cut = try fixture.writeZip(
      "cut.r3d", entries: replacing("rgbd/1.conf", with: Array(try #require(truncatedConfidence))))
    let cutError = #expect(throws: R3DError.self) { try R3DRecording(path: cut).frame(at: 1) }
    guard case .lzfse(let cutEntry, _) = cutError?.reason else {
      Issue.record("expected an LZFSE error, got \(String(describing: cutError))")
      return
    }
    #expect(cutEntry == "rgbd/1.conf")
  }

  @Test func depthOfTheWrongSizeIsRefused() throws {
    defer { fixture.delete() }
    let short = R3DArchiveWriter.lzfseStored([UInt8](repeating: 0, count: 400))
    let path = try fixture.writeZip("short.r3d", entries: replacing("rgbd/3.depth", with: short))
    #expect(
      throws: R3DError(
        .mapSizeMismatch(entry: "rgbd/3.depth", expectedBytes: 256 * 192 * 4, actualBytes: 400),
        path: path)
    ) { try R3DRecording(path: path).frame(at: 3) }

    // An old file (no dw/dh) whose first depth fits no known size.
    let old = try fixture.entries(options: R3DWriter.Options(writesDepthSize: false))
    let odd = R3DArchiveWriter.lzfseStored([UInt8](repeating: 0, count: 1000))
    let oldPath = try fixture.writeZip(
      "old-odd.r3d", entries: old.map { $0.0 == "rgbd/0.depth" ? ($0.0, odd) : $0 })
    #expect(throws: R3DError(.unknownDepthSize(bytes: 1000), path: oldPath)) {
      try R3DRecording(path: oldPath)
    }
  }

  @Test func malformedMetadataNamesTheKey() throws {
    defer { fixture.delete() }
    let json = Array(#"{"w": 320, "h": 240, "fps": 30, "poses": [[0,0,0,1,0,0,0]]}"#.utf8)
    let path = try fixture.writeZip("no-k.r3d", entries: replacing("metadata", with: json))
    let expected = R3DError(.metadata(.missingKey("K")), path: path)
    #expect(throws: expected) { try R3DRecording(path: path) }
    #expect("\(expected)" == "entry 'metadata': metadata has no 'K' key: \(path)")
  }

  @Test func fileThatIsNoZipIsRefused() throws {
    defer { fixture.delete() }
    let path = fixture.file("noise.r3d")
    try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 200)).write(
      to: URL(fileURLWithPath: path))
    let error = #expect(throws: R3DError.self) { try R3DRecording(path: path) }
    guard case .notAZipArchive = error?.reason else {
      Issue.record("expected notAZipArchive, got \(String(describing: error))")
      return
    }
    #expect(!R3DFormat.recognizes(path: path, isFolder: false, prefix: [0x50, 0x4B, 0x03, 0x04]))
  }
}
