import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// The folder above an export opens the one recording inside it, and lists several.
@Suite struct OneLevelUpDetectionTests {
  let source = SyntheticRecordingSource(
    options: SyntheticRecordingOptions(
      frameCount: 3, depthWidth: 32, depthHeight: 24, colorWidth: 64, colorHeight: 48))

  @Test func arkitScenesSceneFolderOpensItsFramesFolder() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let scene = root.appendingPathComponent("41069021")
    let frames = scene.appendingPathComponent("41069021_frames")
    try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
    try ARKitScenesWriter().write(source, to: frames.path)
    // A scene folder also holds the mesh and annotations beside the frames.
    try Data("ply\n".utf8).write(to: scene.appendingPathComponent("41069021_3dod_mesh.ply"))
    try FileManager.default.createDirectory(
      at: scene.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
    let resolved = try InputDetector.resolve(scene.path)
    #expect(resolved.path == frames.path && resolved.foundInside == scene.path)
    #expect(resolved.kind == .recording(format: ARKitScenesFormat.name))
    // A recording itself resolves to itself.
    #expect(try InputDetector.resolve(frames.path).foundInside == nil)
  }

  @Test func scannerAppFolderOpensAllData() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let allData = root.appendingPathComponent("All_Data")
    try FileManager.default.createDirectory(at: allData, withIntermediateDirectories: true)
    try ScannerAppWriter().write(source, to: allData.path)
    let resolved = try InputDetector.resolve(root.path)
    #expect(resolved.path == allData.path)
    #expect(resolved.kind == .recording(format: ScannerAppFormat.name))
  }

  @Test func folderWithSeveralRecordingsListsThem() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["b-scan", "a-scan"] {
      let folder = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try ScannerAppWriter().write(source, to: folder.path)
    }
    try R3DWriter().write(source, to: root.appendingPathComponent("capture.r3d").path)
    let error = #expect(throws: FileError.self) { try InputDetector.resolve(root.path) }
    #expect(
      error?.description
        == "unsupported input: a folder holding 3 recordings one level down, not one: "
        + "a-scan (\(ScannerAppFormat.name)), b-scan (\(ScannerAppFormat.name)), "
        + "capture.r3d (Record3D .r3d); give the one to open: \(root.path)")
  }

  @Test func folderWithNothingRecognisableKeepsTheListOfWhatWasLookedFor() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
    let error = #expect(throws: FileError.self) { try InputDetector.resolve(root.path) }
    #expect(error?.description.contains("looked for") == true)
  }
}
