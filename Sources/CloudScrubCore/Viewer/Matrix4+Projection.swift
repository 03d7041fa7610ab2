import Foundation

// MARK: - View and projection matrices (OpenGL conventions)

extension Matrix4 {
  /// A perspective projection in OpenGL clip conventions: the camera looks down −z,
  /// and the visible depth range maps to z in −1…1 (near → −1, far → +1).
  ///
  /// - Parameters:
  ///   - verticalFieldOfViewRadians: the full angle between the top and bottom planes.
  ///   - aspect: viewport width over height.
  ///   - nearMeters, farMeters: positive distances to the clipping planes, near < far.
  public static func perspective(
    verticalFieldOfViewRadians: Float, aspect: Float, nearMeters: Float, farMeters: Float
  ) -> Matrix4 {
    let f = 1 / tan(verticalFieldOfViewRadians / 2)
    let depth = nearMeters - farMeters
    return Matrix4(
      columns: SIMD4(f / aspect, 0, 0, 0), SIMD4(0, f, 0, 0),
      SIMD4(0, 0, (farMeters + nearMeters) / depth, -1),
      SIMD4(0, 0, 2 * farMeters * nearMeters / depth, 0))
  }

  /// A view matrix (`viewFromWorld`) for a camera at `eye` looking at `target`, in
  /// OpenGL axes: x right, y up, looking down −z.
  ///
  /// `up` only has to be not parallel to the viewing direction; the camera's own up
  /// axis is made perpendicular to it.
  public static func lookAt(eye: SIMD3<Float>, target: SIMD3<Float>, up: SIMD3<Float>) -> Matrix4 {
    let forward = ViewerMath.normalized(target - eye)
    let right = ViewerMath.normalized(ViewerMath.cross(forward, up))
    let trueUp = ViewerMath.cross(right, forward)
    // Rows are the camera axes in world coordinates; the translation takes the eye to
    // the origin.
    return Matrix4(rowMajor: [
      right.x, right.y, right.z, -ViewerMath.dot(right, eye),
      trueUp.x, trueUp.y, trueUp.z, -ViewerMath.dot(trueUp, eye),
      -forward.x, -forward.y, -forward.z, ViewerMath.dot(forward, eye),
      0, 0, 0, 1,
    ])
  }

  /// The projection of a pinhole camera with these intrinsics, for view coordinates in
  /// OpenGL axes (x right, y up, looking down −z), mapping the image onto NDC −1…1.
  ///
  /// `CameraIntrinsics` measures `cx, cy` on continuous pixel coordinates whose image
  /// edges are 0 and `width` (pixel u's centre is u + 0.5), so NDC x = 2·u/width − 1
  /// needs no half-pixel shift; image v runs down, NDC y up. A point whose OpenCV
  /// camera coordinates project to continuous pixel (u, v) lands at
  /// (2u/width − 1, 1 − 2v/height).
  public static func projection(
    intrinsics k: CameraIntrinsics, nearMeters: Float, farMeters: Float
  ) -> Matrix4 {
    let width = Double(max(1, k.width))
    let height = Double(max(1, k.height))
    let depth = nearMeters - farMeters
    // Clip w is −z_view (the OpenCV depth), hence the sign of the z-column terms.
    return Matrix4(
      columns: SIMD4(Float(2 * k.fx / width), 0, 0, 0),
      SIMD4(0, Float(2 * k.fy / height), 0, 0),
      SIMD4(
        Float(1 - 2 * k.cx / width), Float(2 * k.cy / height - 1),
        (farMeters + nearMeters) / depth, -1),
      SIMD4(0, 0, 2 * farMeters * nearMeters / depth, 0))
  }

  /// A scale in x and y (used to letterbox an image into a viewport of another shape).
  static func scaleXY(_ sx: Float, _ sy: Float) -> Matrix4 {
    Matrix4(columns: SIMD4(sx, 0, 0, 0), SIMD4(0, sy, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))
  }
}

// MARK: - Small vector helpers shared by the viewer types

/// Float vector helpers, namespaced so that they cannot clash with other modules' or
/// other files' free functions.
enum ViewerMath {
  static func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }

  static func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }

  static func length(_ v: SIMD3<Float>) -> Float { dot(v, v).squareRoot() }

  /// The unit vector along `v`, or `v` itself when it has no length (never NaN).
  static func normalized(_ v: SIMD3<Float>) -> SIMD3<Float> {
    let l = length(v)
    return l > 0 ? v / l : v
  }
}
