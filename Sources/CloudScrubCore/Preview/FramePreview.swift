/// One frame drawn as the three small images the window shows beside the 3D view: its
/// colour image, its depth map in false colour and its confidence map.
///
/// All images are 8-bit RGB, top row first as the capture stored them, ready to upload
/// as textures. The false colours are `FalseColor`'s, the same as the points' in the 3D
/// view, so a panel and the cloud agree on what a colour means.
public struct FramePreview: Equatable, Sendable {
  /// The frame's index in its recording.
  public var frameIndex: Int
  /// The colour image reduced for display; nil when the frame has no colour image.
  public var color: RGBImage?
  /// The depth map in false colour, at the depth map's resolution: black where a pixel
  /// has no valid depth.
  public var depth: RGBImage
  /// The confidence map in `FalseColor.confidence` colours, at its own resolution; nil
  /// when the frame has no confidence map.
  public var confidence: RGBImage?
  /// The depths in metres the ramp's ends stand for (ramp(0) at the lower bound, ramp(1)
  /// at the upper), for the legend.
  public var depthRangeMeters: ClosedRange<Float>

  public init(
    frameIndex: Int, color: RGBImage?, depth: RGBImage, confidence: RGBImage?,
    depthRangeMeters: ClosedRange<Float>
  ) {
    self.frameIndex = frameIndex
    self.color = color
    self.depth = depth
    self.confidence = confidence
    self.depthRangeMeters = depthRangeMeters
  }
}

extension FramePreview {
  /// The share of valid depths left out at each end of an automatic depth range, so a
  /// few stray far or near pixels do not squeeze the rest of the frame into one colour.
  static let automaticRangeTailFraction: Float = 0.02

  /// Draws `frame`'s preview images.
  ///
  /// - Parameters:
  ///   - frameIndex: the frame's index in its recording, kept with the images.
  ///   - decoder: decodes JPEG colour; needed only when the frame's colour is JPEG.
  ///   - maxColorWidth: the colour image is reduced to at most this many pixels wide
  ///     (at least 1), keeping its aspect ratio: by averaging boxes of pixels, and for
  ///     JPEG first by the decoder's DCT scaling, which is asked for the target size.
  ///   - depthRangeMeters: the depths the ramp's ends stand for. Nil uses the frame's
  ///     own valid depths from the 2nd to the 98th percentile (nearest rank); 0…0 when
  ///     the frame has no valid depth.
  /// - Throws: the decoder's error for JPEG it cannot decode;
  ///   `UnprojectionError.noJPEGDecoder` for JPEG colour without a decoder;
  ///   `UnprojectionError.incompleteDepth`, `.incompleteConfidence` or `.incompleteColor`
  ///   when an image holds fewer bytes than its size and row stride say.
  public static func make(
    from frame: CapturedFrame, frameIndex: Int, decoder: (any ColorDecoder)?,
    maxColorWidth: Int = 480, depthRangeMeters: ClosedRange<Float>? = nil
  ) throws -> FramePreview {
    let depthMap = frame.depth
    guard depthMap.width >= 0, depthMap.height >= 0, depthMap.isComplete else {
      throw UnprojectionError.incompleteDepth(
        width: depthMap.width, height: depthMap.height, bytes: depthMap.bytes.count)
    }
    // metersGrid already turns disparity, Float16 and padded rows into metres, with 0
    // for every sample that is not a positive finite depth.
    let depthsMeters = depthMap.metersGrid()
    let rangeMeters = depthRangeMeters ?? automaticDepthRangeMeters(depthsMeters)
    let depth = depthImage(
      depthsMeters, width: depthMap.width, height: depthMap.height, rangeMeters: rangeMeters)
    let confidence = try frame.confidence.map(confidenceImage)
    let color = try frame.color.flatMap {
      try colorImage(
        $0, maxWidth: max(1, maxColorWidth), decoder: decoder,
        fallbackAspect: (depthMap.width, depthMap.height))
    }
    return FramePreview(
      frameIndex: frameIndex, color: color, depth: depth, confidence: confidence,
      depthRangeMeters: rangeMeters)
  }

  // MARK: - Depth

  /// The 2nd…98th percentile (nearest rank) of the valid (positive) depths, or 0…0
  /// when there are none.
  static func automaticDepthRangeMeters(_ depthsMeters: [Float]) -> ClosedRange<Float> {
    let valid = depthsMeters.filter { $0 > 0 }.sorted()
    guard !valid.isEmpty else { return 0...0 }
    let lastIndex = Float(valid.count - 1)
    let lowIndex = Int((lastIndex * automaticRangeTailFraction).rounded())
    let highIndex = Int((lastIndex * (1 - automaticRangeTailFraction)).rounded())
    return valid[lowIndex]...valid[highIndex]
  }

  /// Depths in metres (0 for invalid) in false colour: black for 0, else the ramp at
  /// the depth's place in `rangeMeters`, clamped.
  static func depthImage(
    _ depthsMeters: [Float], width: Int, height: Int, rangeMeters: ClosedRange<Float>
  ) -> RGBImage {
    let near = rangeMeters.lowerBound
    // The shader's guard against an empty range: every depth at or past `near` then
    // shows the ramp's far end, instead of dividing by zero.
    let spanMeters = max(rangeMeters.upperBound - near, 1e-6)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for (i, depthMeters) in depthsMeters.enumerated() where depthMeters > 0 {
      let color = FalseColor.ramp((depthMeters - near) / spanMeters)
      (pixels[i * 3], pixels[i * 3 + 1], pixels[i * 3 + 2]) = (color.r, color.g, color.b)
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  // MARK: - Confidence

  /// The confidence map in `FalseColor.confidence` colours.
  ///
  /// - Throws: `UnprojectionError.incompleteConfidence` when the map is shorter than
  ///   its size and stride say.
  static func confidenceImage(_ map: ConfidenceMap) throws -> RGBImage {
    guard map.width >= 0, map.height >= 0, map.bytesPerRow >= map.width, map.isComplete else {
      throw UnprojectionError.incompleteConfidence(
        width: map.width, height: map.height, bytes: map.values.count)
    }
    // Three colours (and grey for anything else): look each up once, not per pixel.
    let table = (0...255).map { FalseColor.confidence(UInt8($0)) }
    var pixels = [UInt8](repeating: 0, count: map.width * map.height * 3)
    for y in 0..<map.height {
      for x in 0..<map.width {
        let color = table[Int(map.value(x: x, y: y))]
        let i = (y * map.width + x) * 3
        (pixels[i], pixels[i + 1], pixels[i + 2]) = (color.r, color.g, color.b)
      }
    }
    return RGBImage(width: map.width, height: map.height, pixels: pixels)
  }
}
