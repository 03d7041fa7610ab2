import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// What the window's cleaning preview shows: the shown points run through the
/// cleaning pipeline on a background thread, kept as overlay points of their own (on
/// the GPU too when OpenGL draws points) and drawn over the dimmed original.
/// Recomputed when the options, the shown frames, the minimum confidence or the poses
/// shown change, once loading has finished. While refined poses show, the shown frames
/// are unprojected again with the refined poses through the document's loader
/// (`unprojectedAgain`), as the window's export does, so the preview's points are the
/// export's; the normals face the refined cameras. A document without a loader (or
/// without the refined trajectory) moves the loaded points by their frames' corrections
/// instead.
final class CleaningPreview {
  struct Request: Equatable {
    var options: CleaningOptions
    var frames: ClosedRange<Int>
    var minConfidence: ConfidenceLevel
    var points: Int
    /// The scene's pose corrections shown (`ViewerScene.poseCorrections`).
    var poseCorrections: [Transform3D]?
    /// The refined trajectory shown (one pose a recording frame, as "Save poses"
    /// writes it), which the shown frames are unprojected again with; nil: none shows.
    var refinedPoses: [CameraPose]?
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
  typealias Outcome = Result<(store: PointStore, stages: [StageCount]), any Error>
  private let work = BackgroundWork<(Request, Outcome)>()

  init(backend: any RenderBackend) {
    points = OverlayPoints(backend: backend)
  }

  /// Starts a computation when the request changed and none runs; uploads a finished
  /// one. Returns the points to draw, or nil when there is no preview to show.
  ///
  /// - Parameter refinedPoses: the refined trajectory while refined poses show.
  func update(
    enabled: Bool, session: ViewerSession, options: CleaningOptions,
    refinedPoses: [CameraPose]? = nil
  ) -> OverlayPoints? {
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
    var options = options
    options.worldUp = session.content.worldUp  // the height band measures along it
    let request = Request(
      options: options, frames: frames, minConfidence: session.state.display.minConfidence,
      points: session.content.store.count, poseCorrections: session.state.scene.poseCorrections,
      refinedPoses: session.state.scene.poseCorrections == nil ? nil : refinedPoses)
    if request != shown {
      start(
        request, store: session.content.store, content: session.content,
        loader: session.document?.loader)
    }
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

  private func start(
    _ request: Request, store: PointStore, content: ViewerContent, loader: RecordingLoader?
  ) {
    running = request
    summary = "computing…"
    let started = work.start {
      (request, Self.compute(request, store: store, content: content, loader: loader))
    }
    if !started { running = nil }
  }

  /// The preview of `request`: the shown frames of `store` (unprojected again with the
  /// refined poses through `loader` when they show and there is one) run through the
  /// cleaning pipeline, as the preview's store, and each step's count.
  static func compute(
    _ request: Request, store: PointStore, content: ViewerContent, loader: RecordingLoader?
  ) -> Outcome {
    let frames = request.frames.clamped(to: 0...max(0, content.frameCount - 1))
    let infos = content.frameInfos
    let frameIndices = content.frameIndices
    let minimum = request.minConfidence.rawValue
    let corrections = request.poseCorrections.map(FramePoseCorrections.init)
    let cloud: PointCloud
    do {
      if let loader, let poses = request.refinedPoses, !frameIndices.isEmpty {
        cloud = try unprojectedAgain(
          loader, poses: poses, frames: frameIndices[frames], minConfidence: request.minConfidence)
      } else {
        let range =
          store.frameRanges[
            frames.lowerBound]..<store.frameRanges[min(frames.upperBound + 1, store.frameCount)]
        let whole = store.cloud()
        cloud = (corrections?.applied(to: whole, frameRanges: store.frameRanges) ?? whole)
          .subset(indices: range.filter { store.confidence[$0] >= minimum })
      }
    } catch {
      return .failure(error)
    }
    let result: (cloud: PointCloud, stages: [StageCount])
    do {
      result = try CleaningPipeline.run(
        cloud, options: request.options,
        viewpoint: { frame in
          guard let position = frameIndices.firstIndex(of: Int(frame)),
            let info = infos[position]
          else { return nil }
          let recorded = info.pose.position
          guard let corrections, position < corrections.count else {
            return SIMD3<Float>(recorded)
          }
          return SIMD3<Float>(corrections.refinedFromOriginal[position].apply(to: recorded))
        })
    } catch {
      return .failure(error)
    }
    let preview = previewStore(result.cloud, timeline: frameIndices)
    let stages = [StageCount(stage: "shown", points: cloud.count)] + result.stages
    return .success((preview, stages))
  }

  /// The recording frames `frames` (recording indices, in order) unprojected again with
  /// `poses` (one a recording frame) through `loader` (the document's), selected and
  /// filtered as the window's export selects them (`InputLoader.shownFrames`): the points
  /// the export with those poses writes before its cleaning.
  ///
  /// - Throws: `TrajectoryError` for poses that do not fit, or the load's error.
  static func unprojectedAgain(
    _ loader: RecordingLoader, poses: [CameraPose], frames: ArraySlice<Int>,
    minConfidence: ConfidenceLevel
  ) throws -> PointCloud {
    try InputLoader.shownFrames(
      of: loader, frames: frames, minConfidence: minConfidence, poses: poses,
      naming: "the refined poses"
    ).load().cloud()
  }

  /// The cleaned points as the preview's store: grouped by their frame, one appended
  /// frame for each timeline position that kept points, named by that position (the
  /// cloud's `frame` attribute holds recording frame indices; `timeline` maps positions
  /// to them), so that colouring by frame or alignment error gives each point its own
  /// frame's colour. Confidence is kept too. Points of no known frame go with position 0.
  static func previewStore(_ cloud: PointCloud, timeline: [Int]) -> PointStore {
    var positionOf: [UInt32: Int] = [:]
    for (position, frame) in timeline.enumerated() where frame >= 0 {
      positionOf[UInt32(truncatingIfNeeded: frame)] = position
    }
    var frames: [UInt32]?
    if case .uint32(let values)? = cloud.attribute(named: "frame")?.values,
      values.count == cloud.count
    {
      frames = values
    }
    var confidence: [UInt8]?
    if case .uint8(let values)? = cloud.attribute(named: "confidence")?.values,
      values.count == cloud.count
    {
      confidence = values
    }
    let levels = IntensityGreys.levels(of: cloud)
    // A counting sort by position: each group keeps the cloud's order.
    let slots = max(timeline.count, 1)
    let positions = (0..<cloud.count).map { index in
      frames.flatMap { positionOf[$0[index]] } ?? 0
    }
    var starts = [Int](repeating: 0, count: slots + 1)
    for position in positions { starts[position + 1] += 1 }
    for slot in 0..<slots { starts[slot + 1] += starts[slot] }
    var order = [Int](repeating: 0, count: cloud.count)
    var next = starts
    for (index, position) in positions.enumerated() {
      order[next[position]] = index
      next[position] += 1
    }
    var store = PointStore()
    for slot in 0..<slots where starts[slot + 1] > starts[slot] {
      let indices = order[starts[slot]..<starts[slot + 1]]
      var points = FramePoints()
      points.positions = indices.map { cloud.positions[$0] }
      points.colors = indices.map { cloud.colors?[$0] ?? FramePoints.noColor }
      points.confidence = indices.map { confidence?[$0] ?? FramePoints.unknownConfidence }
      if let levels { points.intensity = indices.map { levels[$0] } }
      store.append(points, frameIndex: slot)
    }
    return store
  }
}
