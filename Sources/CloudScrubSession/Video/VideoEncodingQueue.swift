import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Hands a video's frames to its sink on a thread of its own, so that drawing the next
/// frame and encoding the last go on at once.
///
/// At most `depth` frames wait; `append` blocks while the queue is full. An encoding
/// error stops the queue: the next `append` or `finish` throws it, and the output is
/// abandoned. One thread appends, and ends with `finish` or `abandon`.
public final class VideoEncodingQueue: @unchecked Sendable {
  public let depth: Int
  private let sink: any VideoFrameSink
  private let condition = NSCondition()
  private var waiting: [RGBImage] = []
  private var closing = false
  private var stopped = false
  private var failure: (any Error)?
  private var encoded = 0

  /// The encoding thread.
  private let worker = BackgroundWork<Bool>()

  public init(sink: any VideoFrameSink, depth: Int = 3) {
    self.sink = sink
    self.depth = max(1, depth)
    // The job holds the queue until `finish` or `abandon` lets it end.
    _ = worker.start { [self] in
      run()
      return true
    }
  }

  /// A queue writing `path` (its name chooses the format, `VideoOutput`), for frames of
  /// `width` × `height` at `framesPerSecond`.
  ///
  /// - Throws: `VideoError` for a name that is no video format or when FFmpeg cannot
  ///   encode, `FileError` when the file cannot be written or is one of `inputs`.
  public static func writing(
    _ path: String, width: Int, height: Int, framesPerSecond: Int, protecting inputs: [String]
  ) throws -> VideoEncodingQueue {
    VideoEncodingQueue(
      sink: try VideoOutput.open(
        path, width: width, height: height, framesPerSecond: framesPerSecond,
        protecting: inputs))
  }

  /// Whether `append` would not wait.
  public var hasRoom: Bool {
    condition.lock()
    defer { condition.unlock() }
    return waiting.count < depth || failure != nil || stopped
  }

  /// Frames the sink has taken.
  public var framesEncoded: Int {
    condition.lock()
    defer { condition.unlock() }
    return encoded
  }

  /// Queues the next frame, waiting while `depth` frames wait.
  ///
  /// - Throws: the sink's error for an earlier frame.
  public func append(_ image: RGBImage) throws {
    condition.lock()
    defer { condition.unlock() }
    while waiting.count >= depth && failure == nil && !stopped { condition.wait() }
    if let failure { throw failure }
    guard !stopped else { return }
    waiting.append(image)
    condition.broadcast()
  }

  /// Waits for every queued frame, then completes the output and puts it in place.
  ///
  /// - Throws: the sink's error; the output is then abandoned.
  public func finish() throws {
    condition.lock()
    closing = true
    condition.broadcast()
    while !stopped { condition.wait() }
    let failure = failure
    condition.unlock()
    if let failure { throw failure }
    do { try sink.finish() } catch {
      sink.abandon()
      throw error
    }
  }

  /// Drops the queued frames and removes what was written.
  public func abandon() {
    condition.lock()
    waiting.removeAll()
    closing = true
    condition.broadcast()
    while !stopped { condition.wait() }
    condition.unlock()
    sink.abandon()
  }

  private func run() {
    while true {
      condition.lock()
      while waiting.isEmpty && !closing { condition.wait() }
      guard !waiting.isEmpty else {
        stopped = true
        condition.broadcast()
        condition.unlock()
        return
      }
      let image = waiting.removeFirst()
      condition.unlock()
      do {
        try sink.append(image)
        condition.lock()
        encoded += 1
        condition.broadcast()
        condition.unlock()
      } catch {
        // Abandoned before anyone is told, so that nothing is left once they are.
        sink.abandon()
        condition.lock()
        failure = error
        waiting.removeAll()
        stopped = true
        condition.broadcast()
        condition.unlock()
        return
      }
    }
  }
}
