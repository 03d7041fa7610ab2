import CloudScrubCore

/// Line geometry drawn over the cloud: ground grid, axes, capture trajectory and the
/// current frame's camera frustum. Pure functions of the scene, built each frame; the
/// vertex counts are small (hundreds to a few thousand).
public enum OverlayGeometry {
  static let gridColor: (UInt8, UInt8, UInt8, UInt8) = (90, 90, 96, 255)
  static let trajectoryColor: (UInt8, UInt8, UInt8, UInt8) = (255, 170, 40, 255)
  static let frustumColor: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)

  /// The ground grid: a square of `lines` × `lines` cells of `spacingMeters`, centred
  /// under `center`, at height `groundHeight` along `up`.
  public static func grid(
    center: SIMD3<Float>, groundHeight: Float, up: WorldUp, spacingMeters: Float, lines: Int
  ) -> [LineVertex] {
    guard lines > 0, spacingMeters > 0 else { return [] }
    let (a, b, u) = axes(up)
    let half = Float(lines) * spacingMeters / 2
    // Snap the grid to whole cells so it does not slide as the cloud grows.
    let ca = (dot(center, a) / spacingMeters).rounded() * spacingMeters
    let cb = (dot(center, b) / spacingMeters).rounded() * spacingMeters
    let origin = a * ca + b * cb + u * groundHeight
    var vertices: [LineVertex] = []
    vertices.reserveCapacity((lines + 1) * 4)
    for i in 0...lines {
      let offset = -half + Float(i) * spacingMeters
      vertices.append(LineVertex(origin + a * offset - b * half, gridColor))
      vertices.append(LineVertex(origin + a * offset + b * half, gridColor))
      vertices.append(LineVertex(origin + b * offset - a * half, gridColor))
      vertices.append(LineVertex(origin + b * offset + a * half, gridColor))
    }
    return vertices
  }

  /// The edges' colour in `box`: amber.
  public static let boxColor: (UInt8, UInt8, UInt8, UInt8) = (250, 210, 60, 255)
  /// The handles' colour in `box`: light blue, so that they stand out from the edges.
  public static let handleColor: (UInt8, UInt8, UInt8, UInt8) = (90, 220, 255, 255)

  /// The twelve edges of an axis-aligned box, and a small cross on each face's centre
  /// (the handles that drag it), in their own colour.
  public static func box(_ box: CropBox, handleSizeMeters: Float) -> [LineVertex] {
    let color = boxColor
    let lo = SIMD3(box.min.x, box.min.y, box.min.z)
    let hi = SIMD3(box.max.x, box.max.y, box.max.z)
    func corner(_ i: Int) -> SIMD3<Float> {
      SIMD3(i & 1 == 0 ? lo.x : hi.x, i & 2 == 0 ? lo.y : hi.y, i & 4 == 0 ? lo.z : hi.z)
    }
    var vertices: [LineVertex] = []
    for i in 0..<8 {
      for bit in [1, 2, 4] where i & bit == 0 {
        vertices.append(LineVertex(corner(i), color))
        vertices.append(LineVertex(corner(i | bit), color))
      }
    }
    for axis in 0..<3 {
      for side in [lo[axis], hi[axis]] {
        var center = (lo + hi) / 2
        center[axis] = side
        for other in 0..<3 where other != axis {
          var offset = SIMD3<Float>(repeating: 0)
          offset[other] = handleSizeMeters
          vertices.append(LineVertex(center - offset, handleColor))
          vertices.append(LineVertex(center + offset, handleColor))
        }
      }
    }
    return vertices
  }

  /// World axes at the origin: x red, y green, z blue.
  public static func axes(lengthMeters: Float) -> [LineVertex] {
    [
      LineVertex(.zero, (230, 60, 60, 255)),
      LineVertex(SIMD3(lengthMeters, 0, 0), (230, 60, 60, 255)),
      LineVertex(.zero, (60, 200, 60, 255)),
      LineVertex(SIMD3(0, lengthMeters, 0), (60, 200, 60, 255)),
      LineVertex(.zero, (70, 110, 240, 255)),
      LineVertex(SIMD3(0, 0, lengthMeters), (70, 110, 240, 255)),
    ]
  }

  /// The path of the capture camera through frames `0…lastFrame`, as segments.
  public static func trajectory(cameraCenters: [SIMD3<Float>], lastFrame: Int) -> [LineVertex] {
    let end = min(lastFrame, cameraCenters.count - 1)
    guard end >= 1 else { return [] }
    var vertices: [LineVertex] = []
    vertices.reserveCapacity(end * 2)
    for i in 1...end {
      vertices.append(LineVertex(cameraCenters[i - 1], trajectoryColor))
      vertices.append(LineVertex(cameraCenters[i], trajectoryColor))
    }
    return vertices
  }

  /// A camera's frustum: lines from its centre to the image corners at `depthMeters`,
  /// and the image rectangle there, with a tick on the image's top edge.
  ///
  /// - Parameter worldFromOpenCVCamera: the camera pose for OpenCV axes (x right,
  ///   y down, z forward).
  public static func frustum(
    worldFromOpenCVCamera: Transform3D, intrinsics k: CameraIntrinsics, depthMeters: Double
  ) -> [LineVertex] {
    func world(_ u: Double, _ v: Double) -> SIMD3<Float> {
      let camera = SIMD3(
        (u - k.cx) / k.fx * depthMeters, (v - k.cy) / k.fy * depthMeters, depthMeters)
      let p = worldFromOpenCVCamera.apply(to: camera)
      return SIMD3(Float(p.x), Float(p.y), Float(p.z))
    }
    let w = Double(k.width)
    let h = Double(k.height)
    let origin = worldFromOpenCVCamera.translation
    let center = SIMD3(Float(origin.x), Float(origin.y), Float(origin.z))
    let corners = [world(0, 0), world(w, 0), world(w, h), world(0, h)]
    var vertices: [LineVertex] = []
    for i in 0..<4 {
      vertices.append(LineVertex(center, frustumColor))
      vertices.append(LineVertex(corners[i], frustumColor))
      vertices.append(LineVertex(corners[i], frustumColor))
      vertices.append(LineVertex(corners[(i + 1) % 4], frustumColor))
    }
    // A small triangle above the image's top edge says which way is up in the image.
    let top = world(w / 2, -h * 0.15)
    vertices += [
      LineVertex(corners[0] * 0.6 + corners[1] * 0.4, frustumColor), LineVertex(top, frustumColor),
      LineVertex(top, frustumColor), LineVertex(corners[0] * 0.4 + corners[1] * 0.6, frustumColor),
    ]
    return vertices
  }

  /// Two ground directions and the up direction of a world.
  static func axes(_ up: WorldUp) -> (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
    switch up {
    case .y: return (SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, 1, 0))
    case .z: return (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
    }
  }

  static func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }
}
