import CloudScrubCore
import Foundation

/// A mesh vertex after the vertex stage: its clip-space position and shaded colour.
struct ShadedVertex {
  var clip = SIMD4<Float>(0, 0, 0, 1)
  var color = SIMD3<Float>(0, 0, 0)
}

extension CPUPointRasterizer {
  /// Draws `mesh`'s triangles with `uniforms` over what is already drawn, as OpenGL
  /// draws `Shaders/mesh.vert`: each vertex projected and shaded (`MeshShading`), each
  /// triangle filling the pixels whose centres it covers (a centre on an edge two
  /// triangles share goes to one of them), with depth and colour interpolated linearly
  /// in window space. Triangles crossing the near plane are clipped; both faces draw.
  public func draw(_ mesh: TriangleMesh, uniforms: PointUniforms) {
    let count = mesh.vertexCount
    guard !mesh.triangles.isEmpty, count > 0, !buffers.isEmpty else { return }
    if shadedVertices.count < count {
      shadedVertices = Array(repeating: ShadedVertex(), count: count)
    }
    let shading = ShadingUniforms(uniforms)
    let m = uniforms.viewProjection.columnMajor
    let rows = (
      SIMD4(m[0], m[4], m[8], m[12]), SIMD4(m[1], m[5], m[9], m[13]),
      SIMD4(m[2], m[6], m[10], m[14]), SIMD4(m[3], m[7], m[11], m[15])
    )
    let parts = count >= Self.pointsPerExtraWorker ? workerCount : 1
    shadedVertices.withUnsafeMutableBufferPointer { out in
      guard let out = out.baseAddress else { return }
      let stage = VertexStage(mesh: mesh, output: out, shading: shading, rows: rows)
      Parallel.perform(iterations: parts) { part in
        stage.run(count * part / parts..<count * (part + 1) / parts)
      }
    }
    let triangleParts = mesh.triangles.count >= Self.pointsPerExtraWorker / 4 ? workerCount : 1
    shadedVertices.withUnsafeBufferPointer { vertices in
      mesh.triangles.withUnsafeBufferPointer { triangles in
        guard let v = vertices.baseAddress, let t = triangles.baseAddress else { return }
        let input = TriangleInput(triangles: t, vertices: v, vertexCount: count)
        run(0..<triangles.count, parts: triangleParts, uniforms) { target, range in
          target.fill(range, input)
        }
      }
    }
  }
}

/// The vertex stage of a mesh draw, one share of the vertices at a time.
private struct VertexStage: @unchecked Sendable {
  let mesh: TriangleMesh
  let output: UnsafeMutablePointer<ShadedVertex>
  let shading: ShadingUniforms
  let rows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

  func run(_ range: Range<Int>) {
    let hasNormals = mesh.normals.count == mesh.vertexCount
    let hasColors = mesh.colors.count == mesh.vertexCount
    for k in range {
      let p = mesh.positions[k]
      let v = SIMD4(p.x, p.y, p.z, 1)
      let clip = SIMD4(
        (rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum(), (rows.3 * v).sum())
      let color = MeshShading.color(
        position: p, normal: hasNormals ? mesh.normals[k] : .zero,
        color: hasColors ? mesh.colors[k] : MeshShading.plainColor, uniforms: shading)
      output[k] = ShadedVertex(clip: clip, color: color)
    }
  }
}

/// A mesh's triangles and shaded vertices, for the workers.
struct TriangleInput: @unchecked Sendable {
  let triangles: UnsafePointer<SIMD3<UInt32>>
  let vertices: UnsafePointer<ShadedVertex>
  let vertexCount: Int
}

/// A vertex in window space: pixel coordinates (snapped to 1/256 pixel, as OpenGL's
/// rasterisers snap), window depth and colour.
private struct WindowVertex {
  var x: Double
  var y: Double
  var z: Float
  var color: SIMD3<Float>
}

extension CPUSplatTarget {
  /// How far outside the view (in multiples of its half-size) a triangle may reach
  /// before it is clipped: its window coordinates then stay small enough for exact
  /// edge functions.
  static let guardBand: Float = 4

  /// Fills triangles `range` of `input` into the buffer.
  func fill(_ range: Range<Int>, _ input: TriangleInput) {
    for t in range {
      let triangle = input.triangles[t]
      let i0 = Int(triangle.x)
      let i1 = Int(triangle.y)
      let i2 = Int(triangle.z)
      guard i0 < input.vertexCount, i1 < input.vertexCount, i2 < input.vertexCount else { continue }
      let a = input.vertices[i0]
      let b = input.vertices[i1]
      let c = input.vertices[i2]
      if Self.needsNoClip(a.clip), Self.needsNoClip(b.clip), Self.needsNoClip(c.clip) {
        rasterize(window(a), window(b), window(c))
        continue
      }
      clipAndRasterize([a, b, c])
    }
  }

  /// Whether a vertex lies between the near and far planes and inside the guard band.
  @inline(__always)
  private static func needsNoClip(_ p: SIMD4<Float>) -> Bool {
    let band = guardBand * p.w
    return p.w > 0 && p.z >= -p.w && p.z <= p.w && abs(p.x) <= band && abs(p.y) <= band
  }

  /// The planes a clipped triangle is cut by: a clip-space point's signed distance to
  /// one is its dot product with the plane (inside: ≥ 0). Near, far, then the guard band.
  private static let planes: [SIMD4<Float>] = [
    SIMD4(0, 0, 1, 1), SIMD4(0, 0, -1, 1),
    SIMD4(-1, 0, 0, guardBand), SIMD4(1, 0, 0, guardBand),
    SIMD4(0, -1, 0, guardBand), SIMD4(0, 1, 0, guardBand),
  ]

  /// Cuts a triangle that reaches past the near or far plane or the guard band by each
  /// plane in turn, and fills the polygon left as a fan.
  private func clipAndRasterize(_ triangle: [ShadedVertex]) {
    for v in triangle {
      guard v.clip.x.isFinite, v.clip.y.isFinite, v.clip.z.isFinite, v.clip.w.isFinite else {
        return
      }
    }
    var polygon = triangle
    for plane in Self.planes {
      let distances = polygon.map { ($0.clip * plane).sum() }
      if distances.allSatisfy({ $0 >= 0 }) { continue }
      if distances.allSatisfy({ $0 < 0 }) { return }
      var cut: [ShadedVertex] = []
      for k in polygon.indices {
        let next = (k + 1) % polygon.count
        let (d0, d1) = (distances[k], distances[next])
        if d0 >= 0 { cut.append(polygon[k]) }
        if (d0 >= 0) != (d1 >= 0) {
          let s = d0 / (d0 - d1)
          let (p, q) = (polygon[k], polygon[next])
          cut.append(
            ShadedVertex(
              clip: p.clip + (q.clip - p.clip) * s, color: p.color + (q.color - p.color) * s))
        }
      }
      polygon = cut
    }
    guard polygon.count >= 3 else { return }
    let first = window(polygon[0])
    for k in 1..<(polygon.count - 1) {
      rasterize(first, window(polygon[k]), window(polygon[k + 1]))
    }
  }

  @inline(__always)
  private func window(_ v: ShadedVertex) -> WindowVertex {
    let inverseW = 1 / v.clip.w
    let x = (Double(v.clip.x * inverseW) + 1) * Double(widthPixels) * 0.5
    let y = (Double(v.clip.y * inverseW) + 1) * Double(heightPixels) * 0.5
    return WindowVertex(
      x: (x * 256).rounded() / 256, y: (y * 256).rounded() / 256,
      z: v.clip.z * inverseW * 0.5 + 0.5, color: v.color)
  }

  /// Fills one triangle in window space. Edge functions are exact (snapped coordinates
  /// within the guard band), so a pixel centre on a shared edge is decided the same
  /// way from both sides: it goes to the triangle for which that edge runs up, or runs
  /// left when level.
  private func rasterize(_ p0: WindowVertex, _ p1: WindowVertex, _ p2: WindowVertex) {
    let signed = (p1.x - p0.x) * (p2.y - p0.y) - (p1.y - p0.y) * (p2.x - p0.x)
    guard signed != 0, signed.isFinite else { return }
    // Counter-clockwise, so that inside is where every edge function is positive.
    let (a, b, c) = signed > 0 ? (p0, p1, p2) : (p0, p2, p1)
    let inverseArea = 1 / abs(signed)
    let x0 = max(0, Int((min(a.x, b.x, c.x) - 0.5).rounded(.up)))
    let x1 = min(widthPixels - 1, Int((max(a.x, b.x, c.x) - 0.5).rounded(.down)))
    let y0 = max(0, Int((min(a.y, b.y, c.y) - 0.5).rounded(.up)))
    let y1 = min(heightPixels - 1, Int((max(a.y, b.y, c.y) - 0.5).rounded(.down)))
    guard x0 <= x1, y0 <= y1 else { return }
    // Edge k is the one opposite vertex k: its function over the area is k's weight.
    let edges = (Edge(from: b, to: c), Edge(from: c, to: a), Edge(from: a, to: b))
    for y in y0...y1 {
      let cy = Double(y) + 0.5
      let cx = Double(x0) + 0.5
      var e0 = edges.0.value(cx, cy)
      var e1 = edges.1.value(cx, cy)
      var e2 = edges.2.value(cx, cy)
      let row = y &* widthPixels
      for x in x0...x1 {
        if edges.0.covers(e0), edges.1.covers(e1), edges.2.covers(e2) {
          let w0 = Float(e0 * inverseArea)
          let w1 = Float(e1 * inverseArea)
          let w2 = Float(e2 * inverseArea)
          let z = max(0, w0 * a.z + w1 * b.z + w2 * c.z)
          if z <= 1 {
            let color = w0 * a.color + w1 * b.color + w2 * c.color
            let packed =
              CPUPointShading.unorm8(color.x) | CPUPointShading.unorm8(color.y) << 8
              | CPUPointShading.unorm8(color.z) << 16 | CPUPointShading.pointAlpha
            let word = UInt64(z.bitPattern & 0x7FFF_FFFF) << 32 | UInt64(packed)
            let pixel = buffer + (row &+ x)
            if word < pixel.pointee { pixel.pointee = word }
          }
        }
        e0 += edges.0.stepX
        e1 += edges.1.stepX
        e2 += edges.2.stepX
      }
    }
  }
}

/// One directed edge's function: positive on its left (inside a counter-clockwise
/// triangle), zero on the line.
private struct Edge {
  let x: Double
  let y: Double
  let dx: Double
  let dy: Double
  /// Whether a point exactly on the edge counts as inside.
  let keepsTies: Bool

  init(from p: WindowVertex, to q: WindowVertex) {
    x = p.x
    y = p.y
    dx = q.x - p.x
    dy = q.y - p.y
    keepsTies = dy > 0 || (dy == 0 && dx < 0)
  }

  @inline(__always)
  func value(_ px: Double, _ py: Double) -> Double { dx * (py - y) - dy * (px - x) }

  /// The change of `value` one pixel to the right.
  var stepX: Double { -dy }

  @inline(__always)
  func covers(_ value: Double) -> Bool { value > 0 || (value == 0 && keepsTies) }
}
