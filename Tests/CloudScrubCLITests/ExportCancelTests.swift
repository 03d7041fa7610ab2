import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubApp
@testable import CloudScrubCLI

/// The window's export, cancelled in the background as each stage starts (the write
/// included), and the streamed recording export stopped in its frame loop and its
/// write: each throws `CleaningCancelled` naming the stage, removes its temporary files
/// and leaves an earlier output as it was. Cancels come from the export's own callbacks
/// and stop checks, never from a clock.
@Suite struct ExportCancelTests {
  static let earlier = Data("an earlier export\n".utf8)

  static func recording(in folder: URL) throws -> String {
    let recording = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "5", "--noise", "0.002"])
    #expect(synth.status == 0, "\(synth.standardError)")
    return recording
  }

  @Test(arguments: ["crop", "voxel", "statistical outliers", "normals", "writing"])
  func theWindowsBackgroundExportCancelsInEachStage(_ stage: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = try Self.recording(in: folder)
    let output = folder.appendingPathComponent("scan.ply")
    try Self.earlier.write(to: output)
    let (document, content) = try WindowExportTests.openAndLoad(recording)
    let box = CancelBox()
    let progress = ExportProgress { started in
      let name: String
      switch started {
      case .cleaning(let step, _, _): name = step
      case .writing: name = "writing"
      }
      if name == stage { box.progress?.cancel() }
    }
    box.progress = progress
    let exports = BackgroundExport()
    let request = WindowExportRequest(
      document: document, content: content, visibleFrames: 0...4, minConfidence: .low,
      cleaning: WindowExportLibraryTests.cleaning, outputPath: output.path)
    #expect(exports.start(request, opener: DocumentOpener(), progress: progress))
    let result = try #require(WindowExportLibraryTests.waitForResult(exports))
    let error = #expect(throws: CleaningCancelled.self) { try result.get() }
    #expect(error == CleaningCancelled(step: stage))
    #expect(try Data(contentsOf: output) == Self.earlier)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["scan.ply", "small.csrec"])
  }

  /// `export`'s streaming path with a stop (the command line passes none): stopped in
  /// the frame loop, in the spool's appends or in the final copy.
  @Test(arguments: [[], ["--voxel", "0.03"], ["--sor", "10,2"]] as [[String]])
  func theStreamedExportStopsInItsFrameLoopAndItsWrite(_ flags: [String]) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = try Self.recording(in: folder)
    let output = folder.appendingPathComponent("scan.pcd").path
    let parsed = try ParsedArguments(
      [recording, "-o", output] + flags, command: ExportCommand.spec)
    let job = try ExportCommand.job(parsed, source: recording, output: output)
    let source = try InputDetector.openRecording(recording)
    let loader = RecordingLoader(source: source, decoder: TurboJPEGDecoder())
    func export(_ stop: CountingStop) throws -> StreamedExport.Merged? {
      let outcome = try StreamedExport(
        path: recording, loader: loader, job: job, writer: try ExportSteps.writer(for: job),
        stop: stop.check
      ).run()
      guard case .merged(let merged) = outcome else { return nil }
      return merged
    }
    let free = CountingStop()
    let merged = try export(free)
    // Five frames, each asked before; a written file adds its writes.
    #expect(free.asked >= 5)
    #expect((merged == nil) == flags.isEmpty)
    for k in Set([1, 3, free.asked]).sorted() {
      try Self.earlier.write(to: URL(fileURLWithPath: output))
      let stop = CountingStop(stopsAt: k)
      let error = #expect(throws: CleaningCancelled.self) { try export(stop) }
      #expect(stop.askedAfterStop == 0, "stopped at \(k) of \(free.asked)")
      #expect(["frames", "voxel", "writing"].contains(error?.step ?? ""))
      #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Self.earlier)
      let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      #expect(left == ["scan.pcd", "small.csrec"], "stopped at \(k) of \(free.asked)")
    }
  }
}

/// Lets the export's stage callback reach the progress it belongs to.
private final class CancelBox: @unchecked Sendable {
  var progress: ExportProgress?
}
