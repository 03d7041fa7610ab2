import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

/// Every command and the window open a path the one way (`InputLoader.open`), and
/// what the user should read of it comes back as notes, which the window shows and
/// the command line prints, never written to standard error on the way.
@Suite struct OpenNotesTests {
  static let source = SyntheticRecordingSource(
    options: SyntheticRecordingOptions(
      frameCount: 3, depthWidth: 32, depthHeight: 24, colorWidth: 64, colorHeight: 48))

  @Test func aFolderAboveARecordingSaysWhichItOpened() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    let allData = root.appendingPathComponent("All_Data")
    try FileManager.default.createDirectory(at: allData, withIntermediateDirectories: true)
    try ScannerAppWriter().write(Self.source, to: allData.path)
    let opened = try InputLoader.open(root.path)
    #expect(opened.path == allData.path && opened.recording?.frameCount == 3)
    let note =
      "opening \(allData.path) (\(ScannerAppFormat.name)), the one recording in \(root.path)"
    #expect(opened.notes == [note])
    // The window's document carries the same note, for its panel.
    var opener = DocumentOpener()
    opener.choicesPath = root.path
    let document = try opener.open(root.path)
    document.load.cancel()
    #expect(document.notes == [note])
  }

  @Test func aCloudNamesTheRecordingOptionsItIgnores() throws {
    var choices = LoadChoices()
    choices.givenRecordingOptions = ["frames", "merge", "min-confidence"]
    let opened = try InputLoader.open(TestData.samplePLY, choices: choices, applying: ["merge"])
    #expect(opened.recording == nil && opened.kind == .ply)
    #expect(
      opened.notes == [
        "the recording options do not apply to a PLY input; ignored: --frames, --min-confidence"
      ])
    // With none given, or only those that apply, nothing to say.
    choices.givenRecordingOptions = ["merge"]
    #expect(
      try InputLoader.open(TestData.samplePLY, choices: choices, applying: ["merge"]).notes.isEmpty)
    // The window's `view --merge` applies to a cloud, and says nothing of it.
    var opener = DocumentOpener()
    opener.choices = choices
    opener.choicesPath = TestData.samplePLY
    let document = try opener.open(TestData.samplePLY)
    document.load.cancel()
    #expect(document.notes.isEmpty)
  }

  @Test func aTrajectoryForACloudIsRefused() throws {
    var choices = LoadChoices()
    choices.posesPath = "poses.txt"
    let error = #expect(throws: UsageError.self) {
      try InputLoader.open(TestData.samplePLY, choices: choices)
    }
    #expect(error?.description == "--poses applies to recordings, not to a point-cloud file")
  }

  @Test func theChoicesSelectTheRecordingsFrames() throws {
    var choices = LoadChoices()
    choices.selection.range = 1...2
    #expect(try choices.frames(of: Self.source, path: "r").indices(frameCount: 3) == [1, 2])
    choices.selection.range = 5...6
    #expect(throws: UsageError.self) { try choices.frames(of: Self.source, path: "r") }
  }
}
