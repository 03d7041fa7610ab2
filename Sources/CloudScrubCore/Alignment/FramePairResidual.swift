/// How well two frames agree under their poses: the symmetric point-to-plane residual,
/// a measure of ghosting that does not depend on the alignment pass's own model.
///
/// Each frame's subsampled points (under its pose) are looked up in a voxel map of the
/// other frame's (`SurfelVoxelMap`, voxels of `voxelSizeMeters`); a point whose voxel
/// has a plane and lies within `limitMeters` of it counts, and the residual is the
/// median of those distances over both directions. Points farther than the limit are
/// on surfaces the other frame did not see (or sees doubled), so `overlap`, the
/// fraction of both frames' points that counted, drops as frames ghost apart.
public struct FramePairResidual: Equatable, Sendable {
  /// The median point-to-plane distance of the points that counted, metres; nil when
  /// none did.
  public var medianMeters: Float?
  /// The fraction of both frames' points within the limit of a plane of the other.
  public var overlap: Double

  /// The residual of `a` under `poseA` and `b` under `poseB` (each world-from-OpenCV
  /// camera, as `AlignmentFrame.worldFromCamera`).
  public init(
    _ a: AlignmentFrame, _ poseA: Transform3D, _ b: AlignmentFrame, _ poseB: Transform3D,
    voxelSizeMeters: Float, limitMeters: Float = 0.01
  ) {
    var distances = Self.distances(
      a, poseA, b, poseB, voxelSizeMeters: voxelSizeMeters, limitMeters: limitMeters)
    let total = a.pointsInCamera.count + b.pointsInCamera.count
    distances.sort()
    medianMeters = distances.isEmpty ? nil : distances[distances.count / 2]
    overlap = total > 0 ? Double(distances.count) / Double(total) : 0
  }

  /// Each frame's points (under its pose) against the planes of a voxel map of the
  /// other's, both ways: the distances under `limitMeters`.
  static func distances(
    _ a: AlignmentFrame, _ poseA: Transform3D, _ b: AlignmentFrame, _ poseB: Transform3D,
    voxelSizeMeters: Float, limitMeters: Float
  ) -> [Float] {
    let worldA = world(a, poseA)
    let worldB = world(b, poseB)
    var distances: [Float] = []
    for (from, to) in [(worldA, worldB), (worldB, worldA)] {
      var map = SurfelVoxelMap(voxelSizeMeters: voxelSizeMeters)
      map.add(points: to.points, normals: to.normals, weight: 1)
      for p in from.points {
        guard let plane = map.plane(containing: p) else { continue }
        let r = abs((plane.normal * (p - plane.point)).sum())
        if r < limitMeters { distances.append(r) }
      }
    }
    return distances
  }

  private static func world(_ frame: AlignmentFrame, _ pose: Transform3D) -> (
    points: [SIMD3<Float>], normals: [SIMD3<Float>]
  ) {
    let transform = FloatRigid(pose)
    return (frame.pointsInCamera.map(transform.apply), frame.normalsInCamera.map(transform.rotate))
  }
}
