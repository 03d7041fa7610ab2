/// The points one frame contributes: positions in the world, their colours (grey when
/// the frame has no colour) and confidence (`unknownConfidence` when it has no map).
public struct FramePoints: Equatable, Sendable {
  public var positions: [Point3] = []
  public var colors: [RGB8] = []
  public var confidence: [UInt8] = []

  public init() {}

  public var count: Int { positions.count }

  /// The confidence a point gets when its frame has no confidence map. It passes every
  /// minimum-confidence filter.
  public static let unknownConfidence: UInt8 = 255
  /// The colour a point gets when its frame has no colour image.
  public static let noColor = RGB8(160, 160, 160)
}

/// Turns a frame's depth pixels into coloured world points.
///
/// Each depth pixel (u, v) gives at most one point. Its ray goes through the pixel's
/// centre (u + 0.5, v + 0.5) with the intrinsics scaled from the resolution they were
/// given for to the depth map's; the point lies at the pixel's depth along the camera's
/// forward axis, in OpenCV camera axes, and the pose (converted once to OpenCV axes)
/// takes it to the world.
public enum Unprojector {
  /// The points of `frame` that pass `options`' filters.
  ///
  /// - Parameter decoder: decodes JPEG colour; required only for JPEG frames.
  /// - Throws: `UnprojectionError` for maps shorter than their size or unusable
  ///   intrinsics, and the decoder's error for colour it cannot decode.
  public static func unproject(
    _ frame: CapturedFrame, options: UnprojectionOptions = UnprojectionOptions(),
    decoder: (any ColorDecoder)? = nil
  ) throws -> FramePoints {
    let depth = frame.depth
    let width = depth.width
    let height = depth.height
    guard depth.isComplete else {
      throw UnprojectionError.incompleteDepth(width: width, height: height, bytes: depth.bytes.count)
    }
    if let confidence = frame.confidence {
      guard confidence.width == width, confidence.height == height else {
        throw UnprojectionError.confidenceSizeMismatch(
          depth: "\(width)×\(height)", confidence: "\(confidence.width)×\(confidence.height)")
      }
      guard confidence.isComplete else {
        throw UnprojectionError.incompleteConfidence(
          width: confidence.width, height: confidence.height, bytes: confidence.values.count)
      }
    }
    let k = frame.intrinsics
    guard k.width > 0, k.height > 0, k.fx.isFinite, k.fy.isFinite, k.fx != 0, k.fy != 0 else {
      throw UnprojectionError.invalidIntrinsics
    }
    let intrinsics = k.scaled(toWidth: width, height: height)
    let sampler = try ColorSampler(
      frame.color, depthWidth: width, depthHeight: height, decoder: decoder)
    let worldFromCamera = frame.pose.worldFromOpenCVCamera
    let depths = depth.metersGrid()

    var points = FramePoints()
    let expected = (width / options.stride + 1) * (height / options.stride + 1)
    points.positions.reserveCapacity(expected)
    points.colors.reserveCapacity(expected)
    points.confidence.reserveCapacity(expected)
    let minConfidence = options.minConfidence.rawValue
    let range = options.depthRangeMeters
    let (fx, fy, cx, cy) = (intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy)
    // Rows of the rotation and the translation, for a fused transform of each point.
    let c = worldFromCamera.columns
    depths.withUnsafeBufferPointer { grid in
      for v in Swift.stride(from: 0, to: height, by: options.stride) {
        let rayY = (Double(v) + 0.5 - cy) / fy
        for u in Swift.stride(from: 0, to: width, by: options.stride) {
          let d = grid[v * width + u]
          guard d > 0, range.contains(d) else { continue }
          var pointConfidence = FramePoints.unknownConfidence
          if let confidence = frame.confidence {
            pointConfidence = confidence.value(x: u, y: v)
            guard pointConfidence >= minConfidence else { continue }
          }
          if let filter = options.flyingPixels,
            filter.isFlying(grid, width: width, height: height, x: u, y: v)
          {
            continue
          }
          let z = Double(d)
          let x = (Double(u) + 0.5 - cx) / fx * z
          let y = rayY * z
          let world = c.0 * x + c.1 * y + c.2 * z + c.3
          points.positions.append(Point3(Float(world.x), Float(world.y), Float(world.z)))
          points.colors.append(sampler?.color(u: u, v: v) ?? FramePoints.noColor)
          points.confidence.append(pointConfidence)
        }
      }
    }
    return points
  }
}
