import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Every format says which world axis is up: ARKitScenes +z, the ARKit apps +y.
@Suite struct WorldUpOfEveryFormatTests {
  let source = SyntheticRecordingSource(
    options: SyntheticRecordingOptions(
      frameCount: 2, depthWidth: 32, depthHeight: 24, colorWidth: 64, colorHeight: 48))

  @Test func eachWritersLayoutOpensWithItsFormatsUpAxis() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    func folder(_ name: String) throws -> String {
      let url = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      return url.path
    }
    let arkit = try folder("arkitscenes")
    try ARKitScenesWriter().write(source, to: arkit)
    let scanner = try folder("scanner")
    try ScannerAppWriter().write(source, to: scanner)
    let polycam = try folder("polycam")
    try PolycamWriter().write(source, to: polycam)
    let stray = try folder("stray")
    try StrayScannerWriter().write(source, to: stray)
    let nerfstudio = try folder("nerfstudio")
    try NerfstudioWriter().write(source, to: nerfstudio)
    let r3d = root.appendingPathComponent("capture.r3d").path
    try R3DWriter().write(source, to: r3d)
    let expected: [(String, WorldUp)] = [
      (arkit, .z), (scanner, .y), (polycam, .y), (stray, .y), (r3d, .y),
      (nerfstudio, .y),
    ]
    for (path, up) in expected {
      #expect(try InputDetector.openRecording(path).description.worldUp == up, "\(path)")
    }
  }

  @Test(.enabled(if: TestData.sharedData != nil))
  func realExportsAreYUp() throws {
    for name in ["record3d-exr-desk", "record3d-exr-door-gaps", "stray-scanner-room"] {
      let path = try #require(TestData.shared(name))
      #expect(try InputDetector.openRecording(path).description.worldUp == .y, "\(name)")
    }
  }
}

/// The real Stray export starts with frames recorded before tracking started.
@Suite(.enabled(if: TestData.sharedData != nil))
struct UntrackedFramesRealDataTests {
  @Test func strayRoomStartsWith39FramesAtExactlyTheOrigin() throws {
    let path = try #require(TestData.shared("stray-scanner-room"))
    let source = try InputDetector.openRecording(path)
    // odometry.csv rows 000000…000038 have x, y, z = 0.0; row 000039 has x = 1.8626451e-09.
    #expect(try TrackingStart.untrackedFrameCount(of: source) == 39)
    #expect(try source.frameInfo(at: 38).pose.position == .zero)
    #expect(try source.frameInfo(at: 39).pose.position.x == 1.8626451e-09)
    for name in ["record3d-exr-desk", "record3d-exr-door-gaps"] {
      let other = try InputDetector.openRecording(try #require(TestData.shared(name)))
      #expect(try TrackingStart.untrackedFrameCount(of: other) == 0, "\(name)")
    }
  }
}
