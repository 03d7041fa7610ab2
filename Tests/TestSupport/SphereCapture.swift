import CloudScrubCore
import Foundation

/// Frames of a sphere seen from all round, worked out by ray casting: for tests whose
/// every surface point is known.
public enum SphereCapture {
  /// `count` frames of a sphere of `radius` metres centred at `center`, from cameras
  /// `distance` metres from the centre in directions spread evenly over the sphere
  /// (a Fibonacci lattice), each looking at the centre. Depth is `width` × `height`
  /// with fx = fy = `width` · 0.8 and the principal point at the centre; the colour
  /// image (same size) is red where the hit point lies above the centre and blue below.
  public static func recording(
    count: Int = 60, radius: Double = 0.3, center: SIMD3<Double> = .zero, distance: Double = 1,
    width: Int = 160, height: Int = 120
  ) -> InMemoryRecording {
    let f = Double(width) * 0.8
    let frames = (0..<count).map { k -> CapturedFrame in
      // Directions on a Fibonacci lattice, kept off the poles so "up" stays defined.
      let y = 0.95 - 1.9 * (Double(k) + 0.5) / Double(count)
      let ring = (1 - y * y).squareRoot()
      let angle = Double(k) * Double.pi * (3 - 5.0.squareRoot())
      let eye = center + distance * SIMD3(ring * cos(angle), y, ring * sin(angle))
      let worldFromCamera = SyntheticCameraPath.worldFromCameraLooking(from: eye, at: center)
      var meters = [Float](repeating: 0, count: width * height)
      var pixels = [UInt8](repeating: 0, count: width * height * 3)
      let c = worldFromCamera.columns
      let right = SIMD3(c.0.x, c.0.y, c.0.z)
      let up = SIMD3(c.1.x, c.1.y, c.1.z)
      let forward = -SIMD3(c.2.x, c.2.y, c.2.z)
      for v in 0..<height {
        for u in 0..<width {
          // OpenCV pixel ray: x right, y down, z forward.
          let x = (Double(u) + 0.5 - Double(width) / 2) / f
          let yDown = (Double(v) + 0.5 - Double(height) / 2) / f
          let ray = right * x - up * yDown + forward
          // |eye + t·ray − center|² = r², the nearer root.
          let o = eye - center
          let a = (ray * ray).sum()
          let b = 2 * (o * ray).sum()
          let cc = (o * o).sum() - radius * radius
          let disc = b * b - 4 * a * cc
          guard disc >= 0 else { continue }
          let t = (-b - disc.squareRoot()) / (2 * a)
          meters[v * width + u] = Float(t)  // ray has unit forward component: t is depth
          let hit = eye + ray * t
          let k = (v * width + u) * 3
          if hit.y > center.y { pixels[k] = 255 } else { pixels[k + 2] = 255 }
        }
      }
      return CapturedFrame(
        timestampSeconds: Double(k) / 30,
        depth: DepthMap(width: width, height: height, meters: meters),
        color: .rgb(RGBImage(width: width, height: height, pixels: pixels)),
        intrinsics: CameraIntrinsics(
          fx: f, fy: f, cx: Double(width) / 2, cy: Double(height) / 2, width: width, height: height),
        pose: CameraPose(worldFromCamera: worldFromCamera, axes: .openGL))
    }
    return InMemoryRecording(frames: frames)
  }
}
