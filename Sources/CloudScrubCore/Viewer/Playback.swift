/// The timeline: which frame the playhead is on, whether it plays, and which frames
/// are drawn.
///
/// A value type changed only through `apply(_:)`; time advances only by explicit
/// seconds, so tests drive it with fixed steps. Playing follows the recording's own
/// timestamps: the shown frame is the last one whose timestamp is at most the
/// timestamp the playhead started from plus the playing time since.
public struct Playback: Equatable, Sendable {
  /// The loaded frames' timestamps, in frame order. Grows as loading proceeds.
  public private(set) var frameTimestampsSeconds: [Double]
  /// The frame rate assumed when the timestamps are not strictly increasing.
  public var fallbackFramesPerSecond: Double
  /// The playhead (0 when nothing is loaded).
  public internal(set) var currentFrame: Int = 0
  public internal(set) var isPlaying: Bool = false
  /// Whether playing past the last frame wraps to the first; otherwise playing stops
  /// on the last frame.
  public internal(set) var loops: Bool
  public internal(set) var mode: TimelineMode = .upToPlayhead
  /// How many frames the last-N mode shows (at least 1): the one count that the mode,
  /// the panel's slider and the M key all read.
  public internal(set) var lastFramesCount: Int = 30
  /// Whether the playhead moves to each newly loaded frame ("follow live"). True at
  /// first and whenever the playhead reaches the last frame; cleared when it moves to
  /// an earlier one.
  public internal(set) var followsNewestFrame: Bool = true
  /// How many leading frames are never drawn (`.hideLeadingFrames`); 0 by default.
  public internal(set) var hiddenLeadingFrames: Int = 0

  /// The frame that playing time is counted from.
  var anchorFrame: Int = 0
  /// Playing time since the anchor frame's timestamp.
  var elapsedSeconds: Double = 0
  /// Whether `frameTimestampsSeconds` is finite and strictly increasing.
  private(set) var timestampsUsable: Bool = true

  /// A timeline over frames already loaded (none by default), paused at the first.
  public init(
    frameTimestampsSeconds: [Double] = [], fallbackFramesPerSecond: Double = 30, loops: Bool = false
  ) {
    self.frameTimestampsSeconds = []
    self.fallbackFramesPerSecond = fallbackFramesPerSecond
    self.loops = loops
    appendTimestamps(frameTimestampsSeconds)
    // A recording loaded up front starts at its beginning; an empty one waits at the
    // end for frames to arrive.
    followsNewestFrame = loadedFrameCount <= 1
  }

  // MARK: - Frames

  /// How many frames are loaded (have a timestamp).
  public var loadedFrameCount: Int { frameTimestampsSeconds.count }

  /// The last loaded frame, nil when none is loaded.
  public var lastFrame: Int? { loadedFrameCount > 0 ? loadedFrameCount - 1 : nil }

  /// The frames to draw, from the mode and the playhead, after the hidden leading
  /// frames; nil when none is loaded or the playhead is among the hidden ones.
  public var visibleFrames: ClosedRange<Int>? {
    guard loadedFrameCount > 0, currentFrame >= hiddenLeadingFrames else { return nil }
    let first: Int
    switch mode {
    case .upToPlayhead: first = 0
    case .currentFrameOnly: first = currentFrame
    case .lastFrames: first = max(0, currentFrame - lastFramesCount + 1)
    }
    return max(first, hiddenLeadingFrames)...currentFrame
  }

  /// The range of points to draw, for points stored in frame order with
  /// `frameRanges[i]..<frameRanges[i + 1]` holding frame i's points.
  ///
  /// Empty (`0..<0`) when nothing is loaded or the visible frames have no points yet.
  /// `frameRanges` may lag behind the timestamps (points arrive after the frame is
  /// announced): frames it does not cover are left out.
  public func drawRange(frameRanges: [Int]) -> Range<Int> {
    guard let visible = visibleFrames else { return 0..<0 }
    let framesWithPoints = frameRanges.count - 1
    let upper = min(visible.upperBound, framesWithPoints - 1)
    guard visible.lowerBound <= upper else { return 0..<0 }
    let start = frameRanges[visible.lowerBound]
    let end = frameRanges[upper + 1]
    return start <= end ? start..<end : 0..<0
  }

  /// The fraction 0…1 of the timeline the playhead is at (for drawing the slider).
  public var playheadFraction: Double {
    guard let last = lastFrame, last > 0 else { return 0 }
    return Double(currentFrame) / Double(last)
  }

  // MARK: - Time

  /// The time of a frame on the recording's clock (or the fallback rate's).
  func timeSeconds(ofFrame frame: Int) -> Double {
    timestampsUsable ? frameTimestampsSeconds[frame] : Double(frame) / fallbackFramesPerSecond
  }

  /// How long the last frame stays on screen before a loop wraps: the mean frame
  /// interval.
  var meanFrameIntervalSeconds: Double {
    guard let last = lastFrame, last > 0 else { return 1 / fallbackFramesPerSecond }
    return (timeSeconds(ofFrame: last) - timeSeconds(ofFrame: 0)) / Double(last)
  }

  /// The last frame at or after `from` whose time is at most `timeSeconds`, allowing
  /// for rounding in the accumulated time.
  func lastFrame(atOrBefore timeSeconds: Double, from: Int) -> Int {
    let limit = timeSeconds + 1e-9 * max(1, abs(timeSeconds))
    var low = from
    var high = loadedFrameCount - 1
    // Times increase with the frame, so binary-search the last one within the limit.
    while low < high {
      let mid = (low + high + 1) / 2
      if self.timeSeconds(ofFrame: mid) <= limit { low = mid } else { high = mid - 1 }
    }
    return low
  }

  mutating func appendTimestamps(_ timestamps: [Double]) {
    for t in timestamps {
      if !t.isFinite || (frameTimestampsSeconds.last.map { t <= $0 } ?? false) {
        timestampsUsable = false
      }
      frameTimestampsSeconds.append(t)
    }
    if !(fallbackFramesPerSecond.isFinite && fallbackFramesPerSecond > 0) {
      fallbackFramesPerSecond = 30
    }
  }
}
