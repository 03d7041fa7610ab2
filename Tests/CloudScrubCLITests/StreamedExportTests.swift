import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// `export` of a recording streams its frames (straight to the file, or through a voxel
/// merge) instead of holding the merged cloud; it must write the same bytes as the
/// whole-cloud path: load every frame, `PointStore.cloud()`, then the shared
/// `CloudExport.finish`.
@Suite struct StreamedExportTests {
  static let cases: [[String]] = [
    [],
    ["--attributes", "all"],
    ["--ascii", "--attributes", "confidence,frame"],
    ["--frames", "1-4", "--min-confidence", "medium", "--crop", "-3,0.05,-3,3,3,3"],
    ["--height-band", "0.1-2", "--attributes", "frame"],
    ["--voxel", "0.02", "--attributes", "all"],
    ["--crop", "-3,0.05,-3,3,3,3", "--voxel", "0.03", "--ascii", "--attributes", "all"],
    ["--voxel", "0.02", "--sor", "10,2", "--attributes", "all"],
    ["--voxel", "0.04", "--sor", "8,1.5", "--radius-outlier", "0.1,3", "--normals"],
  ]

  @Test(arguments: cases)
  func streamedExportWritesTheWholeCloudPathsBytes(_ flags: [String]) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "6", "--noise", "0.002"])
    #expect(synth.status == 0, "\(synth.standardError)")

    let streamed = folder.appendingPathComponent("streamed.ply").path
    let result = try CommandRunner.run(["export", recording, "-o", streamed] + flags)
    #expect(result.status == 0, "\(result.standardError)")

    let reference = folder.appendingPathComponent("whole.ply").path
    try Self.exportHoldingEveryPoint(recording, flags: flags, to: reference)
    let a = try Data(contentsOf: URL(fileURLWithPath: streamed))
    let b = try Data(contentsOf: URL(fileURLWithPath: reference))
    #expect(a.count > 1_000)
    #expect(a == b, "streamed \(a.count) bytes, whole-cloud \(b.count) bytes")
    // No spool or temporary file is left beside the output.
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left.sorted() == ["small.csrec", "streamed.ply", "whole.ply"])
  }

  @Test func dryRunCountsMatchTheWrittenFile() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "3"]).status == 0)
    let output = folder.appendingPathComponent("out.ply").path
    let flags = ["--crop", "-3,0.05,-3,3,3,3"]
    let dry = try CommandRunner.run(["export", recording, "-o", output, "--dry-run"] + flags)
    #expect(dry.status == 0, "\(dry.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(try CommandRunner.run(["export", recording, "-o", output] + flags).status == 0)
    let written = try PLYReader.read(path: output).cloud.count
    #expect(dry.standardOutput.contains("would write \(written) points"))
  }

  @Test func mergeWhileLoadingKeepsTheFirstPointOfEachVoxel() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "5"]).status == 0)
    let raw = folder.appendingPathComponent("raw.ply").path
    let merged = folder.appendingPathComponent("merged.ply").path
    #expect(try CommandRunner.run(["export", recording, "-o", raw]).status == 0)
    let result = try CommandRunner.run(["export", recording, "-o", merged, "--merge", "0.02"])
    #expect(result.status == 0, "\(result.standardError)")
    let all = try PLYReader.read(path: raw).cloud.positions
    var cells = Set<[Double]>()
    let expected = all.filter { p in
      cells.insert([p.x, p.y, p.z].map { (Double($0) / Double(Float(0.02))).rounded(.down) })
        .inserted
    }
    let document = try PLYReader.read(path: merged)
    #expect(document.cloud.positions == expected)
    #expect(document.header.comments.contains { $0.contains("merged while loading at 0.02 m") })
    for bad in ["0", "-1", "nan", "fine"] {
      for command in [
        ["export", recording, "-o", merged], ["view", recording],
        ["render", recording, "-o", "/tmp/x.png"],
      ] {
        let refused = try CommandRunner.run(command + ["--merge", bad])
        #expect(refused.status == 2, "\(command[0]) --merge \(bad): \(refused.standardError)")
      }
    }
  }

  /// The export as it was before streaming: every frame loaded into one store.
  static func exportHoldingEveryPoint(_ path: String, flags: [String], to output: String) throws {
    let parsed = try ParsedArguments([path, "-o", output] + flags, command: ExportCommand.spec)
    var job = try ExportCommand.job(parsed, source: path, output: output)
    let selection = try RecordingFlags.selection(parsed)
    let unprojection = try RecordingFlags.unprojection(parsed)
    job.recordedFrames = ExportJob.RecordedFrames(selection: selection, unprojection: unprojection)
    let source = try InputDetector.openRecording(path)
    let store = try RecordingLoader(
      source: source, selection: selection, unprojection: unprojection,
      decoder: TurboJPEGDecoder()
    ).load()
    _ = try CloudExport.finish(
      store.cloud(), stages: [], frameIndices: store.frameIndices, job: job,
      writer: try ExportSteps.writer(for: job), viewpoint: ExportSteps.viewpoint(source))
  }
}
