import Foundation

/// Reads and subsamples one batch of frames (`DriftAlignment.prepare`) on a thread of
/// its own, so that the alignment pass aligns one batch while the next is read: on a
/// two-core machine the decoding takes the core the single-threaded registration leaves
/// free, and the pass runs at the pace of the slower of the two instead of their sum.
final class AlignmentBatchReader: @unchecked Sendable {
  /// The recording frames read.
  let range: Range<Int>
  private let done = DispatchSemaphore(value: 0)
  private var result: Result<[AlignmentFrame], FrameLoadError>?
  private var waited = false

  /// Starts reading `range` of `source`.
  init(_ source: any RecordingSource, _ range: Range<Int>, options: AlignmentOptions) {
    self.range = range
    Thread.detachNewThread { [self] in
      do {
        result = .success(try DriftAlignment.prepare(source, range, options: options))
      } catch let error as FrameLoadError {
        result = .failure(error)
      } catch {
        result = .failure(FrameLoadError(frameIndex: range.lowerBound, underlying: error))
      }
      done.signal()
    }
  }

  /// Waits for the batch.
  ///
  /// - Throws: `FrameLoadError` for the first frame of the batch that failed.
  func frames() throws(FrameLoadError) -> [AlignmentFrame] {
    wait()
    switch result {
    case .success(let frames): return frames
    case .failure(let error): throw error
    case nil: throw FrameLoadError(frameIndex: range.lowerBound, underlying: CancellationError())
    }
  }

  /// Waits until the reading thread has finished (a pass that stops early waits, so no
  /// reading outlives it).
  func wait() {
    guard !waited else { return }
    done.wait()
    waited = true
  }
}
