/// A frame made ready for fusion: its depth grid after the unprojection filters, with a
/// colour and a weight for each pixel, the intrinsics at the depth map's size and the
/// camera's pose in OpenCV axes.
///
/// A pixel that fails a filter of `UnprojectionOptions` (confidence, depth range,
/// flying pixels) has depth 0 and adds nothing. With a stride, the grid keeps every
/// `stride`-th pixel of each row and column; lookups go to the nearest kept pixel.
public struct FusionFrame: Sendable {
  /// The grid's size, in kept pixels.
  public let width: Int
  public let height: Int
  /// The pixels, row by row.
  public let pixels: [FusionPixel]
  /// Intrinsics of the full depth map (pixel centres at u + 0.5).
  public let fx: Float
  public let fy: Float
  public let cx: Float
  public let cy: Float
  public let stride: Int
  public let worldFromCamera: Transform3D
  public let cameraFromWorld: Transform3D

  /// The weight of a pixel of `confidence` (ARKit's 0, 1, 2, or
  /// `FramePoints.unknownConfidence` without a map) at `depth` metres: 1, 0.5 or 0.2
  /// by confidence (1 when unknown), times 1 up to a metre and 1/depth² beyond, as the
  /// sensor's noise grows with distance.
  public static func weight(confidence: UInt8, depth: Float) -> Float {
    let byConfidence: Float =
      switch confidence {
      case 0: 0.2
      case 1: 0.5
      default: 1
      }
    return depth <= 1 ? byConfidence : byConfidence / (depth * depth)
  }

  /// The frame's grid after `options`' filters.
  ///
  /// - Throws: what `Unprojector.unproject` throws for the same frame: unusable maps,
  ///   intrinsics or pose, and colour the decoder cannot decode.
  public init(
    _ frame: CapturedFrame, options: UnprojectionOptions = UnprojectionOptions(),
    decoder: (any ColorDecoder)? = nil
  ) throws {
    let intrinsics = try Unprojector.depthIntrinsics(frame)
    let fullWidth = frame.depth.width
    let fullHeight = frame.depth.height
    let sampler = try ColorSampler(
      frame.color, depthWidth: fullWidth, depthHeight: fullHeight, decoder: decoder)
    let step = options.stride
    width = (fullWidth + step - 1) / step
    height = (fullHeight + step - 1) / step
    stride = step
    (fx, fy) = (Float(intrinsics.fx), Float(intrinsics.fy))
    (cx, cy) = (Float(intrinsics.cx), Float(intrinsics.cy))
    worldFromCamera = frame.pose.worldFromOpenCVCamera
    cameraFromWorld = worldFromCamera.rigidInverse
    let paddedWidth = fullWidth + 2
    let padded = frame.depth.metersGrid(border: 1)
    let filter = DepthPixelFilter(options, confidence: frame.confidence, rowStride: paddedWidth)
    let count = width * height
    var pixels = [FusionPixel](
      repeating: FusionPixel(depth: 0, color: FramePoints.noColor, confidence: 0), count: count)
    let (gridWidth, gridHeight) = (width, height)
    func run(_ colors: ColorSampler.Pixels?) {
      padded.withUnsafeBufferPointer { paddedBuffer in
        let grid = paddedBuffer.baseAddress.unsafelyUnwrapped + paddedWidth + 1
        for row in 0..<gridHeight {
          let v = row * step
          let colorRow = sampler?.row(v: v) ?? 0
          for column in 0..<gridWidth {
            let u = column * step
            let pixel = grid + (v * paddedWidth + u)
            guard let confidence = filter.keptConfidence(at: pixel, u: u, v: v) else { continue }
            var color = FramePoints.noColor
            if let colors, let sampler {
              color = colors.color(x: sampler.column(u: u), y: colorRow)
            }
            pixels[row * gridWidth + column] = FusionPixel(
              depth: pixel.pointee, color: color, confidence: confidence)
          }
        }
      }
    }
    if let sampler {
      sampler.withPixels { run($0) }
    } else {
      run(nil)
    }
    self.pixels = pixels
  }

  /// The camera's centre and its x, y and z axes (OpenCV's: right, down, forward) in the
  /// world, in `Float`s.
  var cameraInWorld: (centre: SIMD3<Float>, axes: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) {
    let c = worldFromCamera.columns
    return (
      SIMD3(Float(c.3.x), Float(c.3.y), Float(c.3.z)),
      (
        SIMD3(Float(c.0.x), Float(c.0.y), Float(c.0.z)),
        SIMD3(Float(c.1.x), Float(c.1.y), Float(c.1.z)),
        SIMD3(Float(c.2.x), Float(c.2.y), Float(c.2.z))
      )
    )
  }
}

/// One pixel of a `FusionFrame`, eight bytes, so that `VoxelIntegrator` reads all it
/// needs of a pixel with one load: metres along the camera's forward axis (0 for no
/// depth), and red + green·2⁸ + blue·2¹⁶ + confidence·2²⁴ (`FramePoints.noColor`
/// without a colour image, `FramePoints.unknownConfidence` without a confidence map).
public struct FusionPixel: Equatable, Sendable {
  public var depth: Float
  public var packed: UInt32

  public init(depth: Float, color: RGB8, confidence: UInt8) {
    self.depth = depth
    packed =
      UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(confidence) << 24
  }

  public var color: RGB8 {
    RGB8(
      UInt8(truncatingIfNeeded: packed), UInt8(truncatingIfNeeded: packed >> 8),
      UInt8(truncatingIfNeeded: packed >> 16))
  }

  public var confidence: UInt8 { UInt8(truncatingIfNeeded: packed >> 24) }

  /// The pixel's weight in the average (`FusionFrame.weight(confidence:depth:)`).
  public var weight: Float { FusionFrame.weight(confidence: confidence, depth: depth) }
}
