import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// Hand-made triangles for the CPU rasterizer, with the projection of
/// `CPURasterizerTests` (90° frustum, near 1 m, far 3 m, camera at the origin looking
/// down -z, 100 × 100 pixels): a point at z = -2 has window depth 0.75 and lands at
/// window (25 x + 50, 25 y + 50).
@Suite struct CPUTriangleTests {
  static let size = CPURasterizerTests.size

  static func draw(_ mesh: TriangleMesh, workers: Int = 1, mode: PointColorMode = .rgb)
    -> CPUSceneImage
  {
    let rasterizer = CPUPointRasterizer(workerCount: workers)
    rasterizer.begin(widthPixels: size, heightPixels: size, background: SIMD3(0.1, 0.1, 0.1))
    rasterizer.draw(mesh, uniforms: CPURasterizerTests.uniforms(mode: mode))
    return rasterizer.resolvedImage()
  }

  /// A square at z = -2 from (-1, -1) to (1, 1), facing the camera, as two triangles.
  static func square(color: RGB8 = RGB8(255, 0, 0)) -> TriangleMesh {
    TriangleMesh(
      positions: [Point3(-1, -1, -2), Point3(1, -1, -2), Point3(1, 1, -2), Point3(-1, 1, -2)],
      colors: Array(repeating: color, count: 4),
      normals: Array(repeating: Point3(0, 0, 1), count: 4),
      triangles: [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
  }

  @Test func aSquareCoversExactlyItsPixelsAtItsDepthWithNoSeam() {
    // Window 25…75 both ways: pixel centres 25.5…74.5, 50 × 50 of them, the diagonal's
    // centres given to one triangle or the other but none left out.
    let image = Self.draw(Self.square())
    let covered = CPURasterizerTests.covered(image)
    #expect(covered.count == 2_500)
    #expect(covered.allSatisfy { (25...74).contains($0[0]) && (25...74).contains($0[1]) })
    #expect(image.depth[50 * Self.size + 50] == 0.75)
    // Each corner sees the camera at 2 / √6 of head-on: red × (0.35 + 0.65 × 0.8165).
    let shade = MeshShading.ambient + (1 - MeshShading.ambient) * 2 / Float(6).squareRoot()
    let pixel = image.color(x: 40, y: 60)
    #expect(pixel.r == UInt8((255 * shade).rounded()) && pixel.g == 0 && pixel.b == 0)
    #expect(pixel.a == 255)
    // The same picture when the triangles are shared among workers, wound either way.
    var flipped = Self.square()
    flipped.triangles = [SIMD3(0, 2, 1), SIMD3(0, 3, 2)]
    #expect(Self.draw(flipped, workers: 3) == image)
  }

  @Test func depthIsInterpolatedInWindowSpace() {
    // Base at z = -2 (depth 0.75) from window (25, 25) to (75, 25); apex at (0, 1, -1.5):
    // clip (0, 1, 0, 1.5), window (50, 83.33), depth 0.5. The apex's weight at a pixel
    // centre is its height above the base over the apex's.
    let mesh = TriangleMesh(
      positions: [Point3(-1, -1, -2), Point3(1, -1, -2), Point3(0, 1, -1.5)],
      triangles: [SIMD3(0, 1, 2)])
    let image = Self.draw(mesh)
    for y in [30, 54, 70] {
      let apex = (Float(y) + 0.5 - 25) / (250.0 / 3 - 25)
      let expected = 0.75 - 0.25 * apex
      #expect(abs(image.depth[y * Self.size + 50] - expected) < 1e-5, "row \(y)")
    }
    // A mesh without colours is drawn in the plain colour, unlit when it has no normals.
    let pixel = image.color(x: 50, y: 40)
    #expect(pixel.r == MeshShading.plainColor.r && pixel.a == 255)
  }

  @Test func aFloorReachingBehindTheCameraIsClippedAtTheNearPlane() {
    // The floor y = -1 from z = +1 (behind the eye) to z = -2.9: seen from the near
    // plane (z = -1, the bottom edge) to window y = (1 - 1/2.9) × 50 = 32.76.
    let mesh = TriangleMesh(
      positions: [Point3(-9, -1, 1), Point3(9, -1, 1), Point3(9, -1, -2.9), Point3(-9, -1, -2.9)],
      normals: Array(repeating: Point3(0, 1, 0), count: 4),
      triangles: [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
    let image = Self.draw(mesh)
    let covered = CPURasterizerTests.covered(image)
    let rows = Set(covered.map { $0[1] })
    #expect(rows == Set(0...32))
    #expect(covered.count == 33 * Self.size)
    // Depth grows from the near plane (0) at the bottom toward the far rows.
    #expect(image.depth[0] < 0.05)
    #expect(image.depth[32 * Self.size] > image.depth[10 * Self.size])
  }

  @Test func badIndicesAndEdgeOnTrianglesDrawNothing() {
    var mesh = Self.square()
    mesh.triangles = [SIMD3(0, 1, 7), SIMD3(0, 1, 1), SIMD3(UInt32.max, 0, 1)]
    #expect(CPURasterizerTests.covered(Self.draw(mesh)).isEmpty)
  }

  @Test func theHeightModeColoursByTheRamp() {
    // Up is +y: the square spans heights -1…1 over a 0…1 range, so its top half is the
    // ramp's red end (0.92, 0.18, 0.12) darkened by the light.
    let image = Self.draw(Self.square(), mode: .height)
    let top = image.color(x: 50, y: 72)
    #expect(top.r > 150 && top.g < 60 && top.b < 40)
    let bottom = image.color(x: 50, y: 27)
    #expect(bottom.b > 150 && bottom.r < 60)
  }
}
