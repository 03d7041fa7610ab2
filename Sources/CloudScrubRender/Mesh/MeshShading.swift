import CloudScrubCore

/// How a mesh vertex is coloured, the same in `Shaders/mesh.vert` and on the CPU: the
/// vertex's own colour (or, in the height and depth modes, the points' ramp), lit by a
/// light at the eye. A vertex facing the eye keeps its whole colour; one seen edge-on
/// keeps `ambient` of it; back faces are lit as front faces. The other colour modes,
/// which are about frames and confidence that a mesh does not have, show its colour.
public enum MeshShading {
  /// The share of the colour a vertex keeps when seen edge-on.
  public static let ambient: Float = 0.35
  /// The colour of a mesh that has none.
  public static let plainColor = RGB8(200, 200, 200)

  /// The colour of a vertex at world `position` with `normal` and stored `color`,
  /// before it is written as bytes.
  @inline(__always)
  static func color(
    position p: Point3, normal n: Point3, color: RGB8, uniforms u: ShadingUniforms
  ) -> SIMD3<Float> {
    let world = SIMD3(p.x, p.y, p.z)
    var base = SIMD3(Float(color.r), Float(color.g), Float(color.b)) / 255
    let eye = u.viewRotation * world + u.viewTranslation
    switch u.colorMode {
    case .height:
      let h = (world * u.upAxis).sum()
      base = CPUPointShading.ramp((h - u.heightLow) / u.heightSpan)
    case .depth:
      base = CPUPointShading.ramp((-eye.z - u.depthLow) / u.depthSpan)
    default: break
    }
    let normal = u.viewRotation * SIMD3(n.x, n.y, n.z)
    let lengths = (normal * normal).sum() * (eye * eye).sum()
    let facing = lengths > 0 ? abs((normal * eye).sum()) / lengths.squareRoot() : 1
    return base * (ambient + (1 - ambient) * facing)
  }
}

/// What the vertex stage needs of `PointUniforms`, unpacked once a draw.
struct ShadingUniforms {
  var colorMode: PointColorMode
  var viewRotation: ColumnMatrix3
  var viewTranslation: SIMD3<Float>
  var upAxis: SIMD3<Float>
  var heightLow: Float
  var heightSpan: Float
  var depthLow: Float
  var depthSpan: Float

  init(_ u: PointUniforms) {
    colorMode = u.colorMode
    let m = u.view.columnMajor
    viewRotation = ColumnMatrix3(
      SIMD3(m[0], m[1], m[2]), SIMD3(m[4], m[5], m[6]), SIMD3(m[8], m[9], m[10]))
    viewTranslation = SIMD3(m[12], m[13], m[14])
    upAxis = u.upAxis
    heightLow = u.heightRangeMeters.lowerBound
    heightSpan = max(u.heightRangeMeters.upperBound - heightLow, 1e-6)
    depthLow = u.depthRangeMeters.lowerBound
    depthSpan = max(u.depthRangeMeters.upperBound - depthLow, 1e-6)
  }
}

/// A 3×3 matrix by columns (the view's rotation part), times a vector.
struct ColumnMatrix3 {
  var c0: SIMD3<Float>
  var c1: SIMD3<Float>
  var c2: SIMD3<Float>

  init(_ c0: SIMD3<Float>, _ c1: SIMD3<Float>, _ c2: SIMD3<Float>) {
    (self.c0, self.c1, self.c2) = (c0, c1, c2)
  }

  @inline(__always)
  static func * (m: ColumnMatrix3, v: SIMD3<Float>) -> SIMD3<Float> {
    m.c0 * v.x + m.c1 * v.y + m.c2 * v.z
  }
}
