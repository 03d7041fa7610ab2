import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubApp
@testable import CloudScrubCLI

/// The cleaning panel's height band: a drag of its bounds is one undo step, and the
/// window's export with a band writes the bytes `cloudscrub export --height-band` does.
@Suite struct WindowHeightBandTests {
  /// A state whose cleaning settings start from `initial`, as `view`'s flags set them.
  static func state(_ initial: CleaningOptions = CleaningOptions()) -> ViewerState {
    ViewerState(edits: ViewerEdits(cleaning: initial))
  }

  /// What the panel sends while the band's bounds are dragged to `band` (nil: switched
  /// off): the state's settings with that band, `finished` at the drag's end.
  static func dragBand(
    _ state: inout ViewerState, to band: ClosedRange<Float>?, finished: Bool
  ) {
    var options = state.edits.history.current.cleaning
    options.heightBandMeters = band
    state.apply(.edit(.setCleaning(options, finished: finished)))
  }

  @Test func aDragOfTheHeightBandIsOneUndoStep() {
    var state = Self.state(CleaningOptions(voxelSizeMeters: 0.02))
    #expect(state.edits.cleaning.heightBandMeters == nil)
    Self.dragBand(&state, to: 0...2, finished: true)
    #expect(state.edits.cleaning.heightBandMeters == 0...2)
    // Every tick of the drag changes the band; only the drag's end is a step.
    for tick in 1...10 {
      Self.dragBand(&state, to: Float(tick) * 0.1...2, finished: false)
    }
    Self.dragBand(&state, to: 1.25...2, finished: true)
    #expect(state.edits.cleaning.heightBandMeters == 1.25...2)
    state.apply(.edit(.undo))
    #expect(state.edits.cleaning.heightBandMeters == 0...2)
    state.apply(.edit(.undo))
    #expect(state.edits.cleaning.heightBandMeters == nil)
    #expect(state.edits.cleaning.voxelSizeMeters == 0.02)
    state.apply(.edit(.redo))
    state.apply(.edit(.redo))
    #expect(state.edits.cleaning.heightBandMeters == 1.25...2)
  }

  @Test func theBandStartsAsTheScenesExtentAlongUp() {
    let bounds = Bounds3(min: Point3(-1, -0.5, 0.25), max: Point3(3, 2.5, 1.75))
    #expect(CleaningPanel.initialHeightBand(bounds, up: .y) == -0.5...2.5)
    #expect(CleaningPanel.initialHeightBand(bounds, up: .z) == 0.25...1.75)
    #expect(CleaningPanel.initialHeightBand(nil, up: .y) == 0...2)
  }

  @Test func aBandGivenToViewIsShownInThePanel() throws {
    let parsed = try ParsedArguments(
      ["scan.ply", "--height-band", "-0.4-1.1"], command: ViewCommand.spec)
    let state = Self.state(try LoadChoices(parsed, readsMerge: false).cleaning)
    #expect(state.edits.cleaning.heightBandMeters == -0.4...1.1)
    let row = OptionTable.cleaningRows.first { $0.name == "height-band" }
    #expect(row?.windowControl == "Clean › height band")
  }

  @Test(arguments: WindowExportLibraryTests.formats)
  func windowAndCommandLineWriteTheSameBytesWithAHeightBand(_ format: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "4"]).status == 0)
    let fromCommandLine = folder.appendingPathComponent("cli.\(format)").path
    let result = try CommandRunner.run([
      "export", recording, "-o", fromCommandLine, "--frames", "0-3", "--height-band", "0.2-0.9",
      "--voxel", "0.03",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let (document, content) = try WindowExportTests.openAndLoad(recording)
    // The band set as a drag in the panel sets it, after the voxel slider.
    var state = Self.state(CleaningOptions(voxelSizeMeters: 0.03))
    Self.dragBand(&state, to: 0.5...1.5, finished: false)
    Self.dragBand(&state, to: 0.2...0.9, finished: true)
    let fromWindow = folder.appendingPathComponent("window.\(format)").path
    _ = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...3, minConfidence: .low,
        cleaning: state.edits.cleaning, outputPath: fromWindow),
      progress: ExportProgress())
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    let b = try Data(contentsOf: URL(fileURLWithPath: fromWindow))
    #expect(a.count > 1_000)
    #expect(a == b)
  }

  /// The band keeps exactly the points whose y lies in it: the whole export, cut by
  /// hand, has as many points as the banded one.
  @Test func theBandedExportKeepsThePointsInTheBand() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "4"]).status == 0)
    let (document, content) = try WindowExportTests.openAndLoad(recording)
    let whole = folder.appendingPathComponent("whole.ply").path
    let banded = folder.appendingPathComponent("banded.ply").path
    for (path, band) in [(whole, nil), (banded, 0.2...0.9)] as [(String, ClosedRange<Float>?)] {
      var state = Self.state()
      Self.dragBand(&state, to: band, finished: true)
      _ = try DocumentOpener().export(
        WindowExportRequest(
          document: document, content: content, visibleFrames: 0...3, minConfidence: .low,
          cleaning: state.edits.cleaning, outputPath: path),
        progress: ExportProgress())
    }
    let all = try PLYReader.read(path: whole).cloud.positions
    let kept = try PLYReader.read(path: banded).cloud.positions
    let inBand = all.filter { (0.2...0.9).contains($0.y) }
    #expect(kept.count == inBand.count)
    #expect(kept.count > 0 && kept.count < all.count)
    #expect(kept.allSatisfy { (0.2...0.9).contains($0.y) })
  }
}
