// MARK: - What the renderer reads

extension ViewerState {
  /// The points to draw for the playhead and timeline mode (see
  /// `Playback.drawRange(frameRanges:)`).
  public func drawRange(frameRanges: [Int]) -> Range<Int> {
    playback.drawRange(frameRanges: frameRanges)
  }

  /// The frame whose capture camera the capture view uses: the playhead's, or the
  /// newest one with a camera when the poses lag behind; nil when there is none.
  public var captureFrame: Int? {
    let count = scene.frameCount
    guard count > 0 else { return nil }
    return min(max(playback.currentFrame, 0), count - 1)
  }

  /// `viewFromWorld` in OpenGL axes for the current view mode.
  public var viewMatrix: Matrix4 {
    guard viewMode == .captureCamera, let frame = captureFrame else { return camera.viewMatrix }
    // The scene stores OpenCV-axes poses; OpenGL view space has y and z flipped.
    let worldFromGLCamera = scene.worldFromCamera[frame] * CameraAxes.openGL.openCVFromSelf
    // Invert in double precision: world coordinates can be large.
    return Matrix4(worldFromGLCamera.rigidInverse)
  }

  /// The projection for the current view mode and viewport.
  ///
  /// Through the capture camera the image is letterboxed: it fills the viewport in
  /// one direction and keeps its own aspect, so when the viewport has the image's
  /// aspect, each image pixel lands on its own NDC position.
  public var projectionMatrix: Matrix4 {
    guard viewMode == .captureCamera, let frame = captureFrame else {
      return camera.projectionMatrix(aspect: aspect)
    }
    let k = scene.intrinsics[frame]
    let projection = Matrix4.projection(
      intrinsics: k, nearMeters: captureNearMeters, farMeters: captureFarMeters(frame: frame))
    let imageAspect = Float(max(1, k.width)) / Float(max(1, k.height))
    if aspect > imageAspect {
      return Matrix4.scaleXY(imageAspect / aspect, 1) * projection
    } else {
      return Matrix4.scaleXY(1, aspect / imageAspect) * projection
    }
  }

  /// Near plane for the capture view: LiDAR depth starts at a few centimetres.
  var captureNearMeters: Float { 0.01 }

  /// Far plane for the capture view: beyond the farthest corner of the scene.
  func captureFarMeters(frame: Int) -> Float {
    guard let b = scene.bounds else { return 1000 }
    let eye = SIMD3<Float>(scene.worldFromCamera[frame].translation)
    var farthest: Float = 0
    for corner in 0..<8 {
      let p = SIMD3(
        corner & 1 == 0 ? b.min.x : b.max.x, corner & 2 == 0 ? b.min.y : b.max.y,
        corner & 4 == 0 ? b.min.z : b.max.z)
      farthest = max(farthest, ViewerMath.length(p - eye))
    }
    return max(10, farthest * 1.1 + 1)
  }

  /// The eye position in world coordinates for the current view mode.
  public var eyeInWorld: SIMD3<Float> {
    guard viewMode == .captureCamera, let frame = captureFrame else { return camera.eye }
    return SIMD3<Float>(scene.worldFromCamera[frame].translation)
  }
}
