/// The points one frame contributes: positions in the world, their colours (grey when
/// the frame has no colour), confidence (`unknownConfidence` when it has no map) and,
/// for a scan that carries it, intensity.
public struct FramePoints: Equatable, Sendable {
  public var positions: [Point3] = []
  public var colors: [RGB8] = []
  public var confidence: [UInt8] = []
  /// Each point's intensity as a grey level (`IntensityGreys`: the cloud's 1st to 99th
  /// percentile as 0…255), or empty when the points have no intensity.
  public var intensity: [UInt8] = []

  public init() {}

  public var count: Int { positions.count }

  /// The confidence a point gets when its frame has no confidence map. It passes every
  /// minimum-confidence filter.
  public static let unknownConfidence: UInt8 = 255
  /// The colour a point gets when its frame has no colour image.
  public static let noColor = RGB8(160, 160, 160)
  /// The intensity level a point without one gets beside points that have one.
  public static let noIntensity: UInt8 = 0

  /// The points at `indices`, in that order, with every column they have.
  public func gathering<S: Sequence<Int>>(_ indices: S) -> FramePoints {
    withColumns { $0.gathering(indices) }
  }

  /// Calls `body` with the points' columns, borrowed for the call.
  public func withColumns<R>(_ body: (PointColumns) throws -> R) rethrows -> R {
    try PointColumns.borrowing(positions, colors, confidence, intensity, body)
  }
}

/// Borrowed columns of some points, as a store, a frame or a sorted piece holds them,
/// so that points move between them as one value.
///
/// `colors` and `confidence` may be shorter than `positions` (the missing ones read as
/// `FramePoints.noColor` and `unknownConfidence`); `intensity` is empty when the points
/// have none, and otherwise the missing ones read as `FramePoints.noIntensity`.
public struct PointColumns: @unchecked Sendable {
  public let positions: UnsafeBufferPointer<Point3>
  public let colors: UnsafeBufferPointer<RGB8>
  public let confidence: UnsafeBufferPointer<UInt8>
  public let intensity: UnsafeBufferPointer<UInt8>

  public init(
    positions: UnsafeBufferPointer<Point3>, colors: UnsafeBufferPointer<RGB8>,
    confidence: UnsafeBufferPointer<UInt8>, intensity: UnsafeBufferPointer<UInt8>
  ) {
    self.positions = positions
    self.colors = colors
    self.confidence = confidence
    self.intensity = intensity
  }

  /// Borrows the four arrays as columns for the call.
  static func borrowing<R>(
    _ positions: [Point3], _ colors: [RGB8], _ confidence: [UInt8], _ intensity: [UInt8],
    _ body: (PointColumns) throws -> R
  ) rethrows -> R {
    try positions.withUnsafeBufferPointer { positions in
      try colors.withUnsafeBufferPointer { colors in
        try confidence.withUnsafeBufferPointer { confidence in
          try intensity.withUnsafeBufferPointer { intensity in
            try body(
              PointColumns(
                positions: positions, colors: colors, confidence: confidence,
                intensity: intensity))
          }
        }
      }
    }
  }

  public var count: Int { positions.count }
  /// Whether the points carry intensity.
  public var hasIntensity: Bool { !intensity.isEmpty }

  @inline(__always)
  public func color(at index: Int) -> RGB8 {
    index < colors.count ? colors[index] : FramePoints.noColor
  }

  @inline(__always)
  public func confidence(at index: Int) -> UInt8 {
    index < confidence.count ? confidence[index] : FramePoints.unknownConfidence
  }

  @inline(__always)
  public func intensity(at index: Int) -> UInt8 {
    index < intensity.count ? intensity[index] : FramePoints.noIntensity
  }

  /// Points `range` (within `count`).
  public subscript(range: Range<Int>) -> PointColumns {
    func part<T>(_ column: UnsafeBufferPointer<T>) -> UnsafeBufferPointer<T> {
      UnsafeBufferPointer(rebasing: column[range.clamped(to: 0..<column.count)])
    }
    return PointColumns(
      positions: UnsafeBufferPointer(rebasing: positions[range]), colors: part(colors),
      confidence: part(confidence), intensity: part(intensity))
  }

  /// The points at `indices` as a frame's points: every column filled, intensity only
  /// when these points have it.
  public func gathering<S: Sequence<Int>>(_ indices: S) -> FramePoints {
    var points = FramePoints()
    let estimate = indices.underestimatedCount
    points.positions.reserveCapacity(estimate)
    points.colors.reserveCapacity(estimate)
    points.confidence.reserveCapacity(estimate)
    if hasIntensity { points.intensity.reserveCapacity(estimate) }
    for index in indices {
      points.positions.append(positions[index])
      points.colors.append(color(at: index))
      points.confidence.append(confidence(at: index))
      if hasIntensity { points.intensity.append(intensity(at: index)) }
    }
    return points
  }
}
