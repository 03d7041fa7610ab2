// MARK: - Matching a capture camera

extension OrbitCamera {
  /// An orbit camera whose eye and viewing direction match a capture camera's, so
  /// that leaving the capture view does not make the picture jump.
  ///
  /// Roll is dropped (the orbit camera keeps the world up axis up). When the capture
  /// camera looks closer to straight up or down than the elevation limit allows, the
  /// eye still matches exactly and the direction is the nearest allowed one.
  ///
  /// - Parameters:
  ///   - worldFromCamera: the capture camera's camera-to-world transform.
  ///   - axes: the camera axes that transform expects.
  ///   - pivotDistanceMeters: how far in front of the eye to put the pivot.
  public init(
    lookingLike worldFromCamera: Transform3D, axes: CameraAxes, pivotDistanceMeters: Float,
    up: WorldUp = .y, verticalFieldOfViewRadians: Float = 50 * .pi / 180
  ) {
    let pose = CameraPose(worldFromCamera: worldFromCamera, axes: axes)
    // OpenCV cameras look along +z.
    let forwardInWorld = pose.worldFromOpenCVCamera.rotate(SIMD3(0, 0, 1))
    let eyeInWorld = SIMD3<Float>(pose.position)
    var direction = ViewerMath.normalized(SIMD3<Float>(forwardInWorld))
    if ViewerMath.length(direction) == 0 { direction = -up.vector }
    let angles = up.angles(ofOffset: -direction)
    self.init(
      azimuthRadians: angles.azimuthRadians, elevationRadians: angles.elevationRadians,
      distanceMeters: pivotDistanceMeters, verticalFieldOfViewRadians: verticalFieldOfViewRadians,
      up: up)
    // Place the pivot from the eye (not the eye from the pivot) so the eye is exact
    // even when the elevation was clamped.
    pivot = eyeInWorld - backward * distanceMeters
  }
}
