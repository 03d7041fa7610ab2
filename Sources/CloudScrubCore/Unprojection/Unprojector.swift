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
  /// - Throws: `UnprojectionError` for maps shorter than their size, unusable
  ///   intrinsics, a pose that is not finite or one that with the intrinsics could put
  ///   points past a Float's range, and the decoder's error for colour it cannot decode.
  public static func unproject(
    _ frame: CapturedFrame, options: UnprojectionOptions = UnprojectionOptions(),
    decoder: (any ColorDecoder)? = nil
  ) throws -> FramePoints {
    let depth = frame.depth
    let width = depth.width
    let height = depth.height
    let intrinsics = try depthIntrinsics(frame)
    let sampler = try ColorSampler(
      frame.color, depthWidth: width, depthHeight: height, decoder: decoder)
    let worldFromCamera = frame.pose.worldFromOpenCVCamera
    // Depths with a border of invalid pixels, so that neighbours need no bounds checks.
    let paddedWidth = width + 2
    let depths = depth.metersGrid(border: 1)

    let range = options.depthRangeMeters
    let (fx, fy, cx, cy) = (intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy)
    let c = worldFromCamera.columns
    // Colour columns and ray x-slopes depend on u alone: work them out once a frame.
    let columnsUsed = Array(Swift.stride(from: 0, to: width, by: options.stride))
    let rowsUsed = Array(Swift.stride(from: 0, to: height, by: options.stride))
    let colorColumns = columnsUsed.map { sampler?.column(u: $0) ?? 0 }
    let rayXs = columnsUsed.map { (Double($0) + 0.5 - cx) / fx }
    try checkRange(
      c, rayXs: rayXs, rows: rowsUsed, cy: cy, fy: fy, depthRange: range, depths: depths)
    let filter = DepthPixelFilter(options, confidence: frame.confidence, rowStride: paddedWidth)
    let capacity = columnsUsed.count * rowsUsed.count

    // Each point is written straight into three arrays sized for every pixel.
    var points = FramePoints()
    var colors: [RGB8] = []
    var confidences: [UInt8] = []
    points.positions = [Point3](unsafeUninitializedCapacity: capacity) {
      positionsOut, positionCount in
      colors = [RGB8](unsafeUninitializedCapacity: capacity) { colorsOut, colorCount in
        confidences = [UInt8](unsafeUninitializedCapacity: capacity) {
          confidenceOut, confidenceCount in
          // The buffers are values pointing at the arrays' storage: copies write there too.
          let (positionsBuffer, colorsBuffer, confidenceBuffer) = (
            positionsOut, colorsOut, confidenceOut
          )
          var kept = 0
          func run(_ pixels: ColorSampler.Pixels?) {
            depths.withUnsafeBufferPointer { padded in
              let grid = padded.baseAddress.unsafelyUnwrapped + paddedWidth + 1
              for v in rowsUsed {
                let rayY = (Double(v) + 0.5 - cy) / fy
                let colorRow = sampler?.row(v: v) ?? 0
                for (k, u) in columnsUsed.enumerated() {
                  let pixel = grid + (v &* paddedWidth &+ u)
                  guard let pointConfidence = filter.keptConfidence(at: pixel, u: u, v: v) else {
                    continue
                  }
                  let z = Double(pixel.pointee)
                  let world = c.0 * (rayXs[k] * z) + c.1 * (rayY * z) + c.2 * z + c.3
                  positionsBuffer[kept] = Point3(Float(world.x), Float(world.y), Float(world.z))
                  colorsBuffer[kept] =
                    pixels?.color(x: colorColumns[k], y: colorRow) ?? FramePoints.noColor
                  confidenceBuffer[kept] = pointConfidence
                  kept &+= 1
                }
              }
            }
          }
          if let sampler {
            sampler.withPixels { run($0) }
          } else {
            run(nil)
          }
          confidenceCount = kept
        }
        colorCount = confidences.count
      }
      positionCount = colors.count
    }
    points.colors = colors
    points.confidence = confidences
    return points
  }

  /// The frame's intrinsics scaled to its depth map, once the maps, the intrinsics and
  /// the pose are checked as `unproject` checks them.
  ///
  /// - Throws: `UnprojectionError` for maps shorter than their size, unusable
  ///   intrinsics or a pose that is not finite.
  static func depthIntrinsics(_ frame: CapturedFrame) throws(UnprojectionError)
    -> CameraIntrinsics
  {
    let depth = frame.depth
    let width = depth.width
    let height = depth.height
    guard depth.isComplete else {
      throw UnprojectionError.incompleteDepth(
        width: width, height: height, bytes: depth.bytes.count)
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
    guard k.width > 0, k.height > 0, k.nonFiniteValue == nil, k.fx != 0, k.fy != 0 else {
      throw UnprojectionError.invalidIntrinsics
    }
    guard frame.pose.worldFromCamera.isFinite else { throw UnprojectionError.nonFinitePose }
    return k.scaled(toWidth: width, height: height)
  }

  /// Throws unless every point the frame can make fits in a Float: each world
  /// coordinate is at most its translation plus the rotation's row times the widest ray
  /// (at the first or last column and row used) and the depth range's end, or the
  /// deepest pixel in it when that end is too far to bound with. Checked once a frame,
  /// out of line, so the pixel loop stays as it was. It fails for poses and intrinsics
  /// far out of range (a translation of 1e300 m, a focal length of 1e-300), which would
  /// give infinite points, and for any NaN the bound meets.
  @inline(never)
  static func checkRange(
    _ c: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>), rayXs: [Double],
    rows: [Int], cy: Double, fy: Double, depthRange: ClosedRange<Float>, depths: [Float]
  ) throws(UnprojectionError) {
    let rayX = max(abs(rayXs.first ?? 0), abs(rayXs.last ?? 0))
    let rayY = max(
      abs((Double(rows.first ?? 0) + 0.5 - cy) / fy), abs((Double(rows.last ?? 0) + 0.5 - cy) / fy))
    let largest = Double(Float.greatestFiniteMagnitude)
    func fits(depth: Float) -> Bool {
      for axis in 0..<3 {
        let across = abs(c.0[axis]) * rayX + abs(c.1[axis]) * rayY + abs(c.2[axis])
        guard abs(c.3[axis]) + across * Double(depth) <= largest else { return false }
      }
      return true
    }
    if fits(depth: depthRange.upperBound) { return }
    let deepest = depths.lazy.filter { $0 <= depthRange.upperBound }.max() ?? 0
    guard fits(depth: deepest) else { throw .positionOutOfRange }
  }
}
