import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Refinement on the real desk capture (its first 61 frames, a second, which hold
/// frames 0 and 30): ARKit's poses are good, so refining must not make them worse
/// (frames 0 and 30 overlap at least as well) and must not move them far.
///
/// Measured (debug and release alike): the 0/30 overlap within 1 cm goes from 57.2 % to
/// 58.4 %, the alignment error's median from about 4 mm to under 0.1 mm, and the
/// cameras move by 1.1 cm on average, 3.5 cm at most: more than the issue's
/// "millimetres". The frames of this
/// capture disagree with their ARKit poses by a few millimetres each (the error curve
/// before refining), and the refined trajectory follows the depth rather than ARKit.
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

  @Test func refiningTheDeskCaptureKeepsTheOverlapAndMovesPosesByCentimetresAtMost() throws {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let recording = FirstFrames(base: try Record3DEXRRecording(folder: folder), count: 61)
    let refined = try DriftAlignment.run(recording, refine: true)
    let measured = try DriftAlignment.run(recording, refine: false)
    var largest = 0.0
    var sum = 0.0
    for (before, after) in zip(refined.originalPoses, refined.poses) {
      let d = after.position - before.position
      let moved = (d * d).sum().squareRoot()
      largest = max(largest, moved)
      sum += moved
    }
    let replaced = try PosesReplacedRecording(recording, poses: refined.poses)
    let overlapBefore = try Self.overlap(recording)
    let overlapAfter = try Self.overlap(replaced)
    print(
      "desk: poses moved by at most \(largest) m, mean \(sum / Double(refined.poses.count)) m; "
        + "overlap 0/30 \(overlapBefore) before, \(overlapAfter) after; median error "
        + "\(measured.errors.medianMeters ?? -1) m before, \(refined.errors.medianMeters ?? -1) m after"
    )
    #expect(largest < 0.05, "a pose moved \(largest) m")
    #expect(overlapAfter >= overlapBefore)
    #expect(refined.errors.residualsMeters.compactMap { $0 }.count >= 59)
    let before = try #require(measured.errors.medianMeters)
    let after = try #require(refined.errors.medianMeters)
    #expect(after < before)
  }
}

/// The first `count` frames of a recording.
struct FirstFrames: RecordingSource {
  var base: any RecordingSource
  var count: Int
  var description: RecordingDescription { base.description }
  var frameCount: Int { min(count, base.frameCount) }
  func frame(at index: Int) throws -> CapturedFrame { try base.frame(at: index) }
  func frameInfo(at index: Int) throws -> FrameInfo { try base.frameInfo(at: index) }
}
