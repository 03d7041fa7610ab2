import CloudScrubCore
import CloudScrubRender
import Foundation

/// The playhead's frame with every one of its points, for "this frame only" when the
/// recording was merged while it loaded (the store then holds only the points each
/// frame added to the scene). The frame is unprojected again on a background thread
/// and kept as overlay points of its own, which the scene draws instead of the store's
/// points for that frame.
final class WholeFrame {
  let points: OverlayPoints
  /// The recording index of the frame in the mirror, nil when it holds none.
  private(set) var shownFrame: Int?
  private var requestedFrame: Int?
  /// Why the last frame asked for could not be unprojected, until `takeFailure`.
  private var failure: String?
  private let work = BackgroundWork<(frame: Int, points: Result<FramePoints, any Error>)>()

  init(backend: any RenderBackend) {
    points = OverlayPoints(backend: backend)
  }

  /// Whether the frame is being unprojected.
  var isWorking: Bool { work.isBusy }

  /// The points to draw in place of the store's points, or nil when the store's own
  /// points are the ones to draw (no merge, another timeline mode, or the frame's
  /// points are not ready yet). Starts unprojecting the playhead's frame when needed.
  func update(for session: ViewerSession) -> OverlayPoints? {
    guard let document = session.document, let source = document.recording,
      document.load.ingestMergeMeters != nil, session.state.playback.mode == .currentFrameOnly
    else { return nil }
    if let finished = work.take() {
      switch finished.points {
      case .success(let framePoints):
        var store = PointStore()
        store.append(framePoints, frameIndex: finished.frame)
        // A frame the GPU has no room for is drawn as far as it was uploaded.
        do {
          try points.replace(with: store)
        } catch {
          failure = "frame \(finished.frame) is drawn only in part: \(error)"
        }
        shownFrame = finished.frame
      case .failure(let error):
        // The store's points for the frame stay drawn; the window says why.
        failure = "could not decode frame \(finished.frame) again to show all of it: \(error)"
      }
    }
    let position = session.state.playback.currentFrame
    guard session.content.frameIndices.indices.contains(position) else { return nil }
    let frame = session.content.frameIndices[position]
    if frame != requestedFrame {
      let decoder = document.decoder
      // A frame that fails to decode shows the store's points for it instead.
      let started = work.start {
        let result = Result { () throws -> FramePoints in
          try RecordingLoader(source: source, decoder: decoder).points(ofFrame: frame)
        }
        return (frame, result)
      }
      if started { requestedFrame = frame }
    }
    return shownFrame == frame ? points : nil
  }

  /// Why the last frame asked for could not be unprojected, once: nil when it could,
  /// or when this was already taken.
  func takeFailure() -> String? {
    defer { failure = nil }
    return failure
  }

  /// Forgets the frame (a new document is opening).
  func clear() {
    work.invalidate()
    points.clear()
    shownFrame = nil
    requestedFrame = nil
    failure = nil
  }
}
