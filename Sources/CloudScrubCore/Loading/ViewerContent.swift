/// What the viewer has loaded: the merged points (the CPU copy, source of truth for
/// export and for the GPU mirror) and, per frame, when and where it was captured.
///
/// Frames join in timeline order; each joining batch becomes the commands that tell
/// the viewer state about it, so the state still changes only by commands.
public struct ViewerContent: Sendable {
  public private(set) var store = PointStore()
  /// The recording frame index of each loaded frame.
  public private(set) var frameIndices: [Int] = []
  public private(set) var frameInfos: [FrameInfo?] = []
  /// The world's up axis, told to the state with the first frames.
  public var worldUp: WorldUp
  /// Whether the first frame with points has chosen the first look (by height with
  /// eye-dome lighting when it has no colour).
  private var lookChosen = false
  /// The worker that grows the spatial level of detail over `store`, when the content
  /// keeps one (the window does; `render` does not); `withLevelOfDetail` reads it.
  private var builderOwner: BuilderOwner?

  /// Stops its builder when the last copy of the content that made it goes away.
  private final class BuilderOwner: Sendable {
    let builder: LevelOfDetailBuilder
    init(_ builder: LevelOfDetailBuilder) { self.builder = builder }
    deinit { builder.close() }
  }

  /// Content to be filled from a recording whose world has `worldUp` up; with
  /// `levelOfDetail`, a `PointOctree` grows beside the store on a
  /// `LevelOfDetailBuilder`'s worker (`builder`, or a new one), fed as frames are
  /// absorbed.
  public init(
    worldUp: WorldUp = .y, levelOfDetail: Bool = false, builder: LevelOfDetailBuilder? = nil
  ) {
    self.worldUp = worldUp
    if levelOfDetail { builderOwner = BuilderOwner(builder ?? LevelOfDetailBuilder()) }
  }

  /// The worker growing the level of detail, if the content keeps one.
  public var levelOfDetailBuilder: LevelOfDetailBuilder? { builderOwner?.builder }

  /// Whether more loaded frames may be absorbed now: always, unless the level of
  /// detail already has `LevelOfDetailBuilder.maxQueuedPoints` waiting (the first
  /// frame is always taken, so that the picture starts).
  public var acceptsMoreFrames: Bool {
    frameCount == 0 || (builderOwner?.builder.hasRoom ?? true)
  }

  /// Whether the content keeps a level of detail.
  public var hasLevelOfDetail: Bool { builderOwner != nil }

  /// Points in the level of detail (0 without one).
  public var levelOfDetailCount: Int { builderOwner?.builder.count ?? 0 }

  /// Runs `body` with the level of detail as it stands (between two of the worker's
  /// steps; the worker waits meanwhile); nil without one. `body` must not keep the
  /// tree.
  @discardableResult
  public func withLevelOfDetail<R>(_ body: (PointOctree) throws -> R) rethrows -> R? {
    guard let builder = builderOwner?.builder else { return nil }
    return try builder.withTree(body)
  }

  /// Stops the level of detail's worker, if any (another file opens, the window closes).
  public func stopLevelOfDetail() {
    builderOwner?.builder.close()
  }

  /// Points a share when a tree is grown from a whole store in shares
  /// (`PointOctree.sync(with:maxPoints:)`, in the headless renderer and the
  /// benchmarks), so that a PLY cloud (one frame) goes in as an even sample first and
  /// spreads over many nodes; about a fifth of a second on one core here.
  public static let levelOfDetailPointsPerTurn = 1 << 19

  /// Whether the level of detail (if any) holds every point of the store.
  public var levelOfDetailIsComplete: Bool {
    guard let builder = builderOwner?.builder else { return true }
    return builder.count == store.count && builder.frameCount == store.frameCount
  }

  public var frameCount: Int { frameIndices.count }

  /// Appends frames and returns the commands that tell a `ViewerState` about them; the
  /// first frames' commands start with the world's up axis.
  public mutating func absorb(_ frames: [LoadedFrame]) -> [ViewerCommand] {
    guard !frames.isEmpty else { return [] }
    let first: [ViewerCommand] = frameIndices.isEmpty ? [.worldUpKnown(worldUp)] : []
    var grown = ViewerScene()
    var timestamps: [Double] = []
    for frame in frames {
      // A frame's box moves with its pose correction; a piece's or a pose-less one's not.
      let bounds = Self.bounds(of: frame.points.positions)
      // More of a frame that arrives in pieces (only ever the first frame): it grows
      // the last frame, in the store and in the level of detail.
      if frame.piece == .more, store.frameIndices.last == frame.frameIndex {
        store.appendToLastFrame(frame.points)
        if let bounds { grown.include(bounds: bounds) }
        levelOfDetailBuilder?.submit(frame.points, continuingFrame: true)
        continue
      }
      levelOfDetailBuilder?.submit(frame.points, continuingFrame: false)
      store.append(frame.points, frameIndex: frame.frameIndex)
      frameIndices.append(frame.frameIndex)
      frameInfos.append(frame.info)
      timestamps.append(frame.timestampSeconds)
      if let info = frame.info {
        grown.appendFrame(pose: info.pose, intrinsics: info.intrinsics, bounds: bounds)
      } else if let bounds {
        grown.include(bounds: bounds)
      }
    }
    let loaded: [ViewerCommand] =
      timestamps.isEmpty ? [] : [.playback(.framesLoaded(timestampsSeconds: timestamps))]
    var look: [ViewerCommand] = []
    if !lookChosen, let sample = frames.first(where: { !$0.points.positions.isEmpty }) {
      lookChosen = true
      if sample.colorsFromIntensity {
        look = [.display(.showIntensity)]
      } else if Self.hasNoColor(sample.points) {
        look = [.display(.showWithoutColor)]
      }
    }
    return first + [.sceneAppended(grown)] + loaded + look
  }

  /// Whether a frame's points carry no colour: every one of up to about 4,000 evenly
  /// spaced points is the grey given to points without a colour (`FramePoints.noColor`).
  static func hasNoColor(_ points: FramePoints) -> Bool {
    guard !points.colors.isEmpty else { return true }
    let step = max(1, points.colors.count / 4096)
    return stride(from: 0, to: points.colors.count, by: step).allSatisfy {
      points.colors[$0] == FramePoints.noColor
    }
  }

  /// A frame's extent without its stray points: the 1st to 99th percentile along
  /// each axis, over at most about 4,000 evenly spaced points. The camera fits and
  /// the grid and colour ramps span this, so one flying point far away does not
  /// shrink the cloud to a speck.
  static func bounds(of positions: [Point3]) -> Bounds3? {
    guard !positions.isEmpty else { return nil }
    let step = max(1, positions.count / 4096)
    var xs: [Float] = []
    var ys: [Float] = []
    var zs: [Float] = []
    for index in stride(from: 0, to: positions.count, by: step) {
      let p = positions[index]
      guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { continue }
      xs.append(p.x)
      ys.append(p.y)
      zs.append(p.z)
    }
    guard !xs.isEmpty else { return nil }
    xs.sort()
    ys.sort()
    zs.sort()
    let low = Int((0.01 * Double(xs.count - 1)).rounded())
    let high = Int((0.99 * Double(xs.count - 1)).rounded())
    return Bounds3(
      min: Point3(xs[low], ys[low], zs[low]), max: Point3(xs[high], ys[high], zs[high]))
  }
}
