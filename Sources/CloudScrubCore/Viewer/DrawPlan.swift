/// Which points one view draws, split into passes of at most a point budget, so that a
/// picture of any size is on screen within a frame time and then refines.
///
/// Points are stored in frame order, and frames that follow each other see nearly the
/// same scene. So a pass takes every k-th frame of the shown window: the first pass
/// (frames a, a + k, a + 2k, …) already covers the scene, each later pass (offset
/// 1, 2, … k − 1) fills it in, and after `passCount` passes every shown point has been
/// drawn exactly once. Each frame is one contiguous range of points, so a pass is a
/// list of ranges found from the frame prefix sums alone, without touching a point.
///
/// No pass holds more points than the budget, but a single frame is never split: when
/// one frame holds more points than the budget (a PLY file is one frame), its pass
/// holds just that frame and goes over the budget.
public struct DrawPlan: Equatable, Sendable {
  /// The shown window, as positions in the store's frame list; nil when nothing shows.
  public let frames: ClosedRange<Int>?
  /// Frames between two frames of one pass; also the number of passes.
  public let frameStep: Int
  /// Prefix sums of the shown frames' point counts, from the store.
  private let frameRanges: [Int]

  /// The plan for drawing `state`'s shown frames of a store with `frameRanges` in
  /// passes of at most `budgetPoints` (a budget below 1 counts as 1).
  public init(state: ViewerState, frameRanges: [Int], budgetPoints: Int) {
    self.init(
      visibleFrames: state.playback.visibleFrames, frameRanges: frameRanges,
      budgetPoints: budgetPoints)
  }

  public init(visibleFrames: ClosedRange<Int>?, frameRanges: [Int], budgetPoints: Int) {
    self.frameRanges = frameRanges
    let stored = frameRanges.count - 1
    guard let visible = visibleFrames, stored > 0, visible.lowerBound < stored else {
      frames = nil
      frameStep = 1
      return
    }
    let window = max(0, visible.lowerBound)...min(visible.upperBound, stored - 1)
    frames = window
    let points = frameRanges[window.upperBound + 1] - frameRanges[window.lowerBound]
    let budget = max(1, budgetPoints)
    // The fewest passes that could hold the points, then more while frames of uneven
    // size make one pass too large; at one frame a pass, only a frame that alone is
    // larger than the budget goes over it.
    var step = min(window.count, max(1, (points + budget - 1) / budget))
    while step < window.count
      && Self.largestPass(window, frameRanges: frameRanges, step: step) > budget
    {
      step = min(window.count, step + max(1, step / 4))
    }
    frameStep = step
  }

  /// Points in the largest pass of every `step`-th frame.
  private static func largestPass(_ window: ClosedRange<Int>, frameRanges: [Int], step: Int) -> Int
  {
    var sums = [Int](repeating: 0, count: step)
    for frame in window {
      sums[(frame - window.lowerBound) % step] += frameRanges[frame + 1] - frameRanges[frame]
    }
    return sums.max() ?? 0
  }

  /// Passes needed to draw every shown point.
  public var passCount: Int { frames == nil ? 0 : frameStep }

  /// Points shown when every pass is drawn.
  public var totalPoints: Int {
    guard let frames else { return 0 }
    return frameRanges[frames.upperBound + 1] - frameRanges[frames.lowerBound]
  }

  /// The point ranges of pass `index` (0 ≤ index < passCount), in order; adjacent
  /// frames merge into one range, so a one-pass plan is a single range.
  public func ranges(ofPass index: Int) -> [Range<Int>] {
    guard let frames, (0..<passCount).contains(index) else { return [] }
    var ranges: [Range<Int>] = []
    var frame = frames.lowerBound + index
    while frame <= frames.upperBound {
      let range = frameRanges[frame]..<frameRanges[frame + 1]
      if !range.isEmpty {
        if let last = ranges.last, last.upperBound == range.lowerBound {
          ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
        } else {
          ranges.append(range)
        }
      }
      frame += frameStep
    }
    return ranges
  }

  /// Points in pass `index`.
  public func pointCount(ofPass index: Int) -> Int {
    ranges(ofPass: index).reduce(0) { $0 + $1.count }
  }
}

/// The point budget a renderer can draw within a frame time, learnt from how fast it
/// drew: a moving average of points per second, times the frame time.
public struct PointBudget: Equatable, Sendable {
  /// The frame time a camera move should answer within (30 frames a second).
  public var frameSeconds: Double
  /// The smallest budget, so that a slow first measurement cannot starve the picture.
  public var minimumPoints: Int
  /// The current estimate of points drawn a second.
  public private(set) var pointsPerSecond: Double

  public init(
    frameSeconds: Double = 1.0 / 30, minimumPoints: Int = 100_000,
    pointsPerSecond: Double = 30_000_000
  ) {
    self.frameSeconds = frameSeconds
    self.minimumPoints = minimumPoints
    self.pointsPerSecond = pointsPerSecond
  }

  /// Points a pass may hold.
  public var points: Int {
    max(minimumPoints, Int(min(pointsPerSecond * frameSeconds, Double(Int32.max))))
  }

  /// Learns from a pass that drew `points` in `seconds`. Small passes say little about
  /// speed (fixed costs dominate) and are ignored.
  public mutating func record(points: Int, seconds: Double) {
    guard points >= 10_000, seconds > 0, seconds.isFinite else { return }
    let measured = Double(points) / seconds
    pointsPerSecond = 0.5 * pointsPerSecond + 0.5 * measured
  }
}
