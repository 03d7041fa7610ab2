import Foundation
import Testing

@testable import CloudScrubCore

/// Refinement's gravity prior: its terms worked out by hand, the exact (yaw and
/// translation) registration keeping a frame's up direction, and refinement of a
/// synthetic capture whose recorded poses are gravity-aligned (its drift is a yaw and a
/// shift) keeping every camera's up within a stated angle of gravity while still taking
/// the drift back.
@Suite struct GravityPriorTests {
  static let up = SIMD3<Double>(0, 1, 0)

  static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let cosine = (a * b).sum() / ((a * a).sum() * (b * b).sum()).squareRoot()
    return acos(min(max(cosine, -1), 1))
  }

  @Test func theSoftPriorsTermsAreTheTiltsInformationAndGradient() {
    // A correction tilting up (0, 1, 0) by θ about z: v = (−sin θ, cos θ, 0).
    let theta = 0.01
    let pose = Transform3D(axisAngle: SIMD3(0, 0, theta))
    let prior = GravityPrior(up: Self.up, recordedWorldFromCamera: .identity, information: 1e4)
    var h = [Double](repeating: 0, count: 36)
    var g = [Double](repeating: 0, count: 6)
    prior.add(to: &h, &g, under: pose)
    let v = SIMD3(-sin(theta), cos(theta), 0)
    // H = λ (I − v vᵀ) in the rotation block (upper triangle), g = λ (up × v).
    #expect(abs(h[0] - 1e4 * (1 - v.x * v.x)) < 1e-9)
    #expect(abs(h[1] - 1e4 * (-v.x * v.y)) < 1e-9)
    #expect(abs(h[7] - 1e4 * (1 - v.y * v.y)) < 1e-9)
    #expect(abs(h[14] - 1e4) < 1e-9)
    #expect(h[3...5].allSatisfy { $0 == 0 } && h[21] == 0)
    // up × v = (0, 1, 0) × (−sin θ, cos θ, 0) = (0, 0, sin θ).
    #expect(abs(g[0]) < 1e-12 && abs(g[1]) < 1e-12 && abs(g[2] - 1e4 * sin(theta)) < 1e-9)
    #expect(g[3...].allSatisfy { $0 == 0 })
    // The step −H⁻¹g about z is −sin θ / (1 − v_z²) = −sin θ: the tilt taken back.
  }

  /// A flat wall 1.01 m in front of an OpenCV camera (the middle of a 2 cm voxel layer,
  /// so that points a little off it on either side still find its planes): 81 × 81
  /// points 1 cm apart, normals facing the camera.
  static func wall(pose: Transform3D) -> AlignmentFrame {
    var frame = MotionPriorTests.wall(pose: pose)
    frame.pointsInCamera = frame.pointsInCamera.map { SIMD3($0.x, $0.y, 1.01) }
    return frame
  }

  static func model() -> SurfelVoxelMap {
    var model = SurfelVoxelMap(voxelSizeMeters: 0.02)
    let frame = wall(pose: .identity)
    model.add(points: frame.pointsInCamera, normals: frame.normalsInCamera, weight: 1)
    return model
  }

  @Test func theExactPriorTurnsOnlyAboutTheVertical() throws {
    // The wall seen from the identity as the model; the frame starts turned 1° about x
    // (a tilt) and 3° about y (a yaw) and shifted 5 mm. Recorded pose = the start: the
    // exact prior keeps its up direction, however the wall pulls, and corrects the rest.
    let start =
      Transform3D(
        axisAngle: SIMD3(Double.pi / 180, 0, 0), translation: SIMD3(0.005, 0, 0.005))
      * Transform3D(axisAngle: SIMD3(0, 3 * Double.pi / 180, 0))
    var model = Self.model()
    let gravity = GravityPrior(up: Self.up, recordedWorldFromCamera: start, information: nil)
    let result = PointToPlaneRegistration(options: AlignmentOptions()).register(
      Self.wall(pose: start), to: &model, from: start, gravity: gravity)
    #expect(result.matches > 6000)
    let correction = result.worldFromCamera * start.rigidInverse
    #expect(Self.angle(correction.rotate(Self.up), Self.up) < 1e-9)
    // The yaw is taken back: the camera's forward axis, turned 3° towards +x at the
    // start, points along the wall's normal again but for the tilt (x within 0.05°).
    let forward = result.worldFromCamera.rotate(SIMD3(0, 0, 1))
    #expect(abs(forward.x) < 0.05 * Double.pi / 180, "\(forward)")
    // The points' centre (0, 0, 1.01) in the camera, off the wall (z = 1.01) by 3.5 mm
    // at the start, is back on it.
    let centre = SIMD3<Double>(0, 0, 1.01)
    #expect(abs(start.apply(to: centre).z - 1.01) > 0.003)
    #expect(abs(result.worldFromCamera.apply(to: centre).z - 1.01) < 0.001)
    // Without the prior the wall turns the tilt back too (1°, to within 0.1°).
    var free = Self.model()
    let unheld = PointToPlaneRegistration(options: AlignmentOptions()).register(
      Self.wall(pose: start), to: &free, from: start)
    let turned = (unheld.worldFromCamera * start.rigidInverse).rotate(Self.up)
    #expect(abs(Self.angle(turned, Self.up) - Double.pi / 180) < 0.1 * Double.pi / 180)
  }

  /// The largest angle between a camera's up under `poses` and under the true poses,
  /// and the largest camera-centre error, over the capture.
  static func offsets(_ source: SyntheticRecordingSource, _ poses: [CameraPose]) -> (
    tiltRadians: Double, centreMeters: Double
  ) {
    var tilt = 0.0
    var centre = 0.0
    for index in 0..<source.frameCount {
      let truth = source.truePose(at: index)
      let correction = poses[index].worldFromCamera * truth.worldFromCamera.rigidInverse
      tilt = max(tilt, WorldUp.y.tiltRadians(of: correction))
      let d = poses[index].position - truth.position
      centre = max(centre, (d * d).sum().squareRoot())
    }
    return (tilt, centre)
  }

  @Test func refinementKeepsAGravityAlignedCaptureLevelAndTakesItsDriftBack() throws {
    let drift = SyntheticDrift(translationMeters: 0.1, rotationRadians: 3 * Double.pi / 180)
    let source = SyntheticRecordingSource(
      options: DriftAlignmentTests.options(frames: 45, drift: drift))
    let before = Self.offsets(source, (0..<source.frameCount).map { source.pose(at: $0) })
    #expect(before.tiltRadians < 1e-9)  // a yaw and a shift: every recorded up is true
    // `--hold-tilt`: the exact prior.
    let held = AlignmentOptions(tiltPriorRadians: 0)
    let refined = try DriftAlignment.run(source, options: held, refine: true)
    let after = Self.offsets(source, refined.poses)
    print(
      "gravity prior: up within \(after.tiltRadians * 180 / Double.pi)° of gravity, "
        + "centres \(before.centreMeters) m → \(after.centreMeters) m")
    #expect(after.tiltRadians < GravityPriorTests.statedTiltRadians)
    #expect(after.centreMeters < 0.2 * before.centreMeters)
  }

  @Test func theDefaultTakesBackADriftThatTiltsWhichHoldingTheTiltCannot() throws {
    // The same drift with 2° about +z on top: a tilt ARKit's gravity would not allow.
    let drift = SyntheticDrift(
      translationMeters: 0.1, rotationRadians: 3 * Double.pi / 180,
      tiltRadians: 2 * Double.pi / 180)
    let source = SyntheticRecordingSource(
      options: DriftAlignmentTests.options(frames: 45, drift: drift))
    let before = Self.offsets(source, (0..<source.frameCount).map { source.pose(at: $0) })
    #expect(before.tiltRadians > 1.9 * Double.pi / 180)
    let free = Self.offsets(source, try DriftAlignment.run(source, refine: true).poses)
    #expect(free.centreMeters < 0.2 * before.centreMeters)
    #expect(free.tiltRadians < 0.5 * Double.pi / 180)
    let held = try DriftAlignment.run(
      source, options: AlignmentOptions(tiltPriorRadians: 0), refine: true)
    // Held, the recorded tilt stays whatever the points say.
    #expect(Self.offsets(source, held.poses).tiltRadians > 1.9 * Double.pi / 180)
  }

  /// The angle refinement's cameras stay within of gravity on a gravity-aligned
  /// capture (`--hold-tilt`).
  static let statedTiltRadians = 0.05 * Double.pi / 180
}
