import Foundation

/// Where a click in the 3D view was and which points it may pick: the points shown,
/// as the view draws them.
public struct PickRequest: Sendable {
  /// The view's `clipFromWorld` (projection times view).
  public var viewProjection: Matrix4
  public var viewportWidthPixels: Int
  public var viewportHeightPixels: Int
  /// The click in viewport pixels, origin at the top-left corner, y down (the window's
  /// cursor coordinates less the view's corner).
  public var cursorPixels: SIMD2<Float>
  /// How far from the click, in pixels, a point may be.
  public var radiusPixels: Float
  /// The shown points, as ranges of the store (the timeline window).
  public var ranges: [Range<Int>]
  /// Points below this confidence are not shown, so not picked (255, "no map", is).
  public var minConfidence: ConfidenceLevel
  /// When set, only points inside the box are picked (the crop the scene draws).
  public var crop: CropBox?
  /// The model transform the points are drawn with (a frame's pose correction), which
  /// the crop is tested after (the crop box is in the world); nil: stored positions are
  /// world. `viewProjection` already includes it.
  public var worldFromStored: Matrix4?

  public init(
    viewProjection: Matrix4, viewportWidthPixels: Int, viewportHeightPixels: Int,
    cursorPixels: SIMD2<Float>, radiusPixels: Float = 6, ranges: [Range<Int>],
    minConfidence: ConfidenceLevel = .low, crop: CropBox? = nil
  ) {
    self.viewProjection = viewProjection
    self.viewportWidthPixels = max(1, viewportWidthPixels)
    self.viewportHeightPixels = max(1, viewportHeightPixels)
    self.cursorPixels = cursorPixels
    self.radiusPixels = max(0.5, radiusPixels)
    self.ranges = ranges
    self.minConfidence = minConfidence
    self.crop = crop
  }

  /// A click at `cursorPixels` on what `state` shows of points stored with
  /// `frameRanges`: its camera, viewport, timeline window and minimum confidence.
  public init(
    state: ViewerState, frameRanges: [Int], cursorPixels: SIMD2<Float>, radiusPixels: Float = 6,
    crop: CropBox? = nil
  ) {
    self.init(
      viewProjection: state.projectionMatrix * state.viewMatrix,
      viewportWidthPixels: state.viewportWidth, viewportHeightPixels: state.viewportHeight,
      cursorPixels: cursorPixels, radiusPixels: radiusPixels,
      ranges: [state.drawRange(frameRanges: frameRanges)],
      minConfidence: state.display.minConfidence, crop: crop)
  }
}

/// A point a click picked.
public struct PickedPoint: Equatable, Sendable {
  /// Its index in the store.
  public var index: Int
  public var positionMeters: Point3
  /// Its frame as a position among the loaded frames (the timeline's frame numbers,
  /// which `PlaybackCommand.seek` and `FrameAlignmentErrors` count in).
  public var timelineFrame: Int
  /// Its frame's index in the recording.
  public var recordingFrame: Int
  /// The depth map's confidence: 0 low, 1 medium, 2 high, 255 no map.
  public var confidence: UInt8
  /// How far its image is from the click, in pixels.
  public var distancePixels: Float

  public init(
    index: Int, positionMeters: Point3, timelineFrame: Int, recordingFrame: Int, confidence: UInt8,
    distancePixels: Float
  ) {
    self.index = index
    self.positionMeters = positionMeters
    self.timelineFrame = timelineFrame
    self.recordingFrame = recordingFrame
    self.confidence = confidence
    self.distancePixels = distancePixels
  }
}

/// Picks the shown point under a click.
///
/// Among the shown points whose image lies within `radiusPixels` of the click, those
/// of the front surface count (view depth within `surfaceDepthFraction` of the nearest
/// such point's), so that a point seen through a gap behind a wall is not taken for
/// the wall; of those, the one whose image is nearest the click (nearest the click
/// ray), ties to the nearer and then the lower index. Each core projects its share of
/// the points, rejecting most by their screen x before anything else is computed; the
/// near candidates are kept, so the second step runs over them alone.
public enum PointPicker {
  /// How much deeper than the nearest candidate a point may be and still be on the
  /// front surface, as a fraction of that depth.
  public static let surfaceDepthFraction: Float = 0.05
  /// Candidates a task keeps; past it the second step projects the points again.
  static let candidatesPerTask = 1 << 14
  /// Points a task projects at least (smaller picks run on the calling thread).
  static let pointsPerTask = 1 << 18

  /// The point `request` picks in `store`, nil when no shown point is near the click.
  public static func pick(_ request: PickRequest, in store: PointStore) -> PickedPoint? {
    let pieces = split(request.ranges.map { $0.clamped(to: 0..<store.count) })
    guard !pieces.isEmpty else { return nil }
    let projector = PickProjector(request)
    let firstPass = ParallelSlots(count: pieces.count, initial: PickPassResult())
    store.positions.withUnsafeBufferPointer { positions in
      store.confidence.withUnsafeBufferPointer { confidence in
        guard let p = positions.baseAddress, let c = confidence.baseAddress else { return }
        let arrays = PickArrays(positions: p, confidence: c)
        run(pieces.count) { task in
          firstPass[task] = projector.candidates(pieces[task], arrays)
        }
      }
    }
    let results = (0..<pieces.count).map { firstPass[$0] }
    guard let nearest = results.compactMap(\.nearestDepth).min() else { return nil }
    let surfaceDepth = nearest * (1 + surfaceDepthFraction)
    var best: PickCandidate?
    if results.allSatisfy({ !$0.overflowed }) {
      for result in results {
        for candidate in result.candidates where candidate.depth <= surfaceDepth {
          best = PickCandidate.better(best, candidate)
        }
      }
    } else {
      let secondPass = ParallelSlots<PickCandidate?>(count: pieces.count, initial: nil)
      store.positions.withUnsafeBufferPointer { positions in
        store.confidence.withUnsafeBufferPointer { confidence in
          guard let p = positions.baseAddress, let c = confidence.baseAddress else { return }
          let arrays = PickArrays(positions: p, confidence: c)
          run(pieces.count) { task in
            secondPass[task] = projector.best(pieces[task], arrays, maximumDepth: surfaceDepth)
          }
        }
      }
      for task in 0..<pieces.count { best = PickCandidate.better(best, secondPass[task]) }
    }
    guard let best else { return nil }
    let frame = Self.frame(ofPoint: best.index, frameRanges: store.frameRanges)
    return PickedPoint(
      index: best.index, positionMeters: store.positions[best.index], timelineFrame: frame,
      recordingFrame: store.frameIndices.indices.contains(frame)
        ? store.frameIndices[frame] : frame,
      confidence: store.confidence[best.index], distancePixels: best.distanceSquared.squareRoot())
  }

  /// The loaded frame that point `index` belongs to: the last whose first point is at
  /// or before it.
  public static func frame(ofPoint index: Int, frameRanges: [Int]) -> Int {
    var low = 0
    var high = max(0, frameRanges.count - 2)
    while low < high {
      let middle = (low + high + 1) / 2
      if frameRanges[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The ranges cut into pieces of about `pointsPerTask`, several a core.
  static func split(_ ranges: [Range<Int>]) -> [Range<Int>] {
    let total = ranges.reduce(0) { $0 + $1.count }
    guard total > 0 else { return [] }
    let cores = Parallel.cores
    let size = max(pointsPerTask, total / max(1, 4 * cores) + 1)
    var pieces: [Range<Int>] = []
    for range in ranges where !range.isEmpty {
      var start = range.lowerBound
      while start < range.upperBound {
        let end = min(range.upperBound, start + size)
        pieces.append(start..<end)
        start = end
      }
    }
    return pieces
  }

  private static func run(_ tasks: Int, _ body: @Sendable (Int) -> Void) {
    if tasks == 1 {
      body(0)
      return
    }
    Parallel.perform(iterations: tasks, body)
  }
}
