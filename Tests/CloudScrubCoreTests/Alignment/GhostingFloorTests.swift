import Foundation
import Testing

@testable import CloudScrubCore

/// `GhostingSample.pairwiseFloor`: each far pair registered on its own takes away what
/// poses can take away, whatever poses it starts from, and leaves the depth's noise.
@Suite struct GhostingFloorTests {
  /// Two views of a plane 2.025 m ahead (inside the voxels of both maps), points 1 cm
  /// apart, one pose 1 cm further back along the optical axis and a near one 2 cm
  /// ahead: 1 and 2 cm apart under those poses, nothing once each pair is registered.
  @Test func aPairOneCentimetreApartRegistersToNothing() throws {
    var points: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []
    for v in -50...50 {
      for u in -50...50 {
        points.append(SIMD3(Float(u) * 0.01, Float(v) * 0.01, 2.025))
        normals.append(SIMD3(0, 0, -1))
      }
    }
    let frame = AlignmentFrame(
      timestampSeconds: 0, pointsInCamera: points, normalsInCamera: normals,
      worldFromCamera: .identity)
    let sample = GhostingSample(
      frames: [0: frame, 6: frame, 200: frame], far: [FramePair(0, 200)],
      near: [FramePair(0, 6)], voxelSizeMeters: 0.1)
    var poses = Array(repeating: Transform3D.identity, count: 201)
    poses[6] = Transform3D(axisAngle: .zero, translation: SIMD3(0, 0, 0.02))
    poses[200] = Transform3D(axisAngle: .zero, translation: SIMD3(0, 0, -0.01))
    let measured = sample.measure(poses)
    #expect(abs(try #require(measured.farMedianMeters) - 0.01) < 1e-5)
    #expect(abs(try #require(measured.nearMedianMeters) - 0.02) < 1e-5)
    let floor = try #require(sample.pairwiseFloor(poses, options: AlignmentOptions()))
    #expect(floor < 1e-4, "floor \(floor) m")
    // The near pair, 2 cm apart, registered the same way when asked for.
    let near = try #require(
      sample.pairwiseFloor(poses, options: AlignmentOptions(), pairs: sample.near))
    #expect(near < 1e-4, "near pair registered alone \(near) m")
  }

  /// The loop with 3 cm and 1° of drift: the far pairs lie well apart under the drifted
  /// poses, and registered alone they come as close as under the true poses (the
  /// frames were rendered from those, so only the depth's noise parts them there).
  @Test func theFloorUnderDriftedPosesIsThatOfTheTrueOnes() throws {
    let drift = SyntheticDrift(translationMeters: 0.03, rotationRadians: Double.pi / 180)
    let count = 90
    let source = SyntheticRecordingSource(
      options: LoopClosureTests.options(frames: count, drift: drift))
    let sample = try LoopClosureTests.sample(source)
    #expect(sample.far.count >= 10)
    let recorded = (0..<count).map { source.pose(at: $0).worldFromOpenCVCamera }
    let truth = (0..<count).map(source.truePose)
    let drifted = try #require(sample.measure(recorded).farMedianMeters)
    let undrifted = try #require(sample.measure(truth).farMedianMeters)
    let floor = try #require(sample.pairwiseFloor(recorded, options: AlignmentOptions()))
    print("far pairs: drifted \(drifted) m, true poses \(undrifted) m, registered alone \(floor) m")
    #expect(drifted > 2 * undrifted)
    #expect(floor <= 1.2 * undrifted, "floor \(floor) m, true poses \(undrifted) m")
  }
}
