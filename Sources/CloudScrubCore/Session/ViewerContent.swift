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
  /// The spatial level of detail over `store`, when the content keeps one (the window
  /// does; `render` does not). It follows the store through `growLevelOfDetail`.
  public private(set) var levelOfDetail: PointOctree?
  /// The frame arriving in pieces that the level of detail is fed by hand, if any.
  private var growingFrame: GrowingFrameFeed?
  /// The worker that grows the level of detail instead, when it grows in the background
  /// (the window's); `levelOfDetail` then stays nil and `withLevelOfDetail` reads it.
  private var builderOwner: BuilderOwner?

  /// Stops its builder when the last copy of the content that made it goes away.
  private final class BuilderOwner: Sendable {
    let builder: LevelOfDetailBuilder
    init(_ builder: LevelOfDetailBuilder) { self.builder = builder }
    deinit { builder.close() }
  }

  /// Content to be filled from a recording whose world has `worldUp` up; with
  /// `levelOfDetail`, a `PointOctree` grows beside the store: through
  /// `growLevelOfDetail` calls, or with `inBackground` on a `LevelOfDetailBuilder`'s
  /// worker, fed as frames are absorbed.
  public init(
    worldUp: WorldUp = .y, levelOfDetail: Bool = false, inBackground: Bool = false,
    builder: LevelOfDetailBuilder? = nil
  ) {
    self.worldUp = worldUp
    if levelOfDetail && (inBackground || builder != nil) {
      builderOwner = BuilderOwner(builder ?? LevelOfDetailBuilder())
    } else if levelOfDetail {
      self.levelOfDetail = PointOctree()
    }
  }

  /// The worker growing the level of detail, when it grows in the background.
  public var levelOfDetailBuilder: LevelOfDetailBuilder? { builderOwner?.builder }

  /// Whether more loaded frames may be absorbed now: always, unless the background
  /// level of detail already has `LevelOfDetailBuilder.maxQueuedPoints` waiting (the
  /// first frame is always taken, so that the picture starts).
  public var acceptsMoreFrames: Bool {
    frameCount == 0 || (builderOwner?.builder.hasRoom ?? true)
  }

  /// Whether the content keeps a level of detail (grown by calls or in the background).
  public var hasLevelOfDetail: Bool { levelOfDetail != nil || builderOwner != nil }

  /// Points in the level of detail (0 without one).
  public var levelOfDetailCount: Int { builderOwner?.builder.count ?? levelOfDetail?.count ?? 0 }

  /// Runs `body` with the level of detail as it stands (in the background: between two
  /// of the worker's steps, which waits meanwhile); nil without one. `body` must not
  /// keep the tree.
  @discardableResult
  public func withLevelOfDetail<R>(_ body: (PointOctree) throws -> R) rethrows -> R? {
    if let builder = builderOwner?.builder { return try builder.withTree(body) }
    guard let tree = levelOfDetail else { return nil }
    return try body(tree)
  }

  /// Stops the background worker, if any (another file opens, the window closes).
  public func stopLevelOfDetail() {
    builderOwner?.builder.close()
  }

  /// Points the window's frame loop sorts into the level of detail a turn (about a
  /// fifth of a second on one core here), so that input is answered while a large
  /// cloud goes in.
  public static let levelOfDetailPointsPerTurn = 1 << 19

  /// Whether the level of detail (if any) holds every point of the store.
  public var levelOfDetailIsComplete: Bool {
    if let builder = builderOwner?.builder {
      return builder.count == store.count && builder.frameCount == store.frameCount
    }
    return levelOfDetail.map { $0.count == store.count && $0.frameCount == store.frameCount }
      ?? true
  }

  /// Inserts up to about `maxPoints` of the store's points that the level of detail
  /// lacks, so that a frame-loop turn stays short however large a frame is.
  public mutating func growLevelOfDetail(maxPoints: Int) {
    guard var tree = levelOfDetail, !levelOfDetailIsComplete else { return }
    levelOfDetail = nil  // one owner while it grows, so its arrays are not copied
    if var feed = growingFrame {
      feed.feed(&tree, from: store, maxPoints: maxPoints)
      growingFrame = feed
      if feed.isCaughtUp(with: store), store.frameCount > feed.frame + 1 {
        growingFrame = nil
        tree.sync(with: store, maxPoints: maxPoints)
      }
    } else {
      tree.sync(with: store, maxPoints: maxPoints)
    }
    levelOfDetail = tree
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
      // the last frame, and the level of detail takes it through `growingFrame`.
      if frame.piece == .more, store.frameIndices.last == frame.frameIndex {
        assert(levelOfDetail == nil || growingFrame != nil, "pieces follow a first piece")
        store.appendToLastFrame(frame.points)
        if let bounds { grown.include(bounds: bounds) }
        levelOfDetailBuilder?.submit(frame.points, continuingFrame: true)
        continue
      }
      levelOfDetailBuilder?.submit(frame.points, continuingFrame: false)
      if frame.piece == .first, levelOfDetail != nil, store.frameCount == 0 {
        growingFrame = GrowingFrameFeed(frame: 0, sample: 0..<frame.points.count)
      }
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
    return first + [.sceneAppended(grown)] + loaded
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
