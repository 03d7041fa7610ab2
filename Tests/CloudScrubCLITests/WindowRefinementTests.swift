import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubApp
@testable import CloudScrubCLI

/// The window's pose refinement without a window: the refinement of a drifted synthetic
/// capture, its corrections, the export of the refined cloud against
/// `cloudscrub export --poses`, and before/after and undo.
@Suite struct WindowRefinementTests {
  static let drift = SyntheticDrift(translationMeters: 0.05, rotationRadians: 2 * .pi / 180)

  /// A 24-frame capture with 5 cm and 2° of drift at the last frame, opened and loaded
  /// as the window does, and its refinement.
  nonisolated(unsafe) static let refined:
    Result<(URL, ViewerDocument, ViewerContent, PoseRefinement), any Error> =
      Result {
        let folder = try TestData.makeTemporaryDirectory()
        let path = folder.appendingPathComponent("drift.csrec")
        let synth = try CommandRunner.run([
          "synth", path.path, "--frames", "24", "--color", "rgb", "--drift", "0.05,2",
        ])
        guard synth.status == 0 else { throw Failed(message: synth.standardError) }
        let (document, content) = try WindowExportTests.openAndLoad(path.path)
        guard let source = document.recording else { throw Failed(message: "not a recording") }
        let result = try DriftAlignment.run(source, refine: true)
        return (path, document, content, PoseRefinement(result, frames: content.frameIndices))
      }

  struct Failed: Error { var message: String }

  @Test func theCorrectionsBringTheDriftedCameraCentresBack() throws {
    let (_, _, content, refinement) = try Self.refined.get()
    #expect(content.frameCount == 24)
    #expect(refinement.corrections.count == 24)
    #expect(refinement.trajectory.count == 24)
    // The first frame never moves (to within the rounding of composing its pose with
    // its inverse).
    #expect(refinement.corrections.largestDisplacementMeters(radiusMeters: 0) > 0.01)
    let first = FramePoseCorrections(
      refinedFromOriginal: [refinement.corrections.refinedFromOriginal[0]])
    #expect(first.largestDisplacementMeters(radiusMeters: 10) < 1e-9)
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(frameCount: 24, drift: Self.drift))
    var before = 0.0
    var after = 0.0
    for frame in 0..<24 {
      let drifted = source.pose(at: frame).worldFromOpenCVCamera
      let corrected = refinement.corrections.refinedFromOriginal[frame] * drifted
      let truth = source.truePose(at: frame).position
      let b = drifted.translation - truth
      let a = corrected.translation - truth
      before += (b * b).sum()
      after += (a * a).sum()
    }
    // The command line's figure for the same capture: under 4 % of the squared drift
    // (20 % of the distance) at the last frame; here summed over every frame.
    #expect(after < 0.04 * before, "before \(before), after \(after)")
    #expect(refinement.largestCameraShiftMeters > 0.01)
  }

  @Test func theRefinedExportMatchesExportWithTheSavedPoses() throws {
    let (path, document, content, refinement) = try Self.refined.get()
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // What "Save poses" writes, then the command line exporting with it.
    let poses = folder.appendingPathComponent("refined.txt").path
    try TUMTrajectory.write(refinement.trajectory, to: poses)
    let fromCommandLine = folder.appendingPathComponent("cli.ply").path
    let result = try CommandRunner.run([
      "export", path.path, "-o", fromCommandLine, "--poses", poses, "--frames", "0-23",
      "--min-confidence", "medium",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let fromWindow = folder.appendingPathComponent("window.ply").path
    _ = try CommandLineDocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...23, minConfidence: .medium,
        outputPath: fromWindow, poseCorrections: refinement.corrections))
    guard case .cloud(let cli) = try InputLoader.open(fromCommandLine),
      case .cloud(let window) = try InputLoader.open(fromWindow)
    else {
      Issue.record("the exports are not point clouds")
      return
    }
    #expect(window.cloud.count == cli.cloud.count)
    #expect(window.cloud.count > 10_000)
    #expect(window.cloud.colors == cli.cloud.colors)
    // Not the same bytes: the window moves the points it unprojected with the recorded
    // poses (rounded to float once there and once after the move); the command line
    // unprojects again with the saved (9-decimal) poses, rounding once. The same points
    // to within that rounding at a few metres.
    var largest: Float = 0
    for (a, b) in zip(window.cloud.positions, cli.cloud.positions) {
      largest = max(largest, abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }
    #expect(largest < 2e-5, "largest difference \(largest) m")
    // And the corrections did move them: the recorded-poses export differs.
    let plain = folder.appendingPathComponent("plain.ply").path
    _ = try CommandLineDocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...23, minConfidence: .medium,
        outputPath: plain))
    guard case .cloud(let recorded) = try InputLoader.open(plain) else { return }
    let moved = zip(recorded.cloud.positions, cli.cloud.positions).filter { a, b in
      max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z)) > 1e-3
    }.count
    #expect(moved > recorded.cloud.count / 2)
  }

  @Test func beforeAfterAndUndoTakeBackAnAppliedRefinement() throws {
    let (_, _, _, refinement) = try Self.refined.get()
    var panel = RefinementPanel()
    #expect(panel.shown == nil)
    panel.toggleShown()
    #expect(panel.showsRefined)  // nothing applied: nothing to switch
    panel.apply(refinement)
    #expect(panel.shown == refinement)
    panel.toggleShown()
    #expect(panel.shown == nil)
    #expect(panel.applied == refinement)
    panel.toggleShown()
    #expect(panel.shown?.matrices == refinement.matrices)
    panel.undo()
    #expect(panel.applied == nil && panel.shown == nil)
    panel.redo()
    #expect(panel.shown == refinement)
  }

  @Test func aTrajectorySavedFromTheWindowReadsBackAsTheRefinedPoses() throws {
    let (_, _, _, refinement) = try Self.refined.get()
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("poses.txt").path
    try TUMTrajectory.write(refinement.trajectory, to: path)
    let read = try TUMTrajectory.parse(String(contentsOfFile: path, encoding: .utf8))
    #expect(read.count == 24)
    for (a, b) in zip(read.poses, refinement.trajectory.poses) {
      let d = a.position - b.position
      #expect((d * d).sum().squareRoot() < 1e-8)
    }
  }
}
