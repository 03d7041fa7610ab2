import CloudScrubCore
import Foundation
import Testing

/// Per-frame pose corrections worked out by hand.
@Suite struct FramePoseCorrectionsTests {
  /// Frame 0 stays; frame 1's camera was recorded 1 m along x of where refinement puts
  /// it, and turned a quarter about z.
  static let original = [
    CameraPose(worldFromCamera: .identity, axes: .openCV),
    CameraPose(
      worldFromCamera: Transform3D(axisAngle: .zero, translation: SIMD3(1, 0, 0)), axes: .openGL),
  ]
  static let refined = [
    CameraPose(worldFromCamera: .identity, axes: .openCV),
    CameraPose(
      worldFromCamera: Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: .zero),
      axes: .openGL),
  ]

  @Test func aCorrectionMapsTheRecordedPointOntoTheRefinedOne() {
    let corrections = FramePoseCorrections(
      original: Self.original, refined: Self.refined, frames: [0, 1])
    #expect(corrections.refinedFromOriginal[0] == .identity)
    // A point 2 m in front of frame 1's camera (OpenGL: -z): recorded at (1, 0, -2),
    // refined at R (0, 0, -2) = (0, 0, -2); and (1, 1, 0) in camera: recorded (2, 1, 0),
    // refined (-1, 1, 0).
    let c = corrections.refinedFromOriginal[1]
    for (recorded, refined) in [
      (SIMD3<Double>(1, 0, -2), SIMD3<Double>(0, 0, -2)),
      (SIMD3(2, 1, 0), SIMD3(-1, 1, 0)),
    ] {
      let moved =
        c.columns.0 * recorded.x + c.columns.1 * recorded.y + c.columns.2 * recorded.z
        + c.columns.3
      #expect(abs(moved.x - refined.x) < 1e-12)
      #expect(abs(moved.y - refined.y) < 1e-12)
      #expect(abs(moved.z - refined.z) < 1e-12)
    }
    // The recorded camera centre (1, 0, 0) goes to the refined one (0, 0, 0):
    // R (1, 0, 0) + t = 0 gives t = (0, -1, 0), 1 m; the angle is π/2.
    #expect(abs(corrections.largestDisplacementMeters(radiusMeters: 0) - 1) < 1e-12)
    #expect(
      abs(corrections.largestDisplacementMeters(radiusMeters: 2) - (1 + Double.pi)) < 1e-12)
  }

  @Test func appliedMovesEachFramesPointsAndRotatesNormals() {
    let corrections = FramePoseCorrections(
      original: Self.original, refined: Self.refined, frames: [0, 1])
    var cloud = PointCloud(
      positions: [Point3(5, 6, 7), Point3(1, 0, -2), Point3(2, 1, 0)],
      colors: [RGB8(1, 2, 3), RGB8(4, 5, 6), RGB8(7, 8, 9)])
    cloud.normals = [Point3(0, 0, 1), Point3(1, 0, 0), Point3(0, 1, 0)]
    let moved = corrections.applied(to: cloud, frameRanges: [0, 1, 3])
    #expect(moved.positions[0] == Point3(5, 6, 7))
    #expect(Self.near(moved.positions[1], Point3(0, 0, -2)))
    #expect(Self.near(moved.positions[2], Point3(-1, 1, 0)))
    #expect(moved.colors == cloud.colors)
    #expect(moved.normals?[0] == Point3(0, 0, 1))
    // A quarter turn about z: x goes to y, y to -x.
    #expect(moved.normals.map { Self.near($0[1], Point3(0, 1, 0)) } == true)
    #expect(moved.normals.map { Self.near($0[2], Point3(-1, 0, 0)) } == true)
    // A frame a correction does not name stays.
    let short = FramePoseCorrections(refinedFromOriginal: [.identity])
    #expect(short.applied(to: cloud, frameRanges: [0, 1, 3]) == cloud)
  }

  /// Equal to within the rounding of a quarter turn's cosine (about 1e-16).
  static func near(_ a: Point3, _ b: Point3) -> Bool {
    max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z)) < 1e-6
  }
}
