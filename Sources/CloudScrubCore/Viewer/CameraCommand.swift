/// Camera input, already reduced to numbers.
public enum CameraCommand: Equatable, Sendable {
  /// Orbit by a cursor drag in window pixels (x right, y down).
  case rotate(pixels: SIMD2<Float>)
  /// Pan by a cursor drag in window pixels (x right, y down).
  case pan(pixels: SIMD2<Float>)
  /// Zoom by wheel steps (positive zooms in) towards the cursor, given in NDC
  /// (−1…1, y up).
  case zoom(steps: Float, cursorNDC: SIMD2<Float>)
  /// Frame the scene's bounds (leaves the capture camera view).
  case fit
  /// The default three-quarter view of the scene (leaves the capture camera view).
  case reset
  /// View through the current frame's capture camera, following the playhead.
  case lookThroughCaptureCamera
  /// The framebuffer size in pixels.
  case setViewport(width: Int, height: Int)
  /// Orbit about the scene's centre at these angles, at this distance (nil: the
  /// distance that fits the scene). Leaves the capture camera view.
  case orbit(azimuthRadians: Float, elevationRadians: Float, distanceMeters: Float?)
  /// The orbit camera exactly as given (a video's moving camera), its far plane still
  /// widened for the whole scene. Leaves the capture camera view.
  case place(OrbitCamera)
}

/// Where the view comes from.
public enum ViewMode: Equatable, Sendable {
  /// The free orbit camera.
  case orbit
  /// The capture camera of the playhead's frame.
  case captureCamera
}
