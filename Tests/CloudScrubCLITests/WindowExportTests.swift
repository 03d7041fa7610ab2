import CloudScrubApp
import CloudScrubCore
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// The window's export writes the same bytes as `cloudscrub export` with the same
/// settings: the window's shown frames and minimum confidence map to `--frames` and
/// `--min-confidence`.
@Suite struct WindowExportTests {
  /// Opens `path` as the window does and waits for every frame.
  static func openAndLoad(_ path: String) throws -> (ViewerDocument, ViewerContent) {
    let document = try DocumentOpener().open(path)
    var content = ViewerContent()
    _ = content.absorb(try #require(document.load.takeUntilStopped(timeout: 120)))
    return (document, content)
  }

  @Test func windowExportOfShownFramesMatchesCommandLineBytes() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(
      try CommandRunner.run(["synth", recording, "--frames", "6", "--noise", "0.002"]).status == 0)
    let fromCommandLine = folder.appendingPathComponent("cli.ply").path
    let result = try CommandRunner.run([
      "export", recording, "-o", fromCommandLine, "--frames", "1-4", "--min-confidence", "medium",
    ])
    #expect(result.status == 0, "\(result.standardError)")

    let (document, content) = try Self.openAndLoad(recording)
    #expect(content.frameCount == 6)
    let fromWindow = folder.appendingPathComponent("window.ply").path
    let line = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 1...4, minConfidence: .medium,
        outputPath: fromWindow))
    #expect(line.contains("frames 1–4"))
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    let b = try Data(contentsOf: URL(fileURLWithPath: fromWindow))
    #expect(a.count > 10_000)
    #expect(a == b)
  }

  @Test func windowExportWithCleaningMatchesCommandLineBytes() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(
      try CommandRunner.run(["synth", recording, "--frames", "4", "--noise", "0.002"]).status == 0)
    let fromCommandLine = folder.appendingPathComponent("cli.ply").path
    let result = try CommandRunner.run([
      "export", recording, "-o", fromCommandLine, "--frames", "0-3", "--crop", "-3,0.05,-3,3,3,3",
      "--voxel", "0.03", "--sor", "10,2", "--normals",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let (document, content) = try Self.openAndLoad(recording)
    let fromWindow = folder.appendingPathComponent("window.ply").path
    let cleaning = CleaningOptions(
      crop: CropBox(min: Point3(-3, 0.05, -3), max: Point3(3, 3, 3)), voxelSizeMeters: 0.03,
      statistical: StatisticalOutlierOptions(neighbours: 10, stdRatio: 2), normalNeighbours: 20)
    _ = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...3, minConfidence: .low,
        cleaning: cleaning,
        outputPath: fromWindow))
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    #expect(a.count > 1_000)
    #expect(try a == Data(contentsOf: URL(fileURLWithPath: fromWindow)))
  }

  @Test func windowExportOfAPLYMatchesCommandLineBytes() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fromCommandLine = folder.appendingPathComponent("cli.ply").path
    #expect(
      try CommandRunner.run(["export", "Assets/sample.ply", "-o", fromCommandLine]).status == 0)
    let (document, content) = try Self.openAndLoad(TestData.samplePLY)
    let fromWindow = folder.appendingPathComponent("window.ply").path
    _ = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...0, minConfidence: .low,
        outputPath: fromWindow))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
        == Data(contentsOf: URL(fileURLWithPath: fromWindow)))
  }

  @Test func windowExportNeverOverwritesItsInput() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("tiny.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "2"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: recording))
    let (document, content) = try Self.openAndLoad(recording)
    #expect(throws: (any Error).self) {
      try DocumentOpener().export(
        WindowExportRequest(
          document: document, content: content, visibleFrames: 0...1, minConfidence: .low,
          outputPath: recording))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: recording)) == before)
  }

  @Test func openingABadFileGivesAnErrorNamingIt() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("bad.ply").path
    try Data(
      "ply\nformat binary_little_endian 1.0\nelement vertex 1000000\nproperty float x\nend_header\n"
        .utf8
    )
    .write(to: URL(fileURLWithPath: bad))
    do {
      _ = try DocumentOpener().open(bad)
      Issue.record("a truncated PLY opened")
    } catch {
      #expect("\(error)".contains(bad))
    }
  }
}
