import Foundation

/// The alignment error of every tracked frame under poses that no longer change
/// (`ErrorMeter`), measured in segments of the timeline at once, one a core.
///
/// A frame's error depends only on the frames of the error window before it, so each
/// segment's meter first takes in, unmeasured, the frames of the window before its first
/// frame (`ErrorMeter.warm`), and then meets every frame with the model a single pass
/// from the start would have built (equal up to rounding; for timestamps that go back,
/// the window's frames are the ones just before in time order). Segments have a fixed
/// length, so the figures do not depend on how many cores measured them.
///
/// Frames come from `kept` (those an earlier pass over the same recording held on to)
/// or are read again. The first frame that cannot be read is the error, whichever
/// segment meets it first.
struct SegmentedErrorPass {
  /// Frames a segment measures: long against the error window (two seconds are 60–120
  /// frames), whose frames each segment reads a second time.
  static let segmentFrames = 480

  let source: any RecordingSource
  let options: AlignmentOptions
  let timestamps: [Double]
  /// Frames before this one keep no error (`TrackingStart`).
  let untracked: Int
  /// Frames already read, by recording index.
  let kept: [Int: AlignmentFrame]
  let isCancelled: (@Sendable () -> Bool)?
  var segmentFrames = Self.segmentFrames

  /// Each frame's error under `poses` (world from OpenCV camera, one a frame): nil
  /// before `untracked` and where too few points found a plane. `progress` gets the
  /// fraction done, on the calling thread.
  ///
  /// - Throws: `FrameLoadError` for a frame that cannot be read or prepared,
  ///   `CancellationError` when `isCancelled` said so.
  func run(under poses: [Transform3D], progress: (Double) -> Void) throws -> [Float?] {
    let count = timestamps.count
    guard untracked < count else { return Array(repeating: nil, count: count) }
    // The model's voxel size comes from the first measured frame, as in one pass.
    let voxel = options.voxelSize(for: try frame(untracked, under: poses))
    let segments = Swift.stride(from: untracked, to: count, by: max(1, segmentFrames)).map {
      $0..<min(count, $0 + max(1, segmentFrames))
    }
    let residuals = ParallelSlots<Float?>(count: count, initial: nil)
    let board = Board(segments: segments.count, cancelled: isCancelled)
    let total = Double(count - untracked)
    // Helpers take segments until none is left; so does the calling thread, which also
    // reports the progress after each frame it measures.
    let helping: @Sendable () -> Void = {
      while let segment = board.take() {
        do {
          try measureSegment(segments[segment], voxel: voxel, poses: poses, into: residuals) {
            board.frameDone()
            return board.stops(segment)
          }
        } catch {
          board.fail(segment, error)
        }
      }
    }
    let cores = Parallel.cores
    let helpers = (1..<max(1, min(cores, segments.count))).map { _ in BackgroundWork<Never>() }
    for helper in helpers {
      helper.start {
        helping()
        return nil
      }
    }
    while let segment = board.take() {
      do {
        try measureSegment(segments[segment], voxel: voxel, poses: poses, into: residuals) {
          progress(Double(board.frameDone()) / total)
          return board.stops(segment)
        }
      } catch {
        board.fail(segment, error)
      }
    }
    for helper in helpers {
      while !helper.waitUntilIdle(seconds: 0.1) { progress(Double(board.framesDone) / total) }
    }
    progress(Double(board.framesDone) / total)
    if let error = board.failure { throw error }
    if isCancelled?() == true { throw CancellationError() }
    return (0..<count).map { residuals[$0] }
  }

  /// Measures `range` after warming its meter with the window before it; `done` is
  /// called after each measured frame and says whether to stop.
  private func measureSegment(
    _ range: Range<Int>, voxel: Float, poses: [Transform3D], into residuals: ParallelSlots<Float?>,
    done: () -> Bool
  ) throws {
    var start = max(untracked, range.lowerBound - (FrameWindow.maximumFrames - 1))
    let windowStart = timestamps[range.lowerBound] - options.errorWindowSeconds
    while start < range.lowerBound && timestamps[start] < windowStart { start += 1 }
    var meter = ErrorMeter(options: options, voxelSizeMeters: voxel)
    for index in start..<range.upperBound {
      let frame = try frame(index, under: poses)
      if index < range.lowerBound {
        meter.warm(frame, under: poses[index])
      } else {
        residuals[index] = meter.measure(frame, under: poses[index])
        if done() { return }
      }
    }
  }

  /// Frame `index` under `poses`, kept or read.
  private func frame(_ index: Int, under poses: [Transform3D]) throws -> AlignmentFrame {
    var frame: AlignmentFrame
    if let held = kept[index] {
      frame = held
    } else {
      do {
        frame = try AlignmentFrame(source.frame(at: index), index: index, options: options)
      } catch {
        throw FrameLoadError(frameIndex: index, underlying: error)
      }
    }
    frame.worldFromCamera = poses[index]
    return frame
  }

  /// The segments still to measure, the frames measured, and the earliest failure.
  private final class Board: @unchecked Sendable {
    private let lock = NSLock()
    private let cancelled: (@Sendable () -> Bool)?
    private let segments: Int
    private var next = 0
    private var done = 0
    /// The failed segment with the lowest index and its error: segments after it stop,
    /// those before it go on (one of them may fail earlier in the timeline).
    private var failed: (segment: Int, error: any Error)?

    init(segments: Int, cancelled: (@Sendable () -> Bool)?) {
      self.segments = segments
      self.cancelled = cancelled
    }

    var framesDone: Int { lock.withLock { done } }
    var failure: (any Error)? { lock.withLock { failed?.error } }

    /// The next segment to measure, nil when none is left or the pass stops.
    func take() -> Int? {
      if cancelled?() == true { return nil }
      return lock.withLock {
        guard next < segments, failed.map({ next < $0.segment }) ?? true else { return nil }
        defer { next += 1 }
        return next
      }
    }

    /// Counts one more frame measured and returns how many are.
    @discardableResult
    func frameDone() -> Int {
      lock.withLock {
        done += 1
        return done
      }
    }

    /// Whether `segment` should stop: cancelled, or an earlier one failed.
    func stops(_ segment: Int) -> Bool {
      if cancelled?() == true { return true }
      return lock.withLock { failed.map { $0.segment < segment } ?? false }
    }

    func fail(_ segment: Int, _ error: any Error) {
      lock.withLock {
        if failed.map({ segment < $0.segment }) ?? true { failed = (segment, error) }
      }
    }
  }
}
