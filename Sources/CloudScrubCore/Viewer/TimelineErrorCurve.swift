/// The alignment error drawn along the timeline: per-frame values bucketed into the
/// columns of pixels the curve has, the largest value of each column kept so that a
/// single bad frame never disappears between pixels.
///
/// Frame f of n lies under columns `⌊f · c / n⌋ … ⌈(f + 1) · c / n⌉ - 1` of c: with
/// more frames than columns a column holds several frames, with fewer a frame spans
/// several columns. `frame(atColumn:)` is the inverse the click on the curve uses.
public struct TimelineErrorCurve: Equatable, Sendable {
  /// The largest measured value of each column, metres; nil where no frame of the
  /// column was measured.
  public var columnsMeters: [Float?]
  /// The number of frames the curve covers.
  public var frameCount: Int

  /// Buckets `errors` into `columns` columns (at least one).
  public init(_ errors: FrameAlignmentErrors, columns: Int) {
    let n = errors.frameCount
    let c = max(1, columns)
    frameCount = n
    guard n > 0 else {
      columnsMeters = Array(repeating: nil, count: c)
      return
    }
    columnsMeters = (0..<c).map { column in
      let frames = Self.frames(inColumn: column, columns: c, frameCount: n)
      return errors.residualsMeters[frames].lazy.compactMap { $0 }.max()
    }
  }

  /// The frames under column `column` of `columns` when the timeline has
  /// `frameCount` frames (never empty).
  public static func frames(inColumn column: Int, columns: Int, frameCount: Int) -> Range<Int> {
    let first = column * frameCount / columns
    let end = max(first + 1, ((column + 1) * frameCount + columns - 1) / columns)
    return min(first, frameCount - 1)..<min(end, frameCount)
  }

  /// The frame a click at `fraction` (0 left … 1 right) of the curve's width means.
  public static func frame(atFraction fraction: Double, frameCount: Int) -> Int {
    guard frameCount > 0, fraction.isFinite else { return 0 }
    return min(frameCount - 1, max(0, Int((fraction * Double(frameCount)).rounded(.down))))
  }

  /// Where frame `frame`'s centre lies, as a fraction of the curve's width.
  public static func fraction(ofFrame frame: Int, frameCount: Int) -> Double {
    guard frameCount > 0 else { return 0 }
    return (Double(frame) + 0.5) / Double(frameCount)
  }
}

extension FrameAlignmentErrors {
  /// The least top of the scale the curve and the colour mode use, metres: below a
  /// centimetre every frame is well aligned, and the ramp should not say otherwise.
  public static let minimumScaleMeters: Float = 0.01

  /// The top of the scale the curve and the colour mode share: the worst finite
  /// measured residual, at least `minimumScaleMeters`. Red on the ramp, the top of the
  /// curve.
  public var scaleMeters: Float {
    let worst = residualsMeters.lazy.compactMap { $0 }.filter(\.isFinite).max() ?? 0
    return max(Self.minimumScaleMeters, worst)
  }
}
