import CloudScrubCore
import CloudScrubRender
import Foundation

/// What the window's cleaning preview shows: the shown points run through the
/// cleaning pipeline on a background thread, kept as overlay points of their own (on
/// the GPU too when OpenGL draws points) and drawn over the dimmed original.
/// Recomputed when the options, the shown frames or the minimum confidence change,
/// once loading has finished.
final class CleaningPreview {
  struct Request: Equatable {
    var options: CleaningOptions
    var frames: ClosedRange<Int>
    var minConfidence: ConfidenceLevel
    var points: Int
  }

  let points: OverlayPoints
  private(set) var summary = ""
  /// Counts the results shown and cleared, so that the window knows when to redraw.
  private(set) var revision = 0
  /// Whether a computation runs in the background.
  var isRunning: Bool { running != nil }
  private var shown: Request?
  private var running: Request?
  /// A finished computation: the cleaned points and each step's count, or why the
  /// pipeline refused the shown points.
  private typealias Outcome = Result<(store: PointStore, stages: [StageCount]), any Error>
  private let work = BackgroundWork<(Request, Outcome)>()

  init(backend: any RenderBackend) {
    points = OverlayPoints(backend: backend)
  }

  /// Starts a computation when the request changed and none runs; uploads a finished
  /// one. Returns the points to draw, or nil when there is no preview to show.
  func update(enabled: Bool, session: ViewerSession, options: CleaningOptions) -> OverlayPoints? {
    guard enabled else {
      if shown != nil { clear() }
      return nil
    }
    if let (request, outcome) = work.take() {
      running = nil
      shown = request
      revision += 1
      do {
        let (store, stages) = try outcome.get()
        try points.replace(with: store)
        summary = stages.map { "\($0.stage): \(ViewerPanels.grouped($0.points))" }.joined(
          separator: "\n")
      } catch {
        points.clear()
        summary = "no preview: \(error)"
      }
    }
    guard !session.isLoading, let frames = session.state.playback.visibleFrames, running == nil
    else {
      if session.isLoading { summary = "the preview starts when loading has finished" }
      return shown == nil ? nil : points
    }
    let request = Request(
      options: options, frames: frames, minConfidence: session.state.display.minConfidence,
      points: session.content.store.count)
    if request != shown { start(request, store: session.content.store, content: session.content) }
    return shown == nil ? nil : points
  }

  func clear() {
    work.invalidate()
    points.clear()
    shown = nil
    running = nil
    summary = ""
    revision += 1
  }

  private func start(_ request: Request, store: PointStore, content: ViewerContent) {
    running = request
    summary = "computing…"
    let frames = request.frames.clamped(to: 0...max(0, content.frameCount - 1))
    let infos = content.frameInfos
    let frameIndices = content.frameIndices
    let started = work.start {
      let range =
        store.frameRanges[
          frames.lowerBound]..<store.frameRanges[min(frames.upperBound + 1, store.frameCount)]
      let minimum = request.minConfidence.rawValue
      let cloud = store.cloud().subset(indices: range.filter { store.confidence[$0] >= minimum })
      let result: (cloud: PointCloud, stages: [StageCount])
      do {
        result = try CleaningPipeline.run(
          cloud, options: request.options,
          viewpoint: { frame in
            guard let position = frameIndices.firstIndex(of: Int(frame)),
              let info = infos[position]
            else { return nil }
            return SIMD3<Float>(info.pose.position)
          })
      } catch {
        return (request, .failure(error))
      }
      var cleaned = FramePoints()
      cleaned.positions = result.cloud.positions
      cleaned.colors =
        result.cloud.colors ?? Array(repeating: FramePoints.noColor, count: result.cloud.count)
      // The cleaned points keep their confidence, so that colouring by it stays right.
      if case .uint8(let values)? = result.cloud.attribute(named: "confidence")?.values,
        values.count == result.cloud.count
      {
        cleaned.confidence = values
      } else {
        cleaned.confidence = Array(
          repeating: FramePoints.unknownConfidence, count: result.cloud.count)
      }
      var preview = PointStore()
      preview.append(cleaned, frameIndex: 0)
      let stages = [StageCount(stage: "shown", points: cloud.count)] + result.stages
      return (request, .success((preview, stages)))
    }
    if !started { running = nil }
  }
}
