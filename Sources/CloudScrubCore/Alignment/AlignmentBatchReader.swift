import Foundation

/// Reads and subsamples one batch of frames (`DriftAlignment.prepare`) as a background
/// job, so that the alignment pass aligns one batch while the next is read: on a
/// two-core machine the decoding takes the core the single-threaded registration leaves
/// free, and the pass runs at the pace of the slower of the two instead of their sum.
final class AlignmentBatchReader: @unchecked Sendable {
  /// The recording frames read.
  let range: Range<Int>
  private let reading = BackgroundWork<Result<[AlignmentFrame], FrameLoadError>>()
  /// The job's result, once `wait()` has taken it.
  private var result: Result<[AlignmentFrame], FrameLoadError>?
  private var waited = false

  /// Starts reading `range` of `source`.
  init(_ source: any RecordingSource, _ range: Range<Int>, options: AlignmentOptions) {
    self.range = range
    reading.start {
      do {
        return .success(try DriftAlignment.prepare(source, range, options: options))
      } catch let error as FrameLoadError {
        return .failure(error)
      } catch {
        return .failure(FrameLoadError(frameIndex: range.lowerBound, underlying: error))
      }
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

  /// Waits until the reading job has finished (a pass that stops early waits, so no
  /// reading outlives it).
  func wait() {
    guard !waited else { return }
    reading.waitUntilIdle()
    result = reading.take()
    waited = true
  }
}
