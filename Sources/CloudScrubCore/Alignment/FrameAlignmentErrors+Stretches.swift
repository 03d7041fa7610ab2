/// A run of consecutive frames whose alignment error stands out.
public struct AlignmentErrorStretch: Equatable, Sendable {
  /// The frames of the run, inclusive.
  public var frames: ClosedRange<Int>
  /// The frame with the largest error in the run, and that error.
  public var worstFrame: Int
  public var worstMeters: Float
  /// The mean error over the run's measured frames.
  public var meanMeters: Float
}

extension FrameAlignmentErrors {
  /// The median of the measured errors; nil when none was measured.
  public var medianMeters: Float? {
    let measured = residualsMeters.compactMap { $0 }.sorted()
    guard !measured.isEmpty else { return nil }
    let middle = measured.count / 2
    return measured.count % 2 == 1
      ? measured[middle] : (measured[middle - 1] + measured[middle]) / 2
  }

  /// The runs of frames whose error is at least `factor` times the median error (frames
  /// without an error end a run), worst first (by their largest error), at most `limit`.
  public func worstStretches(limit: Int = 3, factor: Float = 2) -> [AlignmentErrorStretch] {
    guard let median = medianMeters, limit > 0 else { return [] }
    let threshold = factor * median
    var stretches: [AlignmentErrorStretch] = []
    var index = 0
    while index < residualsMeters.count {
      guard let value = residualsMeters[index], value >= threshold, value > 0 else {
        index += 1
        continue
      }
      let first = index
      var worst = (index, value)
      var sum: Float = 0
      while index < residualsMeters.count, let next = residualsMeters[index], next >= threshold {
        if next > worst.1 { worst = (index, next) }
        sum += next
        index += 1
      }
      stretches.append(
        AlignmentErrorStretch(
          frames: first...(index - 1), worstFrame: worst.0, worstMeters: worst.1,
          meanMeters: sum / Float(index - first)))
    }
    return Array(
      stretches.sorted { ($0.worstMeters, -$0.worstFrame) > ($1.worstMeters, -$1.worstFrame) }
        .prefix(limit))
  }
}
