import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

/// The window's Model section runs the command line's fusion: the same frames and
/// filters give the same mesh file as `cloudscrub mesh`; refined poses move the mesh
/// with them; a cancel stops the fusion before its next frame.
@Suite struct WindowFusionTests {
  static func recording(frames: Int) throws -> (folder: URL, path: String) {
    let folder = try TestData.makeTemporaryDirectory()
    let path = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", path, "--frames", "\(frames)"])
    #expect(synth.status == 0, "\(synth.standardError)")
    return (folder, path)
  }

  static func inputs(_ frames: ClosedRange<Int>) -> ModelInputs {
    ModelInputs(frames: frames, minConfidence: .medium, refinement: nil)
  }

  static func fused(_ fusion: BackgroundFusion) throws -> RecordingFusion.Result {
    let outcome = fusion.take(waitingUpTo: 300)
    guard case .fused(let result, _) = outcome else {
      throw UsageError("the fusion did not finish: \(String(describing: outcome))")
    }
    return result
  }

  @Test func theWindowWritesTheCommandLinesMesh() throws {
    let (folder, recording) = try Self.recording(frames: 6)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fromCommandLine = folder.appendingPathComponent("cli.glb").path
    let run = try CommandRunner.run([
      "mesh", recording, "-o", fromCommandLine, "--frames", "1-4", "--min-confidence", "medium",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let (document, _) = try WindowExportTests.openAndLoad(recording)
    let fusion = BackgroundFusion()
    let loader = try BackgroundFusion.loader(
      for: document, frames: 1...4, minConfidence: .medium, poses: nil)
    #expect(fusion.start(loader, inputs: Self.inputs(1...4)))
    let result = try Self.fused(fusion)
    #expect(result.frameIndices == [1, 2, 3, 4])
    #expect(
      fusion.progress
        == JobProgress(
          fraction: 1, stage: BackgroundFusion.stage(done: 4, total: 4)))
    let fromWindow = folder.appendingPathComponent("window.glb").path
    #expect(try fusion.save(result, to: fromWindow, recordingPath: recording))
    guard case .success(let line) = fusion.takeSaved(waitingUpTo: 120) else {
      Issue.record("the mesh was not written")
      return
    }
    #expect(line.hasSuffix("to \(fromWindow)"))
    let a = try Data(contentsOf: URL(fileURLWithPath: fromCommandLine))
    #expect(a.count > 10_000)
    #expect(a == (try Data(contentsOf: URL(fileURLWithPath: fromWindow))))
    // An extension no mesh format has is refused before anything runs.
    #expect(throws: UsageError.self) {
      try fusion.save(result, to: folder.appendingPathComponent("m.xyz").path, recordingPath: "")
    }
  }

  @Test func refinedPosesMoveTheMeshWithThem() throws {
    let (folder, recording) = try Self.recording(frames: 4)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (document, _) = try WindowExportTests.openAndLoad(recording)
    let source = try #require(document.recording)
    // Every camera 0.5 m further along x: the surfaces they saw move with them.
    let shift = SIMD3<Double>(0.5, 0, 0)
    let moved = try (0..<source.frameCount).map { index in
      var pose = try source.frameInfo(at: index).pose
      var columns = pose.worldFromCamera.columns
      columns.3 += SIMD4(shift, 0)
      pose.worldFromCamera = Transform3D(columns: columns)
      return pose
    }
    var meshes: [TriangleMesh] = []
    for poses in [nil, moved] {
      let fusion = BackgroundFusion()
      let loader = try BackgroundFusion.loader(
        for: document, frames: 0...3, minConfidence: .low, poses: poses)
      #expect(fusion.start(loader, inputs: Self.inputs(0...3), voxelMeters: 0.04))
      meshes.append(try Self.fused(fusion).mesh)
    }
    let before = try #require(meshes[0].bounds)
    let after = try #require(meshes[1].bounds)
    #expect(abs((after.min.x - before.min.x) - 0.5) < 0.045)
    #expect(abs((after.max.x - before.max.x) - 0.5) < 0.045)
    #expect(abs(after.min.y - before.min.y) < 0.045)
    // Poses that do not fit the recording are refused with the document's name.
    #expect(throws: TrajectoryError.self) {
      try BackgroundFusion.loader(
        for: document, frames: 0...3, minConfidence: .low, poses: Array(moved.prefix(2)))
    }
  }

  @Test func aCancelStopsTheFusionBeforeItsNextFrame() throws {
    let (folder, recording) = try Self.recording(frames: 6)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (document, _) = try WindowExportTests.openAndLoad(recording)
    let base = try BackgroundFusion.loader(
      for: document, frames: 0...5, minConfidence: .low, poses: nil)
    // Frames are held back until the cancel has been asked for, so the fusion cannot
    // finish first whatever the threads do.
    let gate = GatedRecording(base.source)
    let loader = RecordingLoader(
      source: gate, selection: base.selection, unprojection: base.unprojection,
      decoder: base.decoder)
    let fusion = BackgroundFusion()
    #expect(fusion.start(loader, inputs: Self.inputs(0...5)))
    #expect(fusion.isRunning)
    #expect(!fusion.start(loader, inputs: Self.inputs(0...5)))
    fusion.cancel()
    #expect(fusion.isCancelling)
    gate.open()
    let outcome = fusion.take(waitingUpTo: 300)
    guard case .cancelled = outcome else {
      Issue.record("expected a cancel, got \(String(describing: outcome))")
      return
    }
    #expect(
      fusion.progress == JobProgress(fraction: 0, stage: BackgroundFusion.stage(done: 0, total: 6)))
  }
}

/// A recording whose frames wait until `open()` (at most a minute).
final class GatedRecording: RecordingSource, @unchecked Sendable {
  private let source: any RecordingSource
  private let condition = NSCondition()
  private var isOpen = false

  init(_ source: any RecordingSource) { self.source = source }

  var description: RecordingDescription { source.description }
  var frameCount: Int { source.frameCount }

  func open() {
    condition.lock()
    isOpen = true
    condition.broadcast()
    condition.unlock()
  }

  func frame(at index: Int) throws -> CapturedFrame {
    condition.lock()
    let deadline = Date().addingTimeInterval(60)
    while !isOpen, condition.wait(until: deadline) {}
    condition.unlock()
    return try source.frame(at: index)
  }

  func frameInfo(at index: Int) throws -> FrameInfo { try source.frameInfo(at: index) }
}
