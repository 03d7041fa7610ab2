/// The sensor-grid filters and sampling applied while depth pixels become points.
///
/// Every filter runs on the depth grid, before a point exists: a pixel that fails one
/// is skipped and the rest of the frame goes on.
public struct UnprojectionOptions: Equatable, Sendable {
  /// Pixels below this confidence are skipped. Frames without a confidence map pass.
  public var minConfidence: ConfidenceLevel
  /// Pixels whose depth lies outside this range, in metres, are skipped.
  public var depthRangeMeters: ClosedRange<Float>
  /// Drops pixels on depth discontinuities; `nil` keeps them.
  public var flyingPixels: FlyingPixelFilter?
  /// Uses every `stride`-th pixel in each direction (1: all), for quick previews. A
  /// value below 1 counts as 1, so no setting can stall or trap a load.
  public var stride: Int {
    didSet { stride = max(1, stride) }
  }

  public init(
    minConfidence: ConfidenceLevel = .low, depthRangeMeters: ClosedRange<Float> = 0...1_000,
    flyingPixels: FlyingPixelFilter? = FlyingPixelFilter(), stride: Int = 1
  ) {
    self.minConfidence = minConfidence
    self.depthRangeMeters = depthRangeMeters
    self.flyingPixels = flyingPixels
    self.stride = max(1, stride)
  }
}

/// Finds "flying pixels": depths interpolated across a silhouette, smeared between a
/// foreground edge and the wall behind it.
///
/// A pixel is flying when, along a row, a column or a diagonal, its depth steps by more
/// than `maxRelativeStep × depth` to the neighbour on one side *and* on to the other
/// side in the same direction: it sits between two surfaces. The threshold scales with
/// depth because the depth difference between neighbouring pixels of one surface grows
/// with distance. A real edge keeps its pixels (one side is continuous), and so does a
/// thin object (both neighbours lie behind it: the steps have opposite signs).
public struct FlyingPixelFilter: Equatable, Sendable {
  public var maxRelativeStep: Float

  public init(maxRelativeStep: Float = 0.04) {
    self.maxRelativeStep = maxRelativeStep
  }

  /// Whether the depth at `pixel` is flying, in a grid of depths (0 = invalid) whose
  /// rows are `rowStride` floats apart and which has a border of at least one invalid
  /// depth all round, so that every neighbour can be read. Neighbours without depth
  /// count as continuous.
  @inline(__always)
  func isFlying(at pixel: UnsafePointer<Float>, rowStride: Int) -> Bool {
    let d = pixel.pointee
    let limit = maxRelativeStep * d
    @inline(__always) func step(_ offset: Int) -> Float {
      let n = pixel[offset]
      return n > 0 ? n - d : 0
    }
    // Between two surfaces: one neighbour nearer, the opposite one farther, both by more
    // than the limit. Along the row, the column and both diagonals.
    @inline(__always) func between(_ offset: Int) -> Bool {
      let forward = step(offset)
      let backward = step(-offset)
      return (forward > limit && backward < -limit) || (forward < -limit && backward > limit)
    }
    return between(1) || between(rowStride) || between(rowStride + 1) || between(rowStride - 1)
  }
}

/// `UnprojectionOptions`' per-pixel filters for one frame, applied alike wherever depth
/// pixels are read (`Unprojector`, `FusionFrame`).
struct DepthPixelFilter {
  let range: ClosedRange<Float>
  let minConfidence: UInt8
  let confidence: ConfidenceMap?
  let flying: FlyingPixelFilter?
  /// Floats between rows of the padded depth grid the pixels are read from.
  let rowStride: Int

  init(_ options: UnprojectionOptions, confidence: ConfidenceMap?, rowStride: Int) {
    range = options.depthRangeMeters
    minConfidence = options.minConfidence.rawValue
    self.confidence = confidence
    flying = options.flyingPixels
    self.rowStride = rowStride
  }

  /// The confidence of the depth at `pixel` (depth pixel (u, v) of a grid with a border
  /// of invalid depths) when it passes every filter (`FramePoints.unknownConfidence`
  /// without a map), nil when it fails one or has no depth.
  @inline(__always)
  func keptConfidence(at pixel: UnsafePointer<Float>, u: Int, v: Int) -> UInt8? {
    let d = pixel.pointee
    guard d > 0, d >= range.lowerBound, d <= range.upperBound else { return nil }
    var kept = FramePoints.unknownConfidence
    if let confidence {
      kept = confidence.values[v &* confidence.bytesPerRow &+ u]
      guard kept >= minConfidence else { return nil }
    }
    if let flying, flying.isFlying(at: pixel, rowStride: rowStride) { return nil }
    return kept
  }
}
