/// Which way a camera's axes point.
public enum CameraAxes: String, Sendable, Codable, CaseIterable {
  /// x right, y up, z backward (out of the screen): ARKit, Record3D, Polycam, OpenGL.
  case openGL
  /// x right, y down, z forward (into the scene): OpenCV, Stray Scanner, ARKitScenes.
  /// The convention CloudScrub unprojects in.
  case openCV

  /// Maps a point from these axes to OpenCV axes (flips y and z for OpenGL).
  public var openCVFromSelf: Transform3D {
    switch self {
    case .openGL: .scale(SIMD3(1, -1, -1))
    case .openCV: .identity
    }
  }
}

/// Pinhole intrinsics for an image of a given size, in pixels.
///
/// Pixel (u, v) covers [u, u+1) × [v, v+1): its centre is at (u + 0.5, v + 0.5), and
/// `cx, cy` are measured on the same continuous coordinates.
public struct CameraIntrinsics: Equatable, Sendable, Codable {
  public var fx: Double
  public var fy: Double
  public var cx: Double
  public var cy: Double
  /// The image size these numbers belong to.
  public var width: Int
  public var height: Int

  public init(fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int) {
    self.fx = fx
    self.fy = fy
    self.cx = cx
    self.cy = cy
    self.width = width
    self.height = height
  }

  /// The same camera for an image of another size covering the same field of view
  /// (the depth map of a frame whose intrinsics are given for its colour image).
  public func scaled(toWidth newWidth: Int, height newHeight: Int) -> CameraIntrinsics {
    let sx = Double(newWidth) / Double(width)
    let sy = Double(newHeight) / Double(height)
    return CameraIntrinsics(
      fx: fx * sx, fy: fy * sy, cx: cx * sx, cy: cy * sy, width: newWidth, height: newHeight)
  }
}

/// Where a camera was: its camera-to-world transform, with the camera-axis convention
/// that transform expects.
public struct CameraPose: Equatable, Sendable {
  public var worldFromCamera: Transform3D
  public var axes: CameraAxes

  public init(worldFromCamera: Transform3D, axes: CameraAxes) {
    self.worldFromCamera = worldFromCamera
    self.axes = axes
  }

  /// The camera-to-world transform for points given in OpenCV camera axes.
  public var worldFromOpenCVCamera: Transform3D {
    worldFromCamera * axes.openCVFromSelf.rigidInverse
  }

  /// The camera's position in the world.
  public var position: SIMD3<Double> { worldFromCamera.translation }
}
