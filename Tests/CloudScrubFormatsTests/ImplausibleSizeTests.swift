import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Headers that claim absurd sizes, and numbers that do not convert to integers, are
/// refused when a recording is opened, before anything is allocated from them.
@Suite struct ImplausibleSizeTests {
  let source = CaptureFixtures.synthetic(frames: 3)

  /// Every depth PNG under `folder` with its `IHDR` width and height replaced.
  func claimDepthSize(width: UInt32, height: UInt32, in folder: String) throws -> [String] {
    var patched: [String] = []
    let walker = FileManager.default.enumerator(atPath: folder)
    while let name = walker?.nextObject() as? String {
      guard name.hasSuffix(".png"), name.contains("depth") else { continue }
      let path = folder + "/" + name
      var bytes = try FileBytes.read(path)
      for (offset, value) in [(16, width), (20, height)] {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k)) }
      }
      try CaptureFixtures.write(bytes, to: path)
      patched.append(path)
    }
    return patched
  }

  func folder(writtenBy write: (String) throws -> Void) throws -> String {
    let folder = try CaptureFixtures.folder()
    try write(folder)
    return folder
  }

  func writers() -> [(String, (String) throws -> Void)] {
    [
      ("3D Scanner App", { try ScannerAppWriter().write(source, to: $0) }),
      ("Polycam", { try PolycamWriter().write(source, to: $0) }),
      ("ARKitScenes", { try ARKitScenesWriter().write(source, to: $0) }),
      ("Stray Scanner", { try StrayScannerWriter().write(source, to: $0) }),
    ]
  }

  @Test func depthPNGClaiming100000x100000IsRefusedInEveryFolderFormat() throws {
    for (name, write) in writers() {
      let folder = try folder(writtenBy: write)
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let patched = try claimDepthSize(width: 100_000, height: 100_000, in: folder)
      #expect(!patched.isEmpty, "\(name)")
      let error = #expect(throws: CaptureFolderError.self, "\(name)") {
        try InputDetector.openRecording(folder)
      }
      #expect(
        error?.reason
          == .badImage(
            message: "its header claims a depth map size 100000×100000 is outside 1…4096 "
              + "pixels a side"), "\(name)")
      #expect(patched.contains(error?.path ?? ""), "\(name)")
    }
  }

  @Test func depthPNGOfWidthZeroWithoutImagesIsRefused() throws {
    let folder = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try ScannerAppWriter().write(source, to: folder)
    for name in CaptureFolderFiles.names(in: folder) where name.hasSuffix(".jpg") {
      try FileManager.default.removeItem(atPath: folder + "/" + name)
    }
    _ = try claimDepthSize(width: 0, height: 48, in: folder)
    let error = #expect(throws: CaptureFolderError.self) { try ScannerAppRecording(folder: folder) }
    #expect(error?.description.contains("depth map size 0×48 is outside 1…4096") == true)
  }

  @Test func hugePrincipalPointWithoutImagesIsNamedNotTrapped() throws {
    let folder = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try ScannerAppWriter().write(source, to: folder)
    for name in CaptureFolderFiles.names(in: folder) where name.hasSuffix(".jpg") {
      try FileManager.default.removeItem(atPath: folder + "/" + name)
    }
    let path = folder + "/frame_00000.json"
    var json = try CaptureFixtures.jsonObject(path)
    var k = try #require(json["intrinsics"] as? [Double])
    k[2] = 1e300
    json["intrinsics"] = k
    try CaptureFixtures.writeJSON(json, to: path)
    let error = #expect(throws: CaptureFolderError.self) { try ScannerAppRecording(folder: folder) }
    #expect(
      error?.reason == .badValue(key: "intrinsics", expected: "a cx of at most 8192 (is 1e+300)"))
    #expect(error?.path == path)
  }

  @Test func strayCameraMatrixWithHugeCxAndNoVideoIsNamed() throws {
    let folder = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try StrayScannerWriter().write(source, to: folder)
    try? FileManager.default.removeItem(atPath: folder + "/rgb.mp4")
    let matrix = folder + "/camera_matrix.csv"
    try CaptureFixtures.write(Array("100,0,1e300\n0,100,24\n0,0,1\n".utf8), to: matrix)
    let error = #expect(throws: CaptureFolderError.self) {
      try StrayScannerRecording(folder: folder)
    }
    #expect(error?.path == matrix)
    #expect(error?.description.contains("cx of at most 8192") == true)
  }

  @Test func guessedColourSizeIsNilForUnusableNumbers() {
    #expect(
      ScannerAppRecording.guessedColorSize(cx: 960, depthWidth: 256, depthHeight: 192)! == (
        1920, 1440
      ))
    #expect(
      ScannerAppRecording.guessedColorSize(cx: .nan, depthWidth: 256, depthHeight: 192) == nil)
    #expect(
      ScannerAppRecording.guessedColorSize(cx: .infinity, depthWidth: 256, depthHeight: 192) == nil)
    #expect(
      ScannerAppRecording.guessedColorSize(cx: 1e300, depthWidth: 256, depthHeight: 192) == nil)
    #expect(ScannerAppRecording.guessedColorSize(cx: 100, depthWidth: 0, depthHeight: 192) == nil)
  }

  // MARK: - Record3D metadata

  func metadata(_ extra: String, size: String = #""w": 320, "h": 240"#) -> [UInt8] {
    Array(
      (#"{"# + size + #", "K": [100,0,0,0,100,0,160,120,1], "fps": 30, "#
        + #""poses": [[0,0,0,1,0,0,0]]"# + extra + "}").utf8)
  }

  @Test func hugeCameraTypeIsAnErrorNotATrap() throws {
    #expect(try Record3DMetadata(json: metadata(#", "cameraType": 1"#), path: "m").cameraType == 1)
    #expect(
      throws: Record3DError(.badValue(key: "cameraType", expected: "a whole number"), path: "m")
    ) { try Record3DMetadata(json: metadata(#", "cameraType": 1e21"#), path: "m") }
  }

  @Test func aPoseWithoutARotationIsAnErrorNotTheIdentity() throws {
    // A zero quaternion, or one whose squared length overflows, normalises to nothing:
    // such a pose used to become the identity and put its frame at the origin.
    for row in ["[0,0,0,0,1,2,3]", "[1e200,0,0,0,1,2,3]"] {
      let json = Array(
        (#"{"w": 320, "h": 240, "K": [100,0,0,0,100,0,160,120,1], "fps": 30, "#
          + #""poses": [[0,0,0,1,0,0,0], "# + row + "]}").utf8)
      let error = #expect(throws: Record3DError.self) {
        try Record3DMetadata(json: json, path: "m")
      }
      #expect(error?.description.contains("key 'poses'") == true)
      #expect(error?.description.contains("(row 1: ") == true, "\(String(describing: error))")
    }
    let initial = #expect(throws: Record3DError.self) {
      try Record3DMetadata(json: metadata(#", "initPose": [0,0,0,0,0,0,0]"#), path: "m")
    }
    #expect(initial?.description.contains("key 'initPose'") == true)
    // A quaternion of any other length is normalised, as before.
    let scaled = try Record3DMetadata(
      json: metadata(#", "initPose": [0,0,0,2,0,0,0]"#), path: "m")
    #expect(scaled.initialWorldFromCamera == .identity)
  }

  @Test func implausibleDepthOrColourSizeInMetadataIsRefused() throws {
    let depth = #expect(throws: Record3DError.self) {
      try Record3DMetadata(json: metadata(#", "dw": 100000, "dh": 100000"#), path: "m")
    }
    #expect(depth?.description.contains("key 'dw'") == true)
    #expect(depth?.description.contains("100000×100000 is outside 1…4096") == true)
    let color = #expect(throws: Record3DError.self) {
      try Record3DMetadata(
        json: metadata("", size: #""w": 2000000000, "h": 2000000000"#), path: "m")
    }
    #expect(color?.description.contains("key 'w'") == true)
  }

  @Test func numberTooLargeForADoubleInAPoseIsNamed() throws {
    let json = Array(
      (#"{"w": 320, "h": 240, "K": [100,0,0,0,100,0,160,120,1], "fps": 30, "#
        + #""poses": [[0,0,0,1,0,0,1e999]]}"#).utf8)
    let error = #expect(throws: Record3DError.self) { try Record3DMetadata(json: json, path: "m") }
    guard case .badValue(let key, _) = error?.reason else {
      // JSONSerialization may refuse the literal itself: an error either way, never inf.
      #expect(error != nil)
      return
    }
    #expect(key == "poses")
  }

  @Test func r3dWithHugeDepthSizeIsRefusedWhenOpened() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let entries = try fixture.entries().map { entry -> (String, [UInt8]) in
      guard entry.0 == "metadata" else { return entry }
      var json = try #require(
        try JSONSerialization.jsonObject(with: Data(entry.1)) as? [String: Any])
      json["dw"] = 100_000
      json["dh"] = 100_000
      return (entry.0, Array(try JSONSerialization.data(withJSONObject: json)))
    }
    let path = try fixture.writeZip("huge.r3d", entries: entries)
    let error = #expect(throws: R3DError.self) { try R3DRecording(path: path) }
    #expect(error?.description.contains("100000×100000") == true)
    #expect(error?.path == path)
  }
}
