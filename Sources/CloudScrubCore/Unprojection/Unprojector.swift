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
  /// - Throws: `UnprojectionError` for maps shorter than their size, unusable
  ///   intrinsics, a pose that is not finite or points that land past a Float's range,
  ///   and the decoder's error for colour it cannot decode.
  public static func unproject(
    _ frame: CapturedFrame, options: UnprojectionOptions = UnprojectionOptions(),
    decoder: (any ColorDecoder)? = nil
  ) throws -> FramePoints {
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
    let intrinsics = k.scaled(toWidth: width, height: height)
    let sampler = try ColorSampler(
      frame.color, depthWidth: width, depthHeight: height, decoder: decoder)
    let worldFromCamera = frame.pose.worldFromOpenCVCamera
    // Depths with a border of invalid pixels, so that neighbours need no bounds checks.
    let paddedWidth = width + 2
    let depths = depth.metersGrid(border: 1)

    let minConfidence = options.minConfidence.rawValue
    let range = options.depthRangeMeters
    let (fx, fy, cx, cy) = (intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy)
    let c = worldFromCamera.columns
    // Colour columns and ray x-slopes depend on u alone: work them out once a frame.
    let columnsUsed = Array(Swift.stride(from: 0, to: width, by: options.stride))
    let rowsUsed = Array(Swift.stride(from: 0, to: height, by: options.stride))
    let colorColumns = columnsUsed.map { sampler?.column(u: $0) ?? 0 }
    let rayXs = columnsUsed.map { (Double($0) + 0.5 - cx) / fx }
    let confidenceMap = frame.confidence
    let flying = options.flyingPixels
    let capacity = columnsUsed.count * rowsUsed.count

    // A point whose world position a Float cannot hold (a pose or intrinsics far out of
    // range) makes the frame an error instead of an infinite point.
    let largest = Double(Float.greatestFiniteMagnitude)
    let largestSquare = largest * largest
    var outOfRange = false

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
                  let d = pixel.pointee
                  guard d > 0, d >= range.lowerBound, d <= range.upperBound else { continue }
                  var pointConfidence = FramePoints.unknownConfidence
                  if let confidenceMap {
                    pointConfidence = confidenceMap.values[v &* confidenceMap.bytesPerRow &+ u]
                    guard pointConfidence >= minConfidence else { continue }
                  }
                  if let flying, flying.isFlying(at: pixel, rowStride: paddedWidth) {
                    continue
                  }
                  let z = Double(d)
                  let world = c.0 * (rayXs[k] * z) + c.1 * (rayY * z) + c.2 * z + c.3
                  // Past a Float's range (or NaN from an overflow): no point is written.
                  guard (world * world).max() <= largestSquare else {
                    outOfRange = true
                    continue
                  }
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
    if outOfRange { throw UnprojectionError.positionOutOfRange }
    points.colors = colors
    points.confidence = confidences
    return points
  }
}
