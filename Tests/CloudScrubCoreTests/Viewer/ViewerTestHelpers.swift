@testable import CloudScrubCore

/// Float comparisons for the viewer tests: single precision leaves a few ulps.
enum ViewerApprox {
  static func close(_ a: Float, _ b: Float, tolerance: Float = 1e-4) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
  }

  static func close(_ a: SIMD2<Float>, _ b: SIMD2<Float>, tolerance: Float = 1e-4) -> Bool {
    close(a.x, b.x, tolerance: tolerance) && close(a.y, b.y, tolerance: tolerance)
  }

  static func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>, tolerance: Float = 1e-4) -> Bool {
    close(a.x, b.x, tolerance: tolerance) && close(a.y, b.y, tolerance: tolerance)
      && close(a.z, b.z, tolerance: tolerance)
  }

  static func close(_ a: Matrix4, _ b: Matrix4, tolerance: Float = 1e-4) -> Bool {
    (0..<16).allSatisfy { close(a.columnMajor[$0], b.columnMajor[$0], tolerance: tolerance) }
  }

  /// The NDC position of a world point seen through `view` and `projection`.
  static func ndc(_ p: SIMD3<Float>, view: Matrix4, projection: Matrix4) -> SIMD3<Float> {
    (projection * view).transform(point: p)
  }

  /// The NDC x, y of a world point seen by an orbit camera.
  static func ndc(_ p: SIMD3<Float>, camera: OrbitCamera, aspect: Float) -> SIMD2<Float> {
    let q = ndc(p, view: camera.viewMatrix, projection: camera.projectionMatrix(aspect: aspect))
    return SIMD2(q.x, q.y)
  }
}
