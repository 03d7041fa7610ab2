import CloudScrubCore
import Foundation

/// The window's alignment errors: once a recording has finished loading, the
/// alignment pass (`DriftAlignment`, measuring only) runs over it as a background job,
/// and the window, which asks every frame-loop turn, gets the errors of its loaded
/// frames from then on. Another document's load begins a new generation of the job: a
/// pass still running for the one before stops, and its result never lands.
///
/// The pass starts after the load so that the two do not share the cores while the
/// first pictures come in; it reads the recording again (a few hundred frames a second
/// here), which is the price of not holding every frame's depth.
public final class BackgroundAlignment: FrameAlignmentProvider {
  private let work = BackgroundWork<Result<FrameAlignmentErrors, any Error>>()
  /// The load whose recording is measured (the document's identity, held so that it
  /// cannot be freed and another take its place).
  private var measured: StreamingLoad?
  /// Whether the measured document's pass is still to be started (a stale pass for
  /// the document before may still be ending).
  private var needsStart = false
  private var result: FrameAlignmentErrors?
  private var failure: String?
  /// The errors mapped to the loaded frames, and how many frames they were made for.
  private var mapped: (frames: Int, errors: FrameAlignmentErrors)?
  private let options: CloudScrubCore.AlignmentOptions

  public init(options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()) {
    self.options = options
  }

  public func errors(for document: ViewerDocument, content: ViewerContent)
    -> FrameAlignmentErrors?
  {
    guard let source = document.recording else { return nil }
    guard case .finished = document.load.status else { return nil }
    if measured !== document.load {
      work.invalidate()
      measured = document.load
      needsStart = true
      result = nil
      failure = nil
      mapped = nil
    }
    if needsStart { needsStart = !start(source) }
    switch work.take() {
    case .success(let errors)?: result = errors
    case .failure(let error)?: failure = "the alignment errors could not be measured: \(error)"
    case nil: break
    }
    guard let result else { return nil }
    let frames = content.frameIndices
    if let mapped, mapped.frames == frames.count { return mapped.errors }
    // One value a loaded frame, from the recording's frames the load selected.
    let errors = FrameAlignmentErrors(residualsMeters: frames.map { result.residualMeters(at: $0) })
    mapped = (frames.count, errors)
    return errors
  }

  /// The fraction measured while a pass runs, so the window can say that it works.
  public var progress: Double? {
    guard work.isBusy, result == nil else { return nil }
    return work.progress.fraction
  }

  public func takeFailure() -> String? {
    defer { failure = nil }
    return failure
  }

  /// Starts the pass as this generation's job.
  ///
  /// - Returns: false when the job of an earlier generation has not ended yet.
  private func start(_ source: any RecordingSource) -> Bool {
    let options = options
    return work.run { job in
      Result {
        try DriftAlignment.run(
          source, options: options, refine: false, progress: { job.report($0) },
          isCancelled: { job.isCancelled }
        ).errors
      }
    }
  }

  /// Waits until the pass has ended; false when it did not within `timeout` seconds.
  public func waitForPass(timeout: TimeInterval) -> Bool {
    work.waitUntilIdle(seconds: timeout)
  }
}
