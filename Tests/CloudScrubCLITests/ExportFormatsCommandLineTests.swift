import CloudScrubApp
import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// `export` picks its format from the output's extension or `--format`, streams a
/// recording into every format with the bytes of the whole-cloud path, and the window
/// writes what the command line writes.
@Suite struct ExportFormatsCommandLineTests {
  @Test func unknownExtensionIsAUsageErrorListingTheKnownOnes() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("scan.e58").path
    let result = try CommandRunner.run(["export", TestData.samplePLY, "-o", output])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(".ply .pcd .las .laz .e57 .xyz .txt .csv"),
      "\(result.standardError)"
    )
    #expect(!FileManager.default.fileExists(atPath: output))
    let ascii = try CommandRunner.run(
      ["export", TestData.samplePLY, "-o", folder.appendingPathComponent("a.las").path, "--ascii"])
    #expect(ascii.status == 2 && ascii.standardError.contains("no text form"))
    let unknown = try CommandRunner.run(
      ["export", TestData.samplePLY, "-o", output, "--format", "e58"])
    #expect(
      unknown.status == 2 && unknown.standardError.contains("ply, pcd, las, laz, e57, xyz, csv"))
  }

  @Test func formatFollowsTheExtensionOrFormatFlagAndReadsBack() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = try PLYReader.read(path: TestData.samplePLY).cloud
    let cases: [(String, [String], String)] = [
      ("scan.pcd", [], "PCD"), ("scan.PCD", ["--ascii"], "PCD"), ("scan.las", [], "LAS"),
      ("scan.e57", [], "E57"), ("scan.xyz", [], "XYZ text"), ("scan.txt", [], "XYZ text"),
      ("scan.csv", [], "XYZ text"),
      ("scan.dat", ["--format", "pcd"], "PCD"), ("scan.laz", [], "LAS"),
      ("scan.bin", ["--format", "laz"], "LAS"),
    ]
    for (name, flags, format) in cases {
      let output = folder.appendingPathComponent(name).path
      let result = try CommandRunner.run(["export", TestData.samplePLY, "-o", output] + flags)
      #expect(result.status == 0, "\(name): \(result.standardError)")
      #expect(try InputDetector.kind(of: output) == .cloud(format: format), "\(name)")
      let back = try CloudFileFormats.read(output).cloud
      #expect(back.count == source.count, "\(name)")
      #expect(back.colors == source.colors, "\(name)")
      let info = try CommandRunner.run(["info", output])
      #expect(
        info.standardOutput.contains("format") && info.standardOutput.contains("\(source.count)"),
        "\(name): \(info.standardOutput)")
    }
  }

  static let recordingCases: [(String, [String])] = [
    ("pcd", ["--attributes", "confidence,frame"]),
    ("pcd", ["--ascii", "--attributes", "all", "--crop", "-3,0.05,-3,3,3,3"]),
    ("las", ["--attributes", "all"]),
    ("las", ["--voxel", "0.02", "--attributes", "frame"]),
    ("laz", ["--attributes", "all"]),
    ("xyz", ["--attributes", "confidence"]),
    ("csv", ["--frames", "1-3"]),
    ("e57", ["--frames", "0-2"]),
    ("e57", ["--attributes", "all", "--normals", "--voxel", "0.02"]),
  ]

  @Test(arguments: recordingCases)
  func streamedExportInEveryFormatWritesTheWholeCloudPathsBytes(
    _ format: String, _ flags: [String]
  ) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(
      try CommandRunner.run(["synth", recording, "--frames", "5", "--noise", "0.002"]).status == 0)
    let streamed = folder.appendingPathComponent("streamed.\(format)").path
    let result = try CommandRunner.run(["export", recording, "-o", streamed] + flags)
    #expect(result.status == 0, "\(result.standardError)")
    let reference = folder.appendingPathComponent("whole.\(format)").path
    try StreamedExportTests.exportHoldingEveryPoint(recording, flags: flags, to: reference)
    let a = try Data(contentsOf: URL(fileURLWithPath: streamed))
    let b = try Data(contentsOf: URL(fileURLWithPath: reference))
    #expect(a.count > 1_000)
    #expect(a == b, "streamed \(a.count) bytes, whole-cloud \(b.count) bytes")
    let loaded = try CloudFileFormats.read(streamed)
    // E57 keeps its provenance in the XML, which the reader does not list.
    guard format != "e57" else { return }
    #expect(loaded.comments.contains { $0.contains("exported by CloudScrub from small.csrec") })
    #expect(loaded.comments.contains { $0.contains("frames ") } || format == "csv")
  }

  @Test func e57ScansAFramePosedWithItsCamera() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(
      try CommandRunner.run(["synth", recording, "--frames", "5", "--noise", "0.002"]).status == 0)
    let one = folder.appendingPathComponent("one.e57").path
    let frames = folder.appendingPathComponent("frames.e57").path
    for (output, mode) in [(one, "one"), (frames, "frames")] {
      let result = try CommandRunner.run([
        "export", recording, "-o", output, "--frames", "1-3", "--e57-scans", mode,
      ])
      #expect(result.status == 0, "\(mode): \(result.standardError)")
    }
    let whole = try E57Reader.contents(of: one)
    let split = try E57Reader.contents(of: frames)
    #expect(whole.scans.count == 1)
    #expect(split.scans.map(\.name) == ["frame 1", "frame 2", "frame 3"])
    // Each scan is posed with its frame's camera: its points, in that camera's
    // coordinates, land where the one-scan file has them, in the same order.
    let source = try InputDetector.openRecording(recording)
    let probe = SIMD3<Double>(0.3, -0.2, 1.5)
    for (scan, frame) in zip(split.scans, 1...3) {
      let pose = try source.frameInfo(at: frame).pose.worldFromCamera
      let d = scan.worldFromScan.apply(to: probe) - pose.apply(to: probe)
      #expect((d * d).sum().squareRoot() < 1e-9, "frame \(frame)")
    }
    #expect(split.cloud.count == whole.cloud.count && whole.cloud.count > 1_000)
    var largest: Float = 0
    for (a, b) in zip(split.cloud.positions, whole.cloud.positions) {
      largest = max(largest, abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }
    #expect(largest < 1e-5, "points moved by \(largest) m through their camera's coordinates")
    #expect(split.cloud.colors == whole.cloud.colors)
    // Per-frame scans need a recording and E57.
    let misuses: [[String]] = [
      ["export", recording, "-o", folder.appendingPathComponent("a.ply").path],
      ["export", TestData.samplePLY, "-o", folder.appendingPathComponent("b.e57").path],
    ]
    for arguments in misuses {
      let result = try CommandRunner.run(arguments + ["--e57-scans", "frames"])
      #expect(result.status == 2 && result.standardError.contains("--e57-scans frames"))
    }
    let wrong = try CommandRunner.run([
      "export", recording, "-o", folder.appendingPathComponent("c.e57").path, "--e57-scans", "2",
    ])
    #expect(wrong.status == 2 && wrong.standardError.contains("one or frames"))
  }

  @Test(arguments: ["pcd", "las", "e57", "xyz"])
  func windowExportWritesTheCommandLinesBytes(_ format: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(
      try CommandRunner.run(["synth", recording, "--frames", "5", "--noise", "0.002"]).status == 0)
    let fromCommandLine = folder.appendingPathComponent("cli.\(format)").path
    let result = try CommandRunner.run([
      "export", recording, "-o", fromCommandLine, "--frames", "1-3", "--min-confidence", "medium",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let (document, content) = try WindowExportTests.openAndLoad(recording)
    let fromWindow = folder.appendingPathComponent("window.\(format)").path
    _ = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 1...3, minConfidence: .medium,
        outputPath: fromWindow))
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    let b = try Data(contentsOf: URL(fileURLWithPath: fromWindow))
    #expect(a.count > 1_000)
    #expect(a == b)
  }

  @Test func theWindowOpensPCDAndLASFilesAsPointClouds() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = try PLYReader.read(path: TestData.samplePLY).cloud
    for name in ["scan.pcd", "scan.las", "scan.e57", "scan.xyz"] {
      let output = folder.appendingPathComponent(name).path
      #expect(try CommandRunner.run(["export", TestData.samplePLY, "-o", output]).status == 0)
      let (document, content) = try WindowExportTests.openAndLoad(output)
      #expect(document.recording == nil)
      #expect(content.store.count == source.count, "\(name)")
      #expect(document.summary.contains("\(source.count) points"), "\(document.summary)")
    }
  }
}
