import CloudScrubCore
import CloudScrubRender
import Foundation

extension RenderBenchmark {
  /// Whole frames of a mesh of about `triangles` triangles filling the view (a rippled
  /// sheet across the benchmark's 10 m scene, each triangle a few pixels), drawn by the
  /// CPU rasterizer and by OpenGL through the same scene target, in the same run.
  func meshFrames(
    _ scene: SceneRenderer, _ target: OffscreenTarget, state: ViewerState, triangles: Int,
    into report: inout BenchReport
  ) throws {
    let mesh = Self.sheet(triangles: triangles)
    let shown = SceneMesh(mesh, backend: scene.backend)
    var meshOnly = state
    meshOnly.apply(.display(.setSurface(.mesh)))
    report.section(
      "a mesh of \(Self.grouped(mesh.triangles.count)) triangles filling "
        + "\(widthPixels)×\(heightPixels), shaded")
    let empty = PointStore()
    var frames: [PointRenderer: Double] = [:]
    for pointRenderer in [PointRenderer.cpu, .gl] {
      scene.backend.pointDrawer = pointRenderer.makeDrawer()
      scene.draw(state: meshOnly, store: empty, mesh: shown)  // warm: the upload
      _ = target.readPixels()
      frames[pointRenderer] = try Stopwatch.best(runs: repeats) {
        scene.draw(state: meshOnly, store: empty, mesh: shown)
        _ = target.readPixels()
      }
    }
    let cpu = frames[.cpu] ?? .infinity
    let gl = frames[.gl] ?? .infinity
    let count = Double(mesh.triangles.count)
    report.row(
      "mesh frame, CPU renderer", Self.rate(count / cpu),
      "\(PLYBenchmark.seconds(cpu)) a frame with overlays, composite and read-back")
    report.row(
      "mesh frame, OpenGL", Self.rate(count / gl),
      "\(PLYBenchmark.seconds(gl)) a frame on \(GLBackend.rendererString)")
    report.row(
      "CPU renderer / OpenGL, mesh", "\(PLYBenchmark.fixed(gl / cpu, 1))×", "same frame, same run")
  }

  /// A sheet across x and z from 0 to 10 m, rippled in y, cut into about `triangles`
  /// triangles, with normals and colours by position.
  static func sheet(triangles: Int) -> TriangleMesh {
    let side = max(2, Int((Double(triangles) / 2).squareRoot()))
    var mesh = TriangleMesh()
    mesh.positions.reserveCapacity((side + 1) * (side + 1))
    for j in 0...side {
      for i in 0...side {
        let x = Float(i) / Float(side) * 10
        let z = Float(j) / Float(side) * 10
        let y = 5 + 0.5 * sin(x * 3) * cos(z * 2)
        let slope = SIMD2(1.5 * cos(x * 3) * cos(z * 2), -sin(x * 3) * sin(z * 2))
        let n = SIMD3(-slope.x, 1, -slope.y)
        let length = (n * n).sum().squareRoot()
        mesh.positions.append(Point3(x, y, z))
        mesh.normals.append(Point3(n.x / length, n.y / length, n.z / length))
        mesh.colors.append(RGB8(UInt8(i * 255 / side), 160, UInt8(j * 255 / side)))
      }
    }
    mesh.triangles.reserveCapacity(2 * side * side)
    for j in 0..<side {
      for i in 0..<side {
        let a = UInt32(j * (side + 1) + i)
        let c = a + UInt32(side + 1)
        mesh.triangles += [SIMD3(a, a + 1, c + 1), SIMD3(a, c + 1, c)]
      }
    }
    return mesh
  }
}
