import CloudScrubApp
import CloudScrubCore
import Foundation

/// The window's alignment errors: once a recording has finished loading, the
/// alignment pass (`DriftAlignment`, measuring only) runs over it on a thread of its
/// own, and the window, which polls every frame-loop turn, gets the errors of its
/// loaded frames from then on. Opening another document cancels a pass still running.
///
/// The pass starts after the load so that the two do not share the cores while the
/// first pictures come in; it reads the recording again (a few hundred frames a second
/// here), which is the price of not holding every frame's depth.
final class BackgroundAlignment: FrameAlignmentProvider, @unchecked Sendable {
  private let lock = NSLock()
  /// The load whose recording the pass measures (the document's identity).
  private var measured: ObjectIdentifier?
  private var cancelled = false
  private var result: FrameAlignmentErrors?
  /// The errors mapped to the loaded frames, and how many frames they were made for.
  private var mapped: (frames: Int, errors: FrameAlignmentErrors)?
  private let options: CloudScrubCore.AlignmentOptions
  /// Signalled each time a pass ends (finished, failed or cancelled), for tests.
  private let passEnded = DispatchSemaphore(value: 0)

  init(options: CloudScrubCore.AlignmentOptions = CloudScrubCore.AlignmentOptions()) {
    self.options = options
  }

  func errors(for document: ViewerDocument, content: ViewerContent) -> FrameAlignmentErrors? {
    guard let source = document.recording else { return nil }
    guard case .finished = document.load.status else { return nil }
    let identity = ObjectIdentifier(document.load)
    lock.lock()
    defer { lock.unlock() }
    if measured != identity {
      cancelled = true
      measured = identity
      result = nil
      mapped = nil
      start(source, for: identity)
      return nil
    }
    guard let result else { return nil }
    let frames = content.frameIndices
    if let mapped, mapped.frames == frames.count { return mapped.errors }
    // One value a loaded frame, from the recording's frames the load selected.
    let errors = FrameAlignmentErrors(residualsMeters: frames.map { result.residualMeters(at: $0) })
    mapped = (frames.count, errors)
    return errors
  }

  /// Runs the pass on a new thread; called with the lock held.
  private func start(_ source: any RecordingSource, for identity: ObjectIdentifier) {
    cancelled = false
    let options = options
    Thread.detachNewThread { [self] in
      let outcome = try? DriftAlignment.run(
        source, options: options, refine: false,
        isCancelled: { [self] in isStale(identity) })
      lock.lock()
      defer { lock.unlock() }
      // A pass that failed (a frame that cannot be read) leaves the curve empty, as
      // the load itself reported that frame.
      if measured == identity, let outcome { result = outcome.errors }
      passEnded.signal()
    }
  }

  /// Waits until a pass has ended; false when none did within `timeout` seconds.
  func waitForPass(timeout: TimeInterval) -> Bool {
    passEnded.wait(timeout: .now() + timeout) == .success
  }

  private func isStale(_ identity: ObjectIdentifier) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled || measured != identity
  }
}
