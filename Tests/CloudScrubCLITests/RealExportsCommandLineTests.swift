import CloudScrubApp
import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// The real `cloudscrub` binary on the real exports in `../shared/data`.
@Suite(.enabled(if: TestData.sharedData != nil))
struct RealExportsCommandLineTests {
  let data: URL

  init() throws { data = try #require(TestData.sharedData) }

  @Test func infoOfTheExportWithGapsCountsEveryFrameAndNamesTheMissing() throws {
    let result = try CommandRunner.run(["info", "--json", "record3d-exr-door-gaps"], in: data)
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["frames"] as? Int == 341)
    let notes = try #require(object["notes"] as? [String])
    #expect(notes.contains { $0.contains("frame numbers 60, 234, 262, 302") })
  }

  @Test func infoOfAMetadataOnlyR3DPrintsTheMetadataAndSaysThereAreNoFrames() throws {
    let result = try CommandRunner.run(["info", "r3d-metadata-only/data.r3d"], in: data)
    #expect(result.status == 0, "\(result.standardError)")
    let text = result.standardOutput
    #expect(text.contains("format      Record3D .r3d (metadata only) (Record3D)"), "\(text)")
    #expect(text.contains("frames      0"))
    #expect(text.contains("duration    0.800 s at 60.00 fps"))  // 49 poses at 60 fps
    #expect(text.contains("colour      720×960"))
    #expect(text.contains("fx 726.64 fy 726.64 cx 361.33 cy 483.84 (for 720×960, frame 0)"))
    #expect(text.contains("this .r3d holds only 'metadata' (49 poses) and no frames"))
  }

  @Test func exportOfAMetadataOnlyR3DIsABadInputSayingSo() throws {
    let result = try CommandRunner.run(
      ["export", "r3d-metadata-only/data.r3d", "-o", "/tmp/never-written.ply"], in: data)
    #expect(result.status == 1)
    #expect(
      result.standardError.contains("this .r3d holds only 'metadata' (49 poses) and no frames"),
      "\(result.standardError)")
    #expect(result.standardError.hasSuffix("r3d-metadata-only/data.r3d\n"))
  }
}

/// Range flags through the real binary: negative numbers and the `MIN,MAX` form.
@Suite struct RangeFlagCommandLineTests {
  /// Points of the sample PLY whose y is in `band`, counted here from the file.
  func sampleCount(heightBand band: ClosedRange<Float>) throws -> Int {
    let cloud = try PLYReader.read(path: TestData.samplePLY).cloud
    return cloud.positions.filter { band.contains($0.y) }.count
  }

  func keptByDryRun(_ arguments: [String]) throws -> Int? {
    let result = try CommandRunner.run(
      ["export", "Assets/sample.ply", "-o", "/tmp/unused.ply", "--dry-run"] + arguments)
    #expect(result.status == 0, "\(result.standardError)")
    let crop = result.standardOutput.split(separator: "\n").first { $0.hasPrefix("crop") }
    return crop.flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }
  }

  @Test(arguments: [
    ("-1.5-0.8", Float(-1.5)...0.8), ("-1-3", -1...3), ("-1,3", -1...3), ("1-3", 1...3),
    ("-1--0.5", -1...(-0.5)), ("0.5,1", 0.5...1),
  ])
  func heightBandTakesNegativeNumbersAndCommas(text: String, band: ClosedRange<Float>) throws {
    let kept = try keptByDryRun(["--height-band", text])
    #expect(kept == (try sampleCount(heightBand: band)))
  }

  @Test func heightBandOfMinusOneToThreeKeepsTheFloorAtZero() throws {
    // The sample's floor is at y = 0: -1-3 keeps it, 1-3 (the old misreading) does not.
    let all = try sampleCount(heightBand: -1...3)
    #expect(all == 40_000)
    #expect(try keptByDryRun(["--height-band", "-1-3"]) == all)
    #expect(try sampleCount(heightBand: 1...3) < all)
  }

  @Test(arguments: [
    (["--height-band", "3-1"], "--height-band needs MIN-MAX or MIN,MAX"),
    (["--height-band", "-1"], "--height-band needs MIN-MAX or MIN,MAX"),
    (["--frames", "-1-3"], "--frames needs FIRST-LAST or FIRST,LAST with 0 ≤ FIRST ≤ LAST"),
    (["--depth-range", "-1,3"], "--depth-range needs MIN-MAX or MIN,MAX in metres with 0 ≤ MIN"),
  ])
  func badRangesAreUsageErrors(arguments: [String], message: String) throws {
    let result = try CommandRunner.run(
      ["export", "Assets/sample.ply", "-o", "/tmp/unused.ply", "--dry-run"] + arguments)
    #expect(result.status == 2)
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }
}

/// A frame selection that selects nothing is a usage error naming the valid range.
@Suite struct EmptySelectionCommandLineTests {
  @Test(arguments: ["export", "render"])
  func framesPastTheEndAreAUsageErrorNamingTheValidRange(command: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("six.csrec").path
    let output = folder.appendingPathComponent(command == "export" ? "out.ply" : "out.png").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "6"]).status == 0)
    let result = try CommandRunner.run([command, recording, "-o", output, "--frames", "100-200"])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "--frames 100-200 selects no frame: the recording has frames 0-5: \(recording)"),
      "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))
    // A range that overlaps the recording is clamped and works (an export needs a
    // point-cloud extension).
    let exported = folder.appendingPathComponent("overlap.ply").path
    let overlap = try CommandRunner.run(["export", recording, "-o", exported, "--frames", "4-200"])
    #expect(overlap.status == 0, "\(overlap.standardError)")
  }
}

/// A folder one level above recordings, through the real binary.
@Suite(.enabled(if: TestData.sharedData != nil))
struct OneLevelUpCommandLineTests {
  @Test func folderHoldingOneRealExportOpensItAndSaysWhich() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let real = try #require(TestData.shared("stray-scanner-room"))
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("room").path, withDestinationPath: real)
    let result = try CommandRunner.run(["info", "--json", root.path])
    #expect(result.status == 0, "\(result.standardError)")
    let room = root.appendingPathComponent("room").path
    #expect(
      result.standardError.contains(
        "note: opening \(room) (Stray Scanner), the one recording in \(root.path)"),
      "\(result.standardError)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["path"] as? String == room && object["frames"] as? Int == 580)
  }

  @Test func sharedDataFolderListsItsRecordings() throws {
    let data = try #require(TestData.sharedData)
    let result = try CommandRunner.run(["info", data.path])
    #expect(result.status == 1)
    for name in ["record3d-exr-desk", "record3d-exr-door-gaps", "stray-scanner-room"] {
      #expect(result.standardError.contains(name), "\(result.standardError)")
    }
    #expect(result.standardError.contains("recordings one level down, not one"))
  }
}

/// A z-up recording (ARKitScenes layout) through export and render.
@Suite struct WorldUpCommandLineTests {
  func writeZUpRecording(in folder: URL) throws -> String {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 2, depthWidth: 64, depthHeight: 48, colorWidth: 128, colorHeight: 96))
    let path = folder.appendingPathComponent("scene_frames").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try ARKitScenesWriter().write(source, to: path)
    return path
  }

  @Test func heightBandOfAZUpRecordingMeasuresAlongZ() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = try writeZUpRecording(in: folder)
    let all = folder.appendingPathComponent("all.ply").path
    let band = folder.appendingPathComponent("band.ply").path
    #expect(try CommandRunner.run(["export", recording, "-o", all]).status == 0)
    let result = try CommandRunner.run(
      ["export", recording, "-o", band, "--height-band", "-0.5,0.5"])
    #expect(result.status == 0, "\(result.standardError)")
    let everything = try PLYReader.read(path: all).cloud.positions
    let expected = everything.filter { (-0.5...0.5).contains($0.z) }
    #expect(!expected.isEmpty && expected.count < everything.count)
    // Measured along y it would keep a different set.
    #expect(expected.count != everything.filter { (-0.5...0.5).contains($0.y) }.count)
    let document = try PLYReader.read(path: band)
    #expect(document.cloud.positions == expected)
    #expect(document.header.comments.contains { $0.contains("height band -0.5-0.5 m along z") })
    let info = try CommandRunner.run(["info", recording])
    #expect(info.standardOutput.contains("world up    +z"), "\(info.standardOutput)")
  }

  @Test func renderTellsTheViewerTheWorldIsZUp() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = try writeZUpRecording(in: folder)
    let (content, commands) = try RenderRequest.load(recording, frames: nil)
    #expect(content.worldUp == .z && commands.first == .worldUpKnown(.z))
    var state = ViewerState()
    for command in commands { state.apply(command) }
    #expect(state.scene.up == .z && state.camera.up == .z)
    let picture = folder.appendingPathComponent("z.png").path
    let result = try CommandRunner.run(["render", recording, "-o", picture, "--size", "64x48"])
    #expect(result.status == 0, "\(result.standardError)")
  }
}

/// `export --attributes frame` writes a PLY that opens as a timeline again.
@Suite struct PLYTimelineCommandLineTests {
  @Test func exportedCaptureReopensAsItsFramesInInfoRenderAndTheWindowExport() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("four.csrec").path
    let ply = folder.appendingPathComponent("four.ply").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "4"]).status == 0)
    let export = try CommandRunner.run(
      ["export", recording, "-o", ply, "--attributes", "frame", "--frames", "1-3"])
    #expect(export.status == 0, "\(export.standardError)")
    // Per-frame point counts, worked out from the PLY's own frame column.
    let cloud = try PLYReader.read(path: ply).cloud
    let frameColumn = try #require(cloud.attribute(named: "frame"))
    let values = (0..<cloud.count).map { Int(frameColumn.values.double(at: $0)) }
    let counts = [1, 2, 3].map { frame in values.filter { $0 == frame }.count }
    #expect(counts.allSatisfy { $0 > 0 } && counts.reduce(0, +) == cloud.count)

    let info = try CommandRunner.run(["info", ply])
    #expect(
      info.standardOutput.contains("3 frames (values 1–3 of 'frame')"), "\(info.standardOutput)")

    let (content, commands) = try RenderRequest.load(ply, frames: nil)
    #expect(content.frameIndices == [1, 2, 3])
    #expect(content.store.frameRanges == [0, counts[0], counts[0] + counts[1], cloud.count])
    var state = ViewerState()
    for command in commands { state.apply(command) }
    #expect(state.playback.loadedFrameCount == 3)
    let picture = folder.appendingPathComponent("frames.png").path
    let render = try CommandRunner.run(
      ["render", ply, "-o", picture, "--color", "frame", "--size", "64x48"])
    #expect(render.status == 0, "\(render.standardError)")

    // The window's export of a timeline writes the frames it shows.
    let opener = DocumentOpener()
    let document = try opener.open(ply)
    // A PLY timeline is read whole in the background.
    #expect(document.load.waitUntilStopped(timeout: 120))
    var windowContent = ViewerContent()
    _ = windowContent.absorb(document.load.take())
    let shown = folder.appendingPathComponent("shown.ply").path
    _ = try opener.export(
      WindowExportRequest(
        document: document, content: windowContent, visibleFrames: 1...1, minConfidence: .low,
        outputPath: shown))
    let written = try PLYReader.read(path: shown).cloud
    #expect(written.count == counts[1])
    #expect(document.summary.hasSuffix(", 3 frames"))
  }
}

/// Frames before tracking started, on the real Stray export.
@Suite(.enabled(if: TestData.sharedData != nil))
struct UntrackedFramesCommandLineTests {
  @Test func infoMarksThemAndSkipUntrackedLeavesThemOut() throws {
    let data = try #require(TestData.sharedData)
    let info = try CommandRunner.run(["info", "stray-scanner-room"], in: data)
    #expect(info.status == 0, "\(info.standardError)")
    #expect(
      info.standardOutput.contains(
        "untracked   frames 0-38 (39) have exactly zero translation"), "\(info.standardOutput)")
    let json = try CommandRunner.run(["info", "--json", "stray-scanner-room"], in: data)
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["untracked_frames"] as? Int == 39)

    // Frames 39, 49, …, 579: (579 - 39) / 10 + 1 = 55.
    let export = try CommandRunner.run(
      [
        "export", "stray-scanner-room", "-o", "/tmp/unused.ply", "--skip-untracked", "--every",
        "10",
        "--dry-run",
      ], in: data)
    #expect(export.status == 0, "\(export.standardError)")
    #expect(export.standardOutput.contains("frames (55)"), "\(export.standardOutput)")
    let none = try CommandRunner.run(
      [
        "export", "stray-scanner-room", "-o", "/tmp/unused.ply", "--skip-untracked", "--frames",
        "0-20",
      ], in: data)
    #expect(none.status == 2)
    #expect(none.standardError.contains("--skip-untracked leaves no frame of --frames 0-20"))

    let path = data.appendingPathComponent("stray-scanner-room").path
    let (content, _) = try RenderRequest.load(path, frames: 0...40, skipUntracked: true)
    #expect(content.frameIndices == [39, 40])
  }
}
