import Foundation

/// Which frames of a recording to load and how to unproject them.
public struct FrameSelection: Equatable, Sendable {
  /// First and last frame (0-based, inclusive); `nil` for the whole recording.
  public var range: ClosedRange<Int>?
  /// Takes every `every`-th frame of the range, starting with its first.
  public var every: Int

  public init(range: ClosedRange<Int>? = nil, every: Int = 1) {
    precondition(every >= 1, "every is at least 1")
    self.range = range
    self.every = every
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
public struct FrameLoadError: Error, CustomStringConvertible {
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
/// The first frame is decoded alone and handed over at once; the rest follow in
/// batches of a few frames a core, each batch appended in order as soon as it is done.
public struct RecordingLoader: Sendable {
  public var source: any RecordingSource
  public var selection: FrameSelection
  public var unprojection: UnprojectionOptions
  public var decoder: (any ColorDecoder)?

  public init(
    source: any RecordingSource, selection: FrameSelection = FrameSelection(),
    unprojection: UnprojectionOptions = UnprojectionOptions(), decoder: (any ColorDecoder)? = nil
  ) {
    self.source = source
    self.selection = selection
    self.unprojection = unprojection
    self.decoder = decoder
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
    let indices = selection.indices(frameCount: source.frameCount)
    var store = PointStore()
    var next = 0
    let batchSize = max(1, ProcessInfo.processInfo.activeProcessorCount * 2)
    while next < indices.count {
      // The first frame alone, so that it is on screen at once; then batches.
      let batch = Array(indices[next..<min(next + (next == 0 ? 1 : batchSize), indices.count)])
      let results = ParallelSlots<Result<FramePoints, FrameLoadError>?>(
        count: batch.count, initial: nil)
      let work = { @Sendable (k: Int) in
        results[k] = Result { () throws(FrameLoadError) -> FramePoints in
          do {
            let frame = try source.frame(at: batch[k])
            return try Unprojector.unproject(frame, options: unprojection, decoder: decoder)
          } catch {
            throw FrameLoadError(frameIndex: batch[k], underlying: error)
          }
        }
      }
      if batch.count == 1 {
        work(0)
      } else {
        DispatchQueue.concurrentPerform(iterations: batch.count, execute: work)
      }
      for k in 0..<batch.count {
        guard let result = results[k] else { continue }
        store.append(try result.get(), frameIndex: batch[k])
        progress?(LoadProgress(framesDone: store.frameCount, framesTotal: indices.count, points: store.count))
        if let onFrame, !onFrame(store) { return store }
      }
      next += batch.count
    }
    return store
  }
}
