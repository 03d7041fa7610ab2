import Foundation
import Testing

@testable import CloudScrubCore

/// The alignment error and pose refinement on synthetic captures with a known drift:
/// depth rendered from the true camera path, poses drifted.
@Suite struct DriftAlignmentTests {
  /// A small-colour synthetic capture (colour plays no part in alignment) with mild
  /// depth noise (σ 0.5 mm · depth²: 3 mm at 2.5 m), so that planes are fitted to
  /// imperfect points as on a phone.
  static func options(frames: Int, drift: SyntheticDrift? = nil) -> SyntheticRecordingOptions {
    SyntheticRecordingOptions(
      frameCount: frames, colorWidth: 64, colorHeight: 48, depthNoiseMeters: 0.0005, seed: 7,
      drift: drift)
  }

  static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
  }

  /// The largest distance of a camera centre from the true one, under the stored
  /// (drifted) poses and under `refined`'s.
  static func worstOffsets(
    _ source: SyntheticRecordingSource, _ refined: DriftAlignment.Result
  ) -> (before: Double, after: Double) {
    var before = 0.0
    var after = 0.0
    for index in 0..<source.frameCount {
      let truth = source.truePose(at: index).position
      before = max(before, distance(source.pose(at: index).position, truth))
      after = max(after, distance(refined.poses[index].position, truth))
    }
    return (before, after)
  }

  /// The same recording with every pose from frame `first` on moved by `step` (world
  /// space): a tracking jump at `first`.
  static func stepped(
    _ source: SyntheticRecordingSource, from first: Int, by step: Transform3D
  ) throws -> PosesReplacedRecording {
    let poses = (0..<source.frameCount).map { index in
      var pose = source.pose(at: index)
      if index >= first { pose.worldFromCamera = step * pose.worldFromCamera }
      return pose
    }
    return try PosesReplacedRecording(source, poses: poses)
  }

  @Test func driftIsZeroAtTheFirstFrameAndTheGivenAmountAtTheLast() throws {
    let drift = SyntheticDrift(translationMeters: 0.1, rotationRadians: 0)
    let source = SyntheticRecordingSource(options: Self.options(frames: 11, drift: drift))
    #expect(source.pose(at: 0) == source.truePose(at: 0))
    let last = source.pose(at: 10).position - source.truePose(at: 10).position
    #expect(abs(last.x - 0.1) < 1e-12 && abs(last.y) < 1e-12 && abs(last.z) < 1e-12)
    // Smoothstep: half way at the middle frame.
    let middle = source.pose(at: 5).position - source.truePose(at: 5).position
    #expect(abs(middle.x - 0.05) < 1e-12)
    // A pure yaw about the first camera centre leaves that centre where it is and turns
    // the last camera by the angle.
    let yaw = SyntheticDrift(translationMeters: 0, rotationRadians: 0.1)
    let turned = SyntheticRecordingSource(options: Self.options(frames: 11, drift: yaw))
    let r =
      turned.pose(at: 10).worldFromCamera
      * turned.truePose(at: 10).worldFromCamera
      .rigidInverse
    #expect(abs(r[0, 0] - cos(0.1)) < 1e-12 && abs(r[0, 2] - sin(0.1)) < 1e-12)
    let pivot = turned.truePose(at: 0).position
    #expect(Self.distance(r.apply(to: pivot), pivot) < 1e-12)
  }

  @Test func driftedFramesKeepTheTrueDepthAndCarryTheDriftedPose() throws {
    let drift = SyntheticDrift(translationMeters: 0.2, rotationRadians: 0.05)
    let drifted = SyntheticRecordingSource(options: Self.options(frames: 3, drift: drift))
    let exact = SyntheticRecordingSource(options: Self.options(frames: 3))
    let a = try drifted.frame(at: 2)
    let b = try exact.frame(at: 2)
    #expect(a.depth == b.depth)
    #expect(a.pose == drifted.pose(at: 2))
    #expect(a.pose != b.pose)
  }

  @Test func errorPeaksAtTheFrameWhereThePosesJump() throws {
    let source = SyntheticRecordingSource(options: Self.options(frames: 30))
    // 2 cm sideways and half a degree of yaw from frame 18 on.
    let step = Transform3D(
      axisAngle: SIMD3(0, 0.5 * Double.pi / 180, 0), translation: SIMD3(0.02, 0, 0))
    let jumped = try Self.stepped(source, from: 18, by: step)
    let result = try DriftAlignment.run(jumped, refine: false)
    let residuals = result.errors.residualsMeters
    #expect(residuals[0] == nil)
    let measured = residuals.enumerated().compactMap { pair in pair.1.map { (pair.0, $0) } }
    let peak = try #require(measured.max { $0.1 < $1.1 })
    #expect(peak.0 == 18, "error peaks at frame \(peak.0), not 18: \(residuals)")
    let before = residuals[1..<18].compactMap { $0 }
    let baseline = before.sorted()[before.count / 2]
    #expect(peak.1 > 4 * baseline, "peak \(peak.1) m against \(baseline) m before the jump")
    let stretch = try #require(result.errors.worstStretches(limit: 1).first)
    #expect(stretch.frames.contains(18) && stretch.worstFrame == 18)
  }

  /// The same 2 cm jump at frame 18: refinement names it and takes it back at that
  /// frame (registered without the motion prior), so the frames after it sit where the
  /// depth puts them; with the prior, the correction would creep back over seconds.
  @Test func aPoseJumpIsFoundAndTakenBackAtOnce() throws {
    let source = SyntheticRecordingSource(options: Self.options(frames: 30))
    let step = Transform3D(
      axisAngle: SIMD3(0, 0.5 * Double.pi / 180, 0), translation: SIMD3(0.02, 0, 0))
    let jumped = try Self.stepped(source, from: 18, by: step)
    for closesLoops in [false, true] {
      var options = AlignmentOptions()
      options.closesLoops = closesLoops
      let refined = try DriftAlignment.run(jumped, options: options, refine: true)
      #expect(refined.poseJumps == [18], "jumps found: \(refined.poseJumps)")
      for index in 18..<30 {
        let off = Self.distance(refined.poses[index].position, source.pose(at: index).position)
        #expect(off < 0.004, "frame \(index) is \(off) m off (loops: \(closesLoops))")
      }
    }
  }

  @Test func refinementBringsDriftedCamerasBackAndLowersTheError() throws {
    let drift = SyntheticDrift(translationMeters: 0.1, rotationRadians: 3 * Double.pi / 180)
    let source = SyntheticRecordingSource(options: Self.options(frames: 45, drift: drift))
    let measured = try DriftAlignment.run(source, refine: false)
    let refined = try DriftAlignment.run(source, refine: true)
    #expect(refined.poses[0] == source.pose(at: 0))
    let (driftBefore, driftAfter) = Self.worstOffsets(source, refined)
    print("synthetic drift: camera centres off by \(driftBefore) m before, \(driftAfter) m after")
    #expect(driftBefore > 0.1)
    #expect(driftAfter < 0.2 * driftBefore)
    let before = try #require(measured.errors.medianMeters)
    let after = try #require(refined.errors.medianMeters)
    #expect(after < before, "median error \(after) m after refining, \(before) m before")
  }

  @Test func exactPosesAreLeftAlmostWhereTheyAre() throws {
    let source = SyntheticRecordingSource(options: Self.options(frames: 20))
    let refined = try DriftAlignment.run(source, refine: true)
    for index in 0..<source.frameCount {
      let moved = Self.distance(refined.poses[index].position, source.pose(at: index).position)
      #expect(moved < 0.003, "frame \(index) moved \(moved) m")
    }
  }

  @Test func cancellingStopsThePass() throws {
    let source = SyntheticRecordingSource(options: Self.options(frames: 4))
    #expect(throws: CancellationError.self) {
      try DriftAlignment.run(source, refine: true, isCancelled: { true })
    }
  }
}
