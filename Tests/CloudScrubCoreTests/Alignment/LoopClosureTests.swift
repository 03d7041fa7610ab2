import Foundation
import Testing

@testable import CloudScrubCore

/// Loop closure and the ghosting measure on synthetic captures whose camera goes out
/// along its arc and comes back (`SyntheticCameraPath.loop`), and on hand-made frames.
@Suite struct LoopClosureTests {
  /// `DriftAlignmentTests.options` on the loop, with half-size depth maps (the
  /// subsample keeps about the same points) so that the captures render quickly.
  static func options(frames: Int, drift: SyntheticDrift? = nil) -> SyntheticRecordingOptions {
    var options = DriftAlignmentTests.options(frames: frames, drift: drift)
    options.path = .loop
    options.depthWidth = 128
    options.depthHeight = 96
    return options
  }

  /// Far pairs a third of the capture apart or more.
  static func sample(_ source: SyntheticRecordingSource) throws -> GhostingSample {
    try GhostingSample.read(source, farGap: source.frameCount / 3)
  }

  @Test func theLoopPathComesBackToItsStart() {
    let path = SyntheticCameraPath.loop
    let start = path.worldFromCamera(atFraction: 0)
    let end = path.worldFromCamera(atFraction: 1)
    let d = start.translation - end.translation
    #expect((d * d).sum().squareRoot() < 1e-9)
    // Halfway it stands where the one-way arc ends.
    let far = SyntheticCameraPath.standard.position(atFraction: 1) - path.position(atFraction: 0.5)
    #expect((far * far).sum().squareRoot() < 0.06, "the heights differ by the wobble only")
  }

  /// A drift of 10 cm and 3° on a loop: refinement finds a loop edge between the first
  /// and the last tenth of the capture, where the camera is back at its start, brings
  /// every camera centre within a fifth of the drift, and leaves the ghosting within
  /// 1.2 times that of the same capture without drift.
  @Test func aDriftedLoopIsClosedWhereThePathReturns() throws {
    let drift = SyntheticDrift(translationMeters: 0.1, rotationRadians: 3 * Double.pi / 180)
    let count = 90
    let source = SyntheticRecordingSource(options: Self.options(frames: count, drift: drift))
    let refined = try DriftAlignment.run(source, refine: true)
    let returning = refined.loops.filter {
      $0.first < count / 10 && $0.second >= count - count / 10 && $0.weight > 0.5
    }
    #expect(!returning.isEmpty, "loops: \(refined.loops.map { ($0.first, $0.second) })")
    let (before, after) = DriftAlignmentTests.worstOffsets(source, refined)
    let sample = try Self.sample(source)
    print("loop: camera centres off by \(before) m before, \(after) m after")
    #expect(before > 0.1)
    #expect(after < 0.2 * before)
    // The frames are rendered from the true poses: under them the capture has no drift.
    let reference = sample.measure((0..<count).map(source.truePose))
    let ghosting = sample.measure(refined.poses)
    let drifted = sample.measure(refined.originalPoses)
    let far = try #require(ghosting.farMedianMeters)
    let floor = try #require(reference.farMedianMeters)
    print("loop ghosting: drifted \(drifted), refined \(ghosting), undrifted \(reference)")
    #expect(far <= 1.2 * floor, "ghosting \(far) m refined, \(floor) m undrifted")
    // Surfaces more than `GhostingSample.limitMeters` apart count as unseen, so a drift
    // of 10 cm shows as less overlap more than as a larger distance.
    #expect(try #require(drifted.farMedianMeters) > 1.2 * far)
  }

  /// Two views of a plane 2.05 m ahead (the middle of its voxels), one pose 1 cm further back along the optical axis:
  /// every point lies exactly 1 cm from the other frame's plane, both ways.
  @Test func ghostingIsThePointToPlaneDistanceBetweenFrames() throws {
    var points: [SIMD3<Float>] = []
    for v in -10...10 {
      for u in -10...10 { points.append(SIMD3(Float(u) * 0.05, Float(v) * 0.05, 2.05)) }
    }
    let frame = AlignmentFrame(
      timestampSeconds: 0, pointsInCamera: points,
      normalsInCamera: Array(repeating: SIMD3(0, 0, -1), count: points.count),
      worldFromCamera: .identity)
    let back = Transform3D(axisAngle: .zero, translation: SIMD3(0, 0, -0.01))
    let sample = GhostingSample(
      frames: [0: frame, 6: frame, 200: frame], far: [FramePair(0, 200)], near: [FramePair(0, 6)],
      voxelSizeMeters: 0.1)
    var poses = Array(repeating: Transform3D.identity, count: 201)
    poses[200] = back
    let ghosting = sample.measure(poses)
    let far = try #require(ghosting.farMedianMeters)
    #expect(abs(far - 0.01) < 1e-5, "far \(far) m")
    #expect(ghosting.nearMedianMeters == 0)
    #expect(ghosting.farPairs == 1 && ghosting.nearPairs == 1)
  }

  /// Good poses stay good: on the undrifted loop, refinement moves no camera by more
  /// than 3 mm and the ghosting stays where it was.
  @Test func exactPosesOnALoopStayPut() throws {
    let count = 60
    let source = SyntheticRecordingSource(options: Self.options(frames: count))
    let refined = try DriftAlignment.run(source, refine: true)
    for index in 0..<count {
      let moved = DriftAlignmentTests.distance(
        refined.poses[index].position, source.pose(at: index).position)
      #expect(moved < 0.003, "frame \(index) moved \(moved) m")
    }
    let sample = try Self.sample(source)
    let before = try #require(sample.measure(refined.originalPoses).farMedianMeters)
    let after = try #require(sample.measure(refined.poses).farMedianMeters)
    #expect(after <= 1.05 * before, "ghosting \(before) m recorded, \(after) m refined")
  }
}
