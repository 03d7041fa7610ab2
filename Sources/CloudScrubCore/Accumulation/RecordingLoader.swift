import Foundation

/// Which frames of a recording to load and how to unproject them.
public struct FrameSelection: Equatable, Sendable {
  /// First and last frame (0-based, inclusive); `nil` for the whole recording.
  public var range: ClosedRange<Int>?
  /// Takes every `every`-th frame of the range, starting with its first. A value below
  /// 1 counts as 1.
  public var every: Int {
    didSet { every = max(1, every) }
  }

  public init(range: ClosedRange<Int>? = nil, every: Int = 1) {
    self.range = range
    self.every = max(1, every)
  }

  /// The recording's frame indices selected, in order, clamped to `frameCount`.
  public func indices(frameCount: Int) -> [Int] {
    guard frameCount > 0 else { return [] }
    let first = max(range?.lowerBound ?? 0, 0)
    let last = min(range?.upperBound ?? frameCount - 1, frameCount - 1)
    guard first <= last else { return [] }
    return Array(Swift.stride(from: first, through: last, by: every))
  }
}

/// Where a load stands, for progress displays.
public struct LoadProgress: Equatable, Sendable {
  public var framesDone: Int
  public var framesTotal: Int
  public var points: Int

  public var fraction: Double { framesTotal == 0 ? 1 : Double(framesDone) / Double(framesTotal) }
}

/// A frame that could not be loaded, with the recording's index of it.
public struct FrameLoadError: Error, Sendable, CustomStringConvertible {
  public var frameIndex: Int
  public var underlying: any Error

  public init(frameIndex: Int, underlying: any Error) {
    self.frameIndex = frameIndex
    self.underlying = underlying
  }

  public var description: String { "frame \(frameIndex): \(underlying)" }
}

/// Loads a recording's frames into a `PointStore`: decoded and unprojected on every
/// core, appended in timeline order.
///
/// One worker a core takes the next frame as soon as it is free; the calling thread
/// appends finished frames in order while the workers go on, at most a few frames
/// ahead of it. The first frame is appended (and handed to `onFrame`) as soon as it is
/// done.
public struct RecordingLoader: Sendable {
  public var source: any RecordingSource
  public var selection: FrameSelection
  public var unprojection: UnprojectionOptions
  public var decoder: (any ColorDecoder)?
  /// Thins the frames as they load (see `IngestMerge`): a point whose voxel of this
  /// size already holds one is not handed on. nil keeps every point.
  public var ingestMergeMeters: Float?

  public init(
    source: any RecordingSource, selection: FrameSelection = FrameSelection(),
    unprojection: UnprojectionOptions = UnprojectionOptions(), decoder: (any ColorDecoder)? = nil,
    ingestMergeMeters: Float? = nil
  ) {
    self.source = source
    self.selection = selection
    self.unprojection = unprojection
    self.decoder = decoder
    self.ingestMergeMeters = ingestMergeMeters
  }

  /// Decodes and unprojects one frame.
  public func points(ofFrame index: Int) throws(FrameLoadError) -> FramePoints {
    do {
      let frame = try source.frame(at: index)
      return try Unprojector.unproject(frame, options: unprojection, decoder: decoder)
    } catch {
      throw FrameLoadError(frameIndex: index, underlying: error)
    }
  }

  /// Loads every selected frame.
  ///
  /// - Parameters:
  ///   - progress: called after each appended frame.
  ///   - onFrame: called with the store after each appended frame (the first at once);
  ///     return `false` to stop loading early.
  /// - Throws: `FrameLoadError` for the first frame (in timeline order) that fails.
  public func load(
    progress: ((LoadProgress) -> Void)? = nil, onFrame: ((PointStore) -> Bool)? = nil
  ) throws -> PointStore {
    var store = PointStore()
    try stream { k, total, frameIndex, points in
      if k == 0 {
        store.reserveCapacity(estimatedPoints: estimatedPoints(firstFrame: points, frames: total))
      }
      store.append(points, frameIndex: frameIndex)
      progress?(LoadProgress(framesDone: k + 1, framesTotal: total, points: store.count))
      return onFrame?(store) ?? true
    }
    return store
  }

  /// Decodes and unprojects every selected frame on all cores and hands the frames
  /// over in timeline order, without keeping them: for a caller that accumulates
  /// them itself (the viewer).
  ///
  /// - Parameter body: called with the frame's position in the selection, the
  ///   selection's size, the frame's index in the recording and its points; returns
  ///   `false` to stop.
  /// - Throws: `FrameLoadError` for the first frame (in timeline order) that fails, or
  ///   what `body` throws.
  public func stream(
    _ body: (_ position: Int, _ total: Int, _ frameIndex: Int, _ points: FramePoints) throws -> Bool
  ) throws {
    let indices = selection.indices(frameCount: source.frameCount)
    // The merge runs here, in timeline order: which point reaches a voxel first depends
    // on it.
    var merge = ingestMergeMeters.map { IngestMerge(voxelSizeMeters: $0) }
    try FramePipeline.inOrder(
      indices, make: { index throws(FrameLoadError) in try points(ofFrame: index) }
    ) { k, index, framePoints in
      var points = framePoints
      if merge != nil {
        do {
          points = try merge?.thin(points) ?? points
        } catch {
          throw FrameLoadError(frameIndex: index, underlying: error)
        }
      }
      return try body(k, indices.count, index, points)
    }
  }

  /// Room to reserve once the first frame is in: its points for every selected frame
  /// (a little more, since later frames may see more), but never more than half this
  /// machine's memory holds, whatever the recording claims. Sizes from a header are not
  /// trusted: only points that exist are counted.
  private func estimatedPoints(firstFrame: FramePoints, frames: Int) -> Int {
    let perFrame = firstFrame.count + firstFrame.count / 4
    let (wanted, overflow) = perFrame.multipliedReportingOverflow(by: frames)
    let affordable =
      Int(clamping: ProcessInfo.processInfo.physicalMemory / 2) / PointStore.bytesPerPoint
    return overflow ? affordable : min(wanted, affordable)
  }
}

/// Hands frame jobs to workers in order and gives their results back in order, with at
/// most `window` results waiting to be taken.
final class FramePipeline<Value: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private let window: Int
  private var nextToStart = 0
  private var nextToTake = 0
  private var cancelled = false
  private var results: [Int: Result<Value, FrameLoadError>] = [:]

  init(count: Int, window: Int) {
    self.count = count
    self.window = max(window, 1)
  }

  /// Makes the value of every frame of `indices` on one worker a core and hands the
  /// values to `body` in order, on the calling thread, at most three a worker ahead of
  /// it.
  ///
  /// - Parameter body: called with the frame's position in `indices`, its index and its
  ///   value; returns `false` to stop.
  /// - Throws: the first error in order, of `make` or of `body`.
  static func inOrder(
    _ indices: [Int], make: @escaping @Sendable (Int) throws(FrameLoadError) -> Value,
    _ body: (_ position: Int, _ index: Int, _ value: Value) throws -> Bool
  ) throws {
    let workers = max(1, min(Parallel.cores, indices.count))
    let pipeline = FramePipeline(count: indices.count, window: workers * 3)
    // One job a worker; once this returns, each finishes the frame it holds and ends
    // (`pipeline.cancel()`), without this waiting for it.
    for _ in 0..<workers {
      BackgroundWork<Never>().start {
        while let k = pipeline.nextJob() {
          pipeline.finish(k, Result { () throws(FrameLoadError) in try make(indices[k]) })
        }
        return nil
      }
    }
    defer { pipeline.cancel() }
    for k in 0..<indices.count {
      if try !body(k, indices[k], try pipeline.take(k).get()) { break }
    }
  }

  /// The next job for a worker, or `nil` when there is none left (or the load stopped).
  /// Waits while the worker would run too far ahead of the consumer.
  func nextJob() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while !cancelled && nextToStart < count && nextToStart >= nextToTake + window {
      condition.wait()
    }
    guard !cancelled, nextToStart < count else { return nil }
    nextToStart += 1
    return nextToStart - 1
  }

  func finish(_ job: Int, _ result: Result<Value, FrameLoadError>) {
    condition.lock()
    results[job] = result
    condition.broadcast()
    condition.unlock()
  }

  /// Waits for job `k`'s result and removes it.
  func take(_ k: Int) -> Result<Value, FrameLoadError> {
    condition.lock()
    defer { condition.unlock() }
    while results[k] == nil { condition.wait() }
    nextToTake = k + 1
    condition.broadcast()
    return results.removeValue(forKey: k)
      ?? .failure(FrameLoadError(frameIndex: k, underlying: CancellationError()))
  }

  /// Stops handing out jobs; workers finish the frame they hold and exit.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
