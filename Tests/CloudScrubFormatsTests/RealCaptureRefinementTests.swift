import CloudScrubCore
import Foundation
import Testing
import TestSupport

@testable import CloudScrubFormats

/// Refinement on the real desk capture: ARKit's poses are good, so refining must not
/// make them worse (frames 0 and 30 overlap at least as well) and must move them by
/// millimetres, not centimetres.
@Suite(.enabled(if: TestData.sharedData != nil))
struct RealCaptureRefinementTests {
  static func points(_ source: any RecordingSource, frame: Int) throws -> [Point3] {
    let options = UnprojectionOptions(flyingPixels: FlyingPixelFilter())
    var captured = try source.frame(at: frame)
    captured.color = nil
    return try Unprojector.unproject(captured, options: options).positions
  }

  static func overlap(_ source: any RecordingSource) throws -> Double {
    NeighbourCounter(points: try points(source, frame: 0), radius: 0.01)
      .fractionWithNeighbour(try points(source, frame: 30))
  }

  @Test func refiningTheDeskCaptureMovesPosesByMillimetresAndKeepsTheOverlap() throws {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let recording = try Record3DEXRRecording(folder: folder)
    let refined = try DriftAlignment.run(recording, refine: true)
    var largest = 0.0
    var sum = 0.0
    for (before, after) in zip(refined.originalPoses, refined.poses) {
      let d = after.position - before.position
      let moved = (d * d).sum().squareRoot()
      largest = max(largest, moved)
      sum += moved
    }
    let measured = try DriftAlignment.run(recording, refine: false)
    let replaced = try PosesReplacedRecording(recording, poses: refined.poses)
    let overlapBefore = try Self.overlap(recording)
    let overlapAfter = try Self.overlap(replaced)
    print(
      "desk: poses moved by at most \(largest) m, mean \(sum / Double(refined.poses.count)) m; "
        + "overlap 0/30 \(overlapBefore) before, \(overlapAfter) after; median error "
        + "\(measured.errors.medianMeters ?? -1) m before, \(refined.errors.medianMeters ?? -1) m after")
    #expect(largest < 0.01, "a pose moved \(largest) m")
    #expect(overlapAfter >= overlapBefore - 0.005)
    #expect(refined.errors.residualsMeters.compactMap { $0 }.count > 200)
  }
}
