import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// Fusion of a sphere seen from all round, against the sphere itself.
@Suite struct SphereFusionTests {
  static let radius = 0.3
  static let voxel: Float = 0.01

  /// The fused sphere, worked out once for the suite's tests.
  static let fused: RecordingFusion.Result = {
    let fusion = RecordingFusion(
      loader: RecordingLoader(
        source: SphereCapture.recording(radius: radius),
        unprojection: UnprojectionOptions(flyingPixels: nil)),
      options: FusionOptions(voxelSizeMeters: voxel))
    do {
      return try fusion.run()
    } catch {
      preconditionFailure("fusion failed: \(error)")
    }
  }()

  @Test func verticesLieOnTheSphere() {
    let mesh = Self.fused.mesh
    #expect(mesh.vertexCount > 10_000)
    let errors = mesh.positions.map { p in
      abs(
        (Double(p.x) * Double(p.x) + Double(p.y) * Double(p.y) + Double(p.z) * Double(p.z))
          .squareRoot() - Self.radius)
    }.sorted()
    // A depth pixel is half a voxel wide here, and the lookup takes the nearest one:
    // median within a tenth of a voxel, every vertex within 0.35.
    #expect(errors[errors.count / 2] < 0.1 * Double(Self.voxel))
    #expect(errors.last! < 0.35 * Double(Self.voxel))
  }

  @Test func areaIsTheSpheresWithinOnePercent() {
    let area = Self.fused.mesh.area
    let truth = 4 * Double.pi * Self.radius * Self.radius
    #expect(abs(area - truth) / truth < 0.01, "area \(area) m², sphere \(truth) m²")
  }

  /// Closed and consistently wound: every edge is used by exactly two triangles, once in
  /// each direction; each triangle's normal points out of the sphere.
  @Test func surfaceIsClosedAndFacesOutwards() {
    let mesh = Self.fused.mesh
    var directed: [UInt64: Int] = [:]
    for t in mesh.triangles {
      for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
        directed[UInt64(a) << 32 | UInt64(b), default: 0] += 1
      }
    }
    let unpaired = directed.filter { key, count in
      count != 1 || directed[(key & 0xFFFF_FFFF) << 32 | key >> 32] != 1
    }
    #expect(unpaired.count == 0, "directed edges without a single twin")
    let inward = mesh.triangles.filter { t in
      let a = SIMD3<Double>(mesh.positions[Int(t.x)])
      let n = (SIMD3<Double>(mesh.positions[Int(t.y)]) - a).cross(
        SIMD3<Double>(mesh.positions[Int(t.z)]) - a)
      return (n * a).sum() <= 0
    }
    #expect(inward.count == 0)
    #expect(Set(mesh.positions).count == mesh.vertexCount, "no vertex repeated")
  }

  @Test func coloursFollowTheHemispheres() {
    let mesh = Self.fused.mesh
    var wrong = 0
    var checked = 0
    for (p, c) in zip(mesh.positions, mesh.colors) where abs(p.y) > 0.05 {
      checked += 1
      let red = c.r > 200 && c.b < 55
      let blue = c.b > 200 && c.r < 55
      if p.y > 0 ? !red : !blue { wrong += 1 }
    }
    #expect(checked > 5_000)
    #expect(wrong == 0)
  }

  @Test func normalsPointOutwards() {
    let mesh = Self.fused.mesh
    #expect(mesh.normals.count == mesh.vertexCount)
    let worst = zip(mesh.positions, mesh.normals).map { p, n in
      let radial = SIMD3<Double>(p) / (SIMD3<Double>(p) * SIMD3<Double>(p)).sum().squareRoot()
      return (radial * SIMD3<Double>(n)).sum()
    }.min()!
    #expect(worst > 0.9)
  }
}
