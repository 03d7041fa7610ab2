import CloudScrubCore
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubApp
@testable import CloudScrubCLI

/// The window and `cloudscrub export` run one export library: the same settings give
/// the same bytes in every format, a PLY is exported from what was read when it opened,
/// and a cancel stops the export at once, leaving nothing behind.
@Suite struct WindowExportLibraryTests {
  static let formats = ["ply", "pcd", "las", "e57", "xyz", "csv"]

  /// The window's cleaning panel set as `--crop -3,0.05,-3,3,3,3 --voxel 0.03 --sor 10,2
  /// --normals` sets it.
  static let cleaning = CleaningOptions(
    crop: CropBox(min: Point3(-3, 0.05, -3), max: Point3(3, 3, 3)), voxelSizeMeters: 0.03,
    statistical: StatisticalOutlierOptions(neighbours: 10, stdRatio: 2), normalNeighbours: 20)
  static let cleaningFlags = [
    "--crop", "-3,0.05,-3,3,3,3", "--voxel", "0.03", "--sor", "10,2", "--normals",
  ]

  @Test(arguments: formats)
  func windowAndCommandLineWriteTheSameBytesWithCleaning(_ format: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(
      try CommandRunner.run(["synth", recording, "--frames", "5", "--noise", "0.002"]).status == 0)
    let fromCommandLine = folder.appendingPathComponent("cli.\(format)").path
    let result = try CommandRunner.run(
      ["export", recording, "-o", fromCommandLine, "--frames", "1-3", "--min-confidence", "medium"]
        + Self.cleaningFlags)
    #expect(result.status == 0, "\(result.standardError)")
    let (document, content) = try WindowExportTests.openAndLoad(recording)
    let fromWindow = folder.appendingPathComponent("window.\(format)").path
    let line = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 1...3, minConfidence: .medium,
        cleaning: Self.cleaning, outputPath: fromWindow),
      progress: ExportProgress())
    #expect(line.contains("frames 1–3"))
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    let b = try Data(contentsOf: URL(fileURLWithPath: fromWindow))
    #expect(a.count > 1_000)
    // No format here records a time: E57's GUID derives from the content, LAS's
    // creation date is left 0, so the files are compared whole.
    #expect(a == b)
  }

  @Test(arguments: formats)
  func aPLYIsExportedFromWhatWasReadWhenItOpened(_ format: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A PLY with normals and per-point attributes, as an earlier export wrote it.
    let input = folder.appendingPathComponent("input.ply").path
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "3"]).status == 0)
    #expect(
      try CommandRunner.run([
        "export", recording, "-o", input, "--voxel", "0.05", "--normals", "--attributes", "all",
      ]).status == 0)
    let fromCommandLine = folder.appendingPathComponent("cli.\(format)").path
    #expect(
      try CommandRunner.run(
        ["export", input, "-o", fromCommandLine, "--attributes", "all", "--voxel", "0.08"]
      ).status == 0)
    let (document, content) = try WindowExportTests.openAndLoad(input)
    guard case .cloud(let opened) = document.kind else { throw UsageError("not a cloud") }
    #expect(opened.keptCloud?.normals != nil)
    // The file changes after it opened: the window exports what it read.
    try Data("not a PLY any more".utf8).write(to: URL(fileURLWithPath: input))
    var job = try DocumentOpener.job(
      for: WindowExportRequest(
        document: document, content: content, visibleFrames: 0...0, minConfidence: .low,
        cleaning: CleaningOptions(voxelSizeMeters: 0.08),
        outputPath: folder.appendingPathComponent("window.\(format)").path),
      loadedWith: LoadChoices())
    job.writeOptions.attributes = .all
    let cloud = try #require(opened.keptCloud)
    _ = try CloudExport.finish(
      cloud, stages: [], frameIndices: [], job: job, writer: try ExportSteps.writer(for: job),
      viewpoint: { _ in nil })
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    #expect(a.count > 1_000)
    #expect(a == (try Data(contentsOf: URL(fileURLWithPath: job.outputPath))))
  }

  @Test func theWindowsPLYExportDoesNotReadTheFileAgain() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("input.ply").path
    try FileManager.default.copyItem(atPath: TestData.samplePLY, toPath: input)
    let fromCommandLine = folder.appendingPathComponent("cli.ply").path
    #expect(try CommandRunner.run(["export", input, "-o", fromCommandLine]).status == 0)
    let (document, content) = try WindowExportTests.openAndLoad(input)
    try FileManager.default.removeItem(atPath: input)
    let fromWindow = folder.appendingPathComponent("window.ply").path
    _ = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...0, minConfidence: .low,
        outputPath: fromWindow))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
        == Data(contentsOf: URL(fileURLWithPath: fromWindow)))
  }

  /// Cancels from the progress callback as outlier removal starts: a gate at a known
  /// point, no sleeps.
  @Test func aCancelledExportWritesNothingAndKeepsTheOldOutput() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "4"]).status == 0)
    let output = folder.appendingPathComponent("scan.las").path
    let old = Data("an earlier export".utf8)
    try old.write(to: URL(fileURLWithPath: output))
    let (document, content) = try WindowExportTests.openAndLoad(recording)
    let box = ProgressBox()
    let progress = ExportProgress { stage in
      if case .cleaning(step: "statistical outliers", _, _) = stage { box.progress?.cancel() }
    }
    box.progress = progress
    let error = #expect(throws: CleaningCancelled.self) {
      try DocumentOpener().export(
        WindowExportRequest(
          document: document, content: content, visibleFrames: 0...3, minConfidence: .low,
          cleaning: Self.cleaning, outputPath: output),
        progress: progress)
    }
    #expect(error == CleaningCancelled(step: "statistical outliers"))
    #expect(progress.snapshot.cancelled)
    #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == old)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(left == ["scan.las", "small.csrec"])
  }

  /// The stop is asked inside the neighbour search too, not only between steps: a stop
  /// that says yes from its second question on ends the run in outlier removal.
  @Test func cleaningStopsInsideANeighbourSearch() throws {
    let cloud = Clouds.random(count: 20_000, seed: 3)
    let questions = Counter()
    let progress = CleaningProgress(shouldStop: { questions.increment() >= 2 })
    let error = #expect(throws: CleaningCancelled.self) {
      try CleaningPipeline.run(
        cloud, options: CleaningOptions(statistical: StatisticalOutlierOptions()),
        progress: progress)
    }
    #expect(error == CleaningCancelled(step: "statistical outliers"))
    // One question before the step, at least one from the search, then the check after.
    #expect(questions.value >= 3)
    // Nobody asking to stop: the same mask as without a progress.
    let plain = try CleaningPipeline.run(
      cloud, options: CleaningOptions(statistical: StatisticalOutlierOptions()))
    let watched = try CleaningPipeline.run(
      cloud, options: CleaningOptions(statistical: StatisticalOutlierOptions()),
      progress: CleaningProgress())
    #expect(plain.cloud == watched.cloud)
  }

  @Test func theProgressCountsStepsThenTheWrite() {
    let progress = ExportProgress()
    #expect(progress.snapshot.fraction == 0)
    progress.stageStarted(.cleaning(step: "voxel", index: 1, count: 4))
    progress.progressed(0.5)
    #expect(progress.snapshot.fraction == 0.8 * 1.5 / 4)
    #expect(progress.snapshot.stage?.label == "voxel (2/4)")
    progress.stageStarted(.writing(path: "/tmp/a/scan.e57"))
    progress.progressed(0.5)
    #expect(progress.snapshot.fraction == 0.9)
    #expect(progress.snapshot.stage?.label == "writing scan.e57")
  }

  /// The window's background export: one at a time, a second refused while the first
  /// waits at a gate; a cancel reaches the export; the result is handed out once.
  @Test func theBackgroundExportRunsOneAtATimeAndCancels() throws {
    let opener = GatedOpener()
    let exports = BackgroundExport()
    let document = ViewerDocument(
      path: "a.ply", load: StreamingLoad(cloud: PointCloud()), summary: "",
      kind: .cloud(CloudDocument(points: .kept(PointCloud()))))
    let request = WindowExportRequest(
      document: document, content: ViewerContent(), visibleFrames: 0...0, minConfidence: .low,
      outputPath: "out.ply")
    #expect(exports.start(request, opener: opener))
    #expect(exports.isRunning)
    #expect(!exports.start(request, opener: opener))
    exports.cancel()
    #expect(exports.status?.progress.cancelled == true)
    opener.gate.signal()
    let result = try #require(Self.waitForResult(exports))
    #expect(throws: CleaningCancelled.self) { try result.get() }
    #expect(!exports.isRunning)
    #expect(exports.take() == nil)
    // Not cancelled, the export's line comes back.
    #expect(exports.start(request, opener: opener))
    opener.gate.signal()
    #expect(try Self.waitForResult(exports)?.get() == "wrote out.ply")
    #expect(opener.calls.value == 2)
  }

  static func waitForResult(_ exports: BackgroundExport) -> Result<String, any Error>? {
    exports.take(waitingUpTo: 60)
  }
}

/// Lets the export's progress callback reach the progress it belongs to.
private final class ProgressBox: @unchecked Sendable {
  var progress: ExportProgress?
}

private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }
}

/// An opener whose export waits at a gate, then stops if cancelled.
private final class GatedOpener: ViewerDocumentOpener, @unchecked Sendable {
  let gate = DispatchSemaphore(value: 0)
  let calls = Counter()

  func open(_ path: String) throws -> ViewerDocument {
    throw UsageError("opens nothing")
  }

  func export(_ request: WindowExportRequest, progress: ExportProgress) throws -> String {
    _ = calls.increment()
    gate.wait()
    if progress.isCancelled { throw CleaningCancelled(step: "writing") }
    return "wrote \(request.outputPath)"
  }
}

/// `view` takes every cleaning option `export` does and opens with the cleaning panel
/// set to them.
@Suite struct ViewCleaningOptionsTests {
  @Test func viewSeedsTheCleaningPanelFromItsOptions() throws {
    let parsed = try ParsedArguments(
      [
        "scan.ply", "--voxel", "0.01", "--sor", "12,1.5", "--radius-outlier", "0.04,3",
        "--crop", "-1,-2,-3,1,2,3", "--height-band", "0.1-1.2", "--normals",
      ], command: ViewCommand.spec)
    let cleaning = try LoadChoices(parsed, readsMerge: false).cleaning
    var expected = CleaningOptions(
      crop: CropBox(min: Point3(-1, -2, -3), max: Point3(1, 2, 3)), heightBandMeters: 0.1...1.2,
      voxelSizeMeters: 0.01, statistical: StatisticalOutlierOptions(neighbours: 12, stdRatio: 1.5),
      radius: RadiusOutlierOptions(radiusMeters: 0.04, minNeighbours: 3), normalNeighbours: 20)
    #expect(cleaning == expected)
    let session = { (cleaning: CleaningOptions) in
      ViewerSession(
        width: 640, height: 480, levelOfDetail: false, measuresAlignment: false,
        cleaning: cleaning)
    }
    #expect(session(cleaning).state.edits.cleaning == expected)
    expected = CleaningOptions()
    #expect(
      ViewerSession(width: 640, height: 480, levelOfDetail: false, measuresAlignment: false)
        .state.edits.cleaning == expected)
    for row in OptionTable.cleaningRows where row.commands.contains("export") {
      #expect(
        row.commands.contains("view") || row.name == "dry-run", "view lacks --\(row.name)")
    }
  }
}
