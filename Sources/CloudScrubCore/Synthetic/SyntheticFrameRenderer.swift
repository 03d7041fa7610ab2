import Foundation

/// Renders one synthetic frame's images by casting a ray through each pixel's centre.
struct SyntheticFrameRenderer: Sendable {
  let scene: SyntheticScene
  let confidenceModel: SyntheticConfidenceModel
  let eye: SIMD3<Double>
  /// The camera's x (right), y (up) and z (backward) axes in the world.
  let right: SIMD3<Double>
  let up: SIMD3<Double>
  let back: SIMD3<Double>

  init(scene: SyntheticScene, worldFromCamera: Transform3D, confidence: SyntheticConfidenceModel) {
    self.scene = scene
    confidenceModel = confidence
    eye = worldFromCamera.translation
    right = worldFromCamera.rotate(SIMD3(1, 0, 0))
    up = worldFromCamera.rotate(SIMD3(0, 1, 0))
    back = worldFromCamera.rotate(SIMD3(0, 0, 1))
  }

  /// The ray from the eye through pixel (u, v)'s centre, its direction scaled so that
  /// its component along the camera's forward axis is 1: a hit at parameter t along it
  /// is at depth t.
  func ray(u: Int, v: Int, intrinsics k: CameraIntrinsics) -> Ray {
    let x = (Double(u) + 0.5 - k.cx) / k.fx
    // Image rows run down, the camera's y runs up.
    let y = -(Double(v) + 0.5 - k.cy) / k.fy
    return Ray(
      ox: eye.x, oy: eye.y, oz: eye.z, dx: right.x * x + up.x * y - back.x,
      dy: right.y * x + up.y * y - back.y, dz: right.z * x + up.z * y - back.z)
  }

  // MARK: - Depth and confidence

  /// Exact depths, 0 where nothing is hit, with the cosine between each ray and the
  /// surface it hit.
  struct DepthGrid {
    let width: Int
    let height: Int
    var meters: [Double]
    let cosines: [Double]

    func metersAsFloat() -> [Float] { meters.map { Float($0) } }

    /// Adds Gaussian noise of standard deviation sigmaAtOneMeter · depth², clamped to
    /// ±4σ, to every depth, drawing pixels in row order from one seeded stream.
    mutating func addNoise(sigmaAtOneMeter: Double, seed: UInt64) {
      var random = SplitMix64(seed: seed)
      for index in meters.indices {
        // Box–Muller, drawn for every pixel so that a pixel's noise does not depend
        // on which of the others have depth.
        let u1 = (Double(random.next() >> 11) + 1) * 0x1p-53  // (0, 1]
        let u2 = Double(random.next() >> 11) * 0x1p-53
        let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
        let depth = meters[index]
        guard depth > 0 else { continue }
        let offset = min(max(normal, -4), 4) * sigmaAtOneMeter * depth * depth
        // A depth never turns invalid by noise; σ that large is not a plausible sensor.
        meters[index] = max(depth + offset, depth * 0.01)
      }
    }
  }

  func renderDepth(intrinsics: CameraIntrinsics) -> DepthGrid {
    let (width, height) = (intrinsics.width, intrinsics.height)
    let depths = ParallelSlots<Double>(count: width * height, initial: 0)
    let cosines = ParallelSlots<Double>(count: width * height, initial: 0)
    Parallel.forEachRange(height, minimumPerTask: 16) { rows in
      for v in rows {
        for u in 0..<width {
          let ray = ray(u: u, v: v, intrinsics: intrinsics)
          guard let (t, surface) = scene.firstHit(ray) else { continue }
          depths[v * width + u] = t
          cosines[v * width + u] = scene.incidenceCosine(ray, t: t, on: surface)
        }
      }
    }
    let count = width * height
    return DepthGrid(
      width: width, height: height, meters: (0..<count).map { depths[$0] },
      cosines: (0..<count).map { cosines[$0] })
  }

  /// ARKit-style confidence for exact depths, by `confidenceModel`'s rules.
  func confidence(of grid: DepthGrid) -> [UInt8] {
    let (width, height) = (grid.width, grid.height)
    let model = confidenceModel
    var values = [UInt8](repeating: 0, count: width * height)
    for v in 0..<height {
      for u in 0..<width {
        let index = v * width + u
        let depth = grid.meters[index]
        guard depth > 0, !isDiscontinuity(grid, u: u, v: v, depth: depth) else { continue }
        let high = depth <= model.highMaxDepthMeters && grid.cosines[index] >= model.highMinCosine
        values[index] = high ? 2 : 1
      }
    }
    return values
  }

  private func isDiscontinuity(_ grid: DepthGrid, u: Int, v: Int, depth: Double) -> Bool {
    for nv in max(v - 1, 0)...min(v + 1, grid.height - 1) {
      for nu in max(u - 1, 0)...min(u + 1, grid.width - 1) {
        let other = grid.meters[nv * grid.width + nu]
        if abs(other - depth) > confidenceModel.discontinuityFraction * min(other, depth) {
          return true
        }
      }
    }
    return false
  }

  // MARK: - Colour

  /// The texture colour through each pixel's centre; black where nothing is hit.
  func renderColor(intrinsics: CameraIntrinsics) -> RGBImage {
    let (width, height) = (intrinsics.width, intrinsics.height)
    let pixels = ParallelSlots<UInt8>(count: width * height * 3, initial: 0)
    Parallel.forEachRange(height, minimumPerTask: 16) { rows in
      for v in rows {
        for u in 0..<width {
          let ray = ray(u: u, v: v, intrinsics: intrinsics)
          guard let (t, surface) = scene.firstHit(ray) else { continue }
          let color = scene.color(
            x: ray.ox + t * ray.dx, y: ray.oy + t * ray.dy, z: ray.oz + t * ray.dz, on: surface)
          let index = (v * width + u) * 3
          pixels[index] = color.r
          pixels[index + 1] = color.g
          pixels[index + 2] = color.b
        }
      }
    }
    return RGBImage(
      width: width, height: height, pixels: (0..<(width * height * 3)).map { pixels[$0] })
  }
}
