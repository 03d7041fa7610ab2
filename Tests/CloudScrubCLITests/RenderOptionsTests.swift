import CloudScrubApp
import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// `render` and `view` load what `export` loads for the same recording and cleaning
/// options: the point counts of `export`'s file, worked out by a separate path.
@Suite struct RenderOptionsTests {
  /// A four-frame synthetic recording in a new folder.
  func recording() throws -> (folder: URL, path: String) {
    let folder = try TestData.makeTemporaryDirectory()
    let path = folder.appendingPathComponent("four.csrec").path
    let synth = try CommandRunner.run(["synth", path, "--frames", "4"])
    #expect(synth.status == 0, "\(synth.standardError)")
    return (folder, path)
  }

  func exportedCount(_ path: String, _ options: [String], in folder: URL) throws -> Int {
    let output = folder.appendingPathComponent("export-\(options.count).ply").path
    let export = try CommandRunner.run(["export", path, "-o", output] + options)
    #expect(export.status == 0, "\(export.standardError)")
    return try PLYReader.read(path: output).cloud.count
  }

  func rendered(_ path: String, _ options: [String]) throws -> ViewerContent {
    let parsed = try ParsedArguments([path, "-o", "x.png"] + options, command: RenderCommand.spec)
    return try RenderRequest.load(path, choices: RenderRequest(parsed).load).0
  }

  @Test func depthRangeAndCleaningTakeEffectInRenderAsInExport() throws {
    let (folder, path) = try recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    let all = try rendered(path, ["--frames", "1-3"])
    let ranged = ["--frames", "1-3", "--depth-range", "0.2-1.5", "--stride", "2"]
    let near = try rendered(path, ranged)
    #expect(near.store.count == (try exportedCount(path, ranged, in: folder)))
    #expect(near.store.count > 0 && near.store.count < all.store.count / 4)
    #expect(near.frameIndices == [1, 2, 3])

    let cleaned = ["--frames", "1-3", "--voxel", "0.05", "--min-confidence", "high"]
    let merged = try rendered(path, cleaned)
    #expect(merged.store.count == (try exportedCount(path, cleaned, in: folder)))
    #expect(merged.store.count > 0 && merged.store.count < all.store.count)
    // Split back into its frames, each with its capture camera.
    #expect(merged.frameIndices == [1, 2, 3])
    #expect(merged.frameInfos.allSatisfy { $0 != nil })
  }

  @Test func theRenderedPictureChangesWithTheDepthRange() throws {
    let (folder, path) = try recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    var pictures: [Data] = []
    for (name, options) in [("all", []), ("near", ["--depth-range", "0.2-1.0"])] {
      let picture = folder.appendingPathComponent("\(name).png").path
      let result = try CommandRunner.run(
        ["render", path, "-o", picture, "--size", "96x64", "--renderer", "cpu"] + options)
      #expect(result.status == 0, "\(result.standardError)")
      pictures.append(try Data(contentsOf: URL(fileURLWithPath: picture)))
    }
    #expect(pictures.count == 2 && pictures[0] != pictures[1])
  }

  @Test func viewLoadsTheRecordingOptions() throws {
    let (folder, path) = try recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ["--frames", "0-2", "--depth-range", "0.2-1.5", "--skip-untracked"]
    let parsed = try ParsedArguments([path] + options, command: ViewCommand.spec)
    var opener = DocumentOpener()
    opener.choices = try LoadChoices(parsed, readsMerge: false)
    opener.choicesPath = path
    let document = try opener.open(path)
    #expect(document.load.waitUntilStopped(timeout: 120))
    let frames = document.load.take()
    #expect(frames.map(\.frameIndex) == [0, 1, 2])
    let count = frames.map(\.points.count).reduce(0, +)
    #expect(count == (try exportedCount(path, options, in: folder)))

    // The window's export of those frames writes them and says how they were loaded.
    var content = ViewerContent()
    _ = content.absorb(frames)
    let shown = folder.appendingPathComponent("shown.ply").path
    _ = try opener.export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...2, minConfidence: .low,
        outputPath: shown))
    let written = try PLYReader.read(path: shown)
    #expect(written.cloud.count == count)
    #expect(
      written.header.comments.contains { $0.contains("depth range 0.2-1.5 m") },
      "\(written.header.comments)")
  }

  @Test func recordingOptionsOnAPLYAreANoteAndCleaningApplies() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ply = folder.appendingPathComponent("room.ply").path
    #expect(try CommandRunner.run(["synth", ply, "--points", "5000"]).status == 0)
    let picture = folder.appendingPathComponent("room.png").path
    let result = try CommandRunner.run(
      ["render", ply, "-o", picture, "--size", "64x48", "--stride", "2", "--voxel", "0.1"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("recording options do not apply to a PLY input"))
    let voxel = try rendered(ply, ["--voxel", "0.1"])
    #expect(voxel.store.count == (try exportedCount(ply, ["--voxel", "0.1"], in: folder)))
    #expect(voxel.store.count < 5000)
  }
}

/// On a real capture, each recording and cleaning option changes what `render` loads,
/// and to exactly the points `export` writes with it.
@Suite(.enabled(if: TestData.sharedData != nil, "needs ../shared/data"))
struct RealRenderOptionsTests {
  static let optionSets: [[String]] = [
    ["--every", "2"], ["--stride", "3"], ["--flying-pixels", "off"],
    ["--depth-range", "0.2-1.0"], ["--height-band", "-0.5-0.5"],
    ["--crop", "-1,-1,-2,1,1,0"], ["--voxel", "0.02"], ["--radius-outlier", "0.05,5"],
    ["--merge", "0.01"],
  ]

  @Test(arguments: optionSets)
  func renderLoadsWhatExportWrites(_ options: [String]) throws {
    let capture = try #require(TestData.shared("record3d-exr-desk"))
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tests = RenderOptionsTests()
    let frames = ["--frames", "0-5"]
    let plain = try tests.rendered(capture, frames)
    let chosen = try tests.rendered(capture, frames + options)
    #expect(chosen.store.count == (try tests.exportedCount(capture, frames + options, in: folder)))
    #expect(chosen.store.count > 0 && chosen.store.count != plain.store.count)
    #expect(chosen.frameIndices == (options == ["--every", "2"] ? [0, 2, 4] : Array(0...5)))
  }

  /// The Record3D EXR export has no confidence maps; the Stray export has.
  @Test func minConfidenceOnACaptureWithConfidence() throws {
    let capture = try #require(TestData.shared("stray-scanner-room"))
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tests = RenderOptionsTests()
    let options = ["--frames", "40-45", "--min-confidence", "high"]
    let plain = try tests.rendered(capture, ["--frames", "40-45"])
    let high = try tests.rendered(capture, options)
    #expect(high.store.count == (try tests.exportedCount(capture, options, in: folder)))
    #expect(high.store.count > 0 && high.store.count < plain.store.count)
  }
}
