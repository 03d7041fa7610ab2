import Foundation
import Testing

@testable import CloudScrubCore

/// Refinement's handling of directions the scene does not constrain, on a hand-made
/// wall: a frame that slides along the wall is not "corrected" along it (nothing there
/// says where it belongs), while its offset off the wall is; and the motion prior's
/// information is the σ it is given, worked out by hand.
@Suite struct MotionPriorTests {
  /// A flat wall 1 m in front of an OpenCV camera (z forward): 81 × 81 points 1 cm
  /// apart, normals facing the camera.
  static func wall(pose: Transform3D, time: Double = 0) -> AlignmentFrame {
    var points: [SIMD3<Float>] = []
    for row in -40...40 {
      for column in -40...40 { points.append(SIMD3(Float(column) / 100, Float(row) / 100, 1)) }
    }
    return AlignmentFrame(
      timestampSeconds: time, pointsInCamera: points,
      normalsInCamera: Array(repeating: SIMD3(0, 0, -1), count: points.count),
      worldFromCamera: pose)
  }

  /// The wall seen from the identity pose, as a model of 2 cm voxels.
  static func model() -> SurfelVoxelMap {
    var model = SurfelVoxelMap(voxelSizeMeters: 0.02)
    let frame = wall(pose: .identity)
    model.add(points: frame.pointsInCamera, normals: frame.normalsInCamera, weight: 1)
    return model
  }

  /// 1 cm and −6 mm along the wall, 5 mm off it.
  static let offset = SIMD3<Double>(0.01, -0.006, 0.005)

  @Test func aFrameSlidingAlongAWallIsCorrectedOnlyOffIt() throws {
    let start = Transform3D(axisAngle: .zero, translation: Self.offset)
    var model = Self.model()
    let result = PointToPlaneRegistration(options: AlignmentOptions()).register(
      Self.wall(pose: start), to: &model, from: start)
    #expect(result.matches > 6000)
    let t = result.worldFromCamera.translation
    // Along the wall: left where it started; off it: back on the wall.
    #expect(abs(t.x - 0.01) < 1e-5 && abs(t.y + 0.006) < 1e-5, "\(t)")
    #expect(abs(t.z) < 1e-4, "\(t)")
    let turn = result.worldFromCamera.rotationVector
    #expect((turn * turn).sum().squareRoot() < 1e-5, "\(turn)")
  }

  @Test func thePriorKeepsTheSlideAndLeavesLittleOfTheOffset() throws {
    let start = Transform3D(axisAngle: .zero, translation: Self.offset)
    var model = Self.model()
    // 60 fps at 2 cm/s: σ = 1/3 mm, information 9 × 10⁶ / m². The wall's points give
    // 6,561 / (5 mm)² ≈ 2.6 × 10⁸ / m² across it, so 9 / 271 of the 5 mm stay: 0.17 mm.
    let prior = MotionPrior(radiansPerSecond: 0.03, metersPerSecond: 0.02, seconds: 1.0 / 60)
    #expect(abs(prior.translationInformation - 9e6) < 1)
    #expect(abs(prior.rotationInformation - 4e6) < 1)
    let result = PointToPlaneRegistration(options: AlignmentOptions()).register(
      Self.wall(pose: start), to: &model, from: start, prior: prior)
    let t = result.worldFromCamera.translation
    // Along the wall within 0.1 mm of where it started (of a 1 cm and a 6 mm slide).
    #expect(abs(t.x - 0.01) < 1e-4 && abs(t.y + 0.006) < 1e-4, "\(t)")
    let expected = 0.005 * 9e6 / (9e6 + 6561 / 0.000025)
    #expect(abs(t.z - expected) < 2e-5, "off the wall by \(t.z) m, expected \(expected) m")
  }

  @Test func refiningFramesThatSlideAlongTheWallLeavesThemWhereTheAppPutThem() throws {
    // Ten frames at 30 fps whose recorded poses slide 2 mm a frame along the wall and
    // step 1 mm a frame off it: the steps off it are taken back, the slide is kept.
    var aligner = FrameAligner(refines: true)
    for index in 0..<10 {
      let recorded = Transform3D(
        axisAngle: .zero, translation: SIMD3(0.002 * Double(index), 0, 0.001 * Double(index)))
      let pose = aligner.add(Self.wall(pose: recorded, time: Double(index) / 30)).worldFromCamera
      let t = pose.translation
      #expect(abs(t.x - 0.002 * Double(index)) < 1e-4, "frame \(index): \(t)")
      #expect(abs(t.z) < 3e-4, "frame \(index): \(t)")
    }
  }

  @Test func rotationVectorInvertsAxisAngle() {
    let v = SIMD3<Double>(0.3, -0.2, 0.5)
    let back = Transform3D(axisAngle: v).rotationVector
    #expect(((back - v) * (back - v)).sum().squareRoot() < 1e-12)
    #expect(Transform3D.identity.rotationVector == .zero)
  }
}
