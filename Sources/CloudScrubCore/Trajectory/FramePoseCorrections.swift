import Foundation

/// Each loaded frame's rigid correction from the pose its points were unprojected with
/// to a refined pose: `refinedFromOriginal[f] = refinedWorldFromCamera ×
/// originalWorldFromCamera⁻¹`, a world-space transform, so a point of frame `f`
/// unprojected with the original pose lands where the refined pose puts it after
/// `refinedFromOriginal[f]`.
///
/// The window draws with these as per-frame model transforms (no point is uploaded
/// again) and the cleaning preview applies them with `applied(to:frameRanges:)` (the
/// export unprojects again with the refined poses instead).
public struct FramePoseCorrections: Equatable, Sendable {
  /// One transform a loaded frame, in the loaded frames' order.
  public var refinedFromOriginal: [Transform3D]

  public init(refinedFromOriginal: [Transform3D]) {
    self.refinedFromOriginal = refinedFromOriginal
  }

  /// The corrections of the loaded frames `frames` (recording frame indices), from the
  /// recording's poses and the refined ones (one a recording frame each). Both poses
  /// of a frame are taken in the same camera axes, so the axes cancel.
  ///
  /// A frame index outside `refined` or `original` keeps the identity.
  public init(original: [CameraPose], refined: [CameraPose], frames: [Int]) {
    refinedFromOriginal = frames.map { frame in
      guard original.indices.contains(frame), refined.indices.contains(frame) else {
        return .identity
      }
      return refined[frame].worldFromOpenCVCamera
        * original[frame].worldFromOpenCVCamera.rigidInverse
    }
  }

  public var count: Int { refinedFromOriginal.count }

  /// Whether every correction is the identity (nothing would move).
  public var isIdentity: Bool { refinedFromOriginal.allSatisfy { $0 == .identity } }

  /// The corrections as single-precision matrices for the renderers.
  public var matrices: [Matrix4] { refinedFromOriginal.map { Matrix4($0) } }

  /// The furthest any correction moves a point within `radiusMeters` of the origin:
  /// its translation plus its rotation angle times the radius (the chord a rotation
  /// sweeps is shorter than that arc). Grows bounds for culling corrected points.
  public func largestDisplacementMeters(radiusMeters: Double) -> Double {
    refinedFromOriginal.map { correction in
      let t = correction.translation
      let trace = correction[0, 0] + correction[1, 1] + correction[2, 2]
      let angle = acos(min(1, max(-1, (trace - 1) / 2)))
      return (t * t).sum().squareRoot() + angle * radiusMeters
    }.max() ?? 0
  }

  /// `cloud` with frame `f`'s points (`frameRanges[f]..<frameRanges[f + 1]`) moved by
  /// `refinedFromOriginal[f]` (normals rotated with them), in double precision and
  /// rounded once. Points past the last range, or of a frame with no correction, stay.
  public func applied(to cloud: PointCloud, frameRanges: [Int]) -> PointCloud {
    var result = cloud
    let frames = min(count, max(0, frameRanges.count - 1))
    for frame in 0..<frames {
      let range = frameRanges[frame]..<frameRanges[frame + 1]
      let points = range.clamped(to: 0..<cloud.count)
      guard !points.isEmpty else { continue }
      let c = refinedFromOriginal[frame].columns
      result.positions.withUnsafeMutableBufferPointer { positions in
        for index in points {
          let p = positions[index]
          let moved =
            c.0 * Double(p.x) + c.1 * Double(p.y) + c.2 * Double(p.z) + c.3
          positions[index] = Point3(Float(moved.x), Float(moved.y), Float(moved.z))
        }
      }
      if result.normals != nil {
        for index in points {
          guard let n = result.normals?[index] else { continue }
          let turned = c.0 * Double(n.x) + c.1 * Double(n.y) + c.2 * Double(n.z)
          result.normals?[index] = Point3(Float(turned.x), Float(turned.y), Float(turned.z))
        }
      }
    }
    return result
  }
}
