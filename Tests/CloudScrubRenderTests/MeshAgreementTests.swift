import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubRender

/// Meshes drawn by OpenGL (`Shaders/mesh.vert`) and by the CPU rasterizer, through the
/// same scene target, overlays and composite, held to the point pictures' tolerance
/// (`CPURasterizerAgreementTests`): at most 1 % of pixels may differ by more than 8 of
/// 255 in a channel. Measured here: no pixel of the mesh alone, at most 0.06 % with the
/// points (where the points' own paths differ).
@Suite(.serialized) struct MeshAgreementTests {
  static let width = 320
  static let height = 200

  /// A sphere of radius 0.6 about (0, 0, 0.7) and a ground square 3 m wide, coloured
  /// by position, with normals; the comparison scenes' points lie on the same shapes.
  static let mesh: TriangleMesh = {
    var mesh = TriangleMesh()
    let rings = 24
    let segments = 48
    for ring in 0...rings {
      let polar = Float.pi * Float(ring) / Float(rings)
      for segment in 0..<segments {
        let azimuth = 2 * Float.pi * Float(segment) / Float(segments)
        let n = SIMD3(sin(polar) * cos(azimuth), sin(polar) * sin(azimuth), cos(polar))
        let p = n * 0.6 + SIMD3(0, 0, 0.7)
        mesh.positions.append(Point3(p.x, p.y, p.z))
        mesh.normals.append(Point3(n.x, n.y, n.z))
        mesh.colors.append(
          RGB8(UInt8(127 + 127 * n.x), UInt8(127 + 127 * n.y), UInt8(127 + 127 * n.z)))
      }
    }
    for ring in 0..<rings {
      for segment in 0..<segments {
        let a = UInt32(ring * segments + segment)
        let b = UInt32(ring * segments + (segment + 1) % segments)
        let c = a + UInt32(segments)
        let d = b + UInt32(segments)
        mesh.triangles += [SIMD3(a, c, b), SIMD3(b, c, d)]
      }
    }
    let side = 12
    let first = UInt32(mesh.positions.count)
    for j in 0...side {
      for i in 0...side {
        let x = Float(i) / Float(side) * 3 - 1.5
        let y = Float(j) / Float(side) * 3 - 1.5
        mesh.positions.append(Point3(x, y, 0))
        mesh.normals.append(Point3(0, 0, 1))
        mesh.colors.append(RGB8(UInt8(i * 20), 180, UInt8(j * 20)))
      }
    }
    for j in 0..<side {
      for i in 0..<side {
        let a = first + UInt32(j * (side + 1) + i)
        let c = a + UInt32(side + 1)
        mesh.triangles += [SIMD3(a, a + 1, c + 1), SIMD3(a, c + 1, c)]
      }
    }
    return mesh
  }()

  static let store = ComparisonScenes.store(pointsPerFrame: 2000, frames: 3, seed: 5)

  func pictures(_ state: ViewerState, comparison: RendererComparison) throws -> (
    gl: RGBImage, cpu: RGBImage
  ) {
    let mesh = SceneMesh(Self.mesh, backend: comparison.backend)
    var pictures: [RGBImage] = []
    for renderer in [PointRenderer.gl, .cpu] {
      comparison.backend.pointDrawer = renderer.makeDrawer()
      try comparison.renderer.sync(with: Self.store)
      comparison.renderer.draw(state: state, store: Self.store, mesh: mesh)
      #expect(comparison.renderer.takeOverlayFailure() == nil)
      pictures.append(comparison.target.readPixels())
    }
    // Drawn by the CPU last: the GPU copy is freed.
    #expect(mesh.buffer == nil)
    return (pictures[0], pictures[1])
  }

  @Test(arguments: [PointColorMode.rgb, .height, .depth, .frame])
  func meshesAgreeWithOpenGL(mode: PointColorMode) throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for surface in [SurfaceShown.mesh, .both] {
      for edl in [false, true] {
        var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
        state.apply(.display(.setColorMode(mode)))
        state.apply(.display(.setSurface(surface)))
        if edl { state.apply(.display(.toggleEyeDomeLighting)) }
        let (gl, cpu) = try pictures(state, comparison: comparison)
        let differing = RendererComparison.differingFraction(gl, cpu, threshold: 8)
        #expect(differing <= 0.01, "\(mode), \(surface), EDL \(edl): \(differing * 100) %")
        #expect(RendererComparison.coveredFraction(cpu) > 0.12, "\(mode), \(surface)")
      }
    }
  }

  @Test func theMeshHidesThePointsInsideItAndShowsWhatIsInFront() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    let points = try comparison.picture(state, store: Self.store, with: .cpu)
    state.apply(.display(.setSurface(.mesh)))
    let mesh = try pictures(state, comparison: comparison).cpu
    state.apply(.display(.setSurface(.both)))
    let both = try pictures(state, comparison: comparison).cpu
    // Three different pictures: the scatter in front of the sphere shows in both.
    let threshold = 8
    #expect(RendererComparison.differingFraction(points, mesh, threshold: threshold) > 0.1)
    let meshToBoth = RendererComparison.differingFraction(mesh, both, threshold: threshold)
    #expect(meshToBoth > 0.005 && meshToBoth < 0.5)
  }
}
