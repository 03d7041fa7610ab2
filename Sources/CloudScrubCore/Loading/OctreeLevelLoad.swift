import Foundation

/// A point-cloud file stored as the nodes of an octree whose every level is an even
/// sample of the cloud at its own spacing (COPC): the coarse levels alone are a picture
/// of the whole cloud, and each node reads on its own.
public protocol OctreeNodeSource: Sendable {
  /// The nodes that hold points, in the file's order.
  var nodes: [OctreeNode] { get }

  /// Reads node `index`'s points. A cloud without colour leaves `colors` empty and
  /// gives its intensities, if it has any.
  ///
  /// - Throws: the format's error for a node that cannot be read, naming it.
  func read(node index: Int) throws -> OctreeNode.Points
}

/// One node of an `OctreeNodeSource`.
public struct OctreeNode: Sendable, Equatable {
  /// Its depth: 0 for the root.
  public var level: Int
  public var points: Int

  public init(level: Int, points: Int) {
    self.level = level
    self.points = points
  }

  /// A node's points as read.
  public struct Points: Sendable {
    public var points: FramePoints
    /// The points' intensities; nil when the file has none.
    public var intensity: [UInt16]?

    public init(points: FramePoints, intensity: [UInt16]? = nil) {
      self.points = points
      self.intensity = intensity
    }
  }
}

/// How the window reads an octree file (COPC): level by level from the root, so the
/// first picture is the whole cloud, coarse, and each level after it fills it in; the
/// levels that would pass the viewer's point limit are left out, instead of merging the
/// points while they load.
public struct OctreeLevelLoad: Sendable {
  public let source: any OctreeNodeSource
  /// The nodes read, in reading order: by level, then in the file's order.
  public let order: [Int]
  /// The levels read (0 up to this, not included), and the levels the file has.
  public let levelsRead: Int
  public let levels: Int
  /// The points of the nodes read, and of every node.
  public let pointsRead: Int
  public let totalPoints: Int
  /// Points a piece after the first holds at least (whole nodes); the first piece is
  /// the root level alone.
  public var piecePoints = 1 << 20
  /// Points delivered and not yet taken past which the load waits.
  public var waitingPointLimit = SampledCloudLoad.maxWaitingPoints
  /// Called on the loading thread before each piece is read (0 the root level), so a
  /// test can hold the load at a known place.
  public var beforePiece: (@Sendable (Int) -> Void)?

  /// Plans the load of `source` within `pointLimit` points: every level whose points,
  /// with those of the levels above it, fit. The root level is read even when it alone
  /// does not fit, up to the limit.
  public init(source: any OctreeNodeSource, pointLimit: Int) {
    self.source = source
    let nodes = source.nodes
    levels = (nodes.map(\.level).max() ?? -1) + 1
    totalPoints = nodes.reduce(0) { $0 + $1.points }
    var perLevel = [Int](repeating: 0, count: levels)
    for node in nodes { perLevel[node.level] += node.points }
    var read = 0
    var sum = 0
    while read < levels, read == 0 || sum + perLevel[read] <= pointLimit {
      sum += perLevel[read]
      read += 1
    }
    var order = nodes.indices.filter { nodes[$0].level < read }
    order.sort { (nodes[$0].level, $0) < (nodes[$1].level, $1) }
    if read == 1, sum > pointLimit {
      // The root level alone is too large: its nodes up to the limit.
      var kept = 0
      order = Array(
        order.prefix { index in
          kept += nodes[index].points
          return kept <= pointLimit || kept == nodes[index].points
        })
      sum = order.reduce(0) { $0 + nodes[$1].points }
    }
    self.order = order
    levelsRead = read
    pointsRead = sum
  }

  /// What the window says when levels are left out; nil when every point is read.
  public var note: String? {
    guard pointsRead < totalPoints else { return nil }
    let read = levelsRead == 1 ? "level 0" : "levels 0–\(levelsRead - 1)"
    return
      "\(read) of the octree's \(levels) read, \(pointsRead) of \(totalPoints) points: "
      + "the finer levels would pass the viewer's memory budget"
  }

  /// Starts the load in the background.
  public func start() -> StreamingLoad {
    let load = StreamingLoad(total: pointsRead, ingestMergeMeters: nil)
    load.start { load in
      do {
        load.finish(try self.stream(into: load))
      } catch {
        load.finish(.failed("\(error)"))
      }
    }
    return load
  }

  private func stream(into load: StreamingLoad) throws -> LoadStatus {
    let nodes = source.nodes
    var ramp: IntensityGreys.Ramp?
    var greysAsColors = false
    var done = 0
    var start = 0
    var piece = 0
    while start < order.count {
      var end = start + 1
      var points = nodes[order[start]].points
      while end < order.count,
        piece == 0
          ? nodes[order[end]].level == 0
          : points < piecePoints
      {
        points += nodes[order[end]].points
        end += 1
      }
      beforePiece?(piece)
      guard !load.isCancelled else { return .cancelled }
      let read = try readNodes(Array(order[start..<end]))
      if piece == 0 {
        ramp = Self.ramp(of: read)
        greysAsColors = ramp != nil && read.contains(where: { $0.points.colors.isEmpty })
      }
      var merged = FramePoints()
      merged.positions.reserveCapacity(points)
      merged.colors.reserveCapacity(points)
      merged.confidence.reserveCapacity(points)
      if ramp != nil { merged.intensity.reserveCapacity(points) }
      for node in read {
        Self.append(node, levels: ramp, greysAsColors: greysAsColors, to: &merged)
      }
      done += merged.count
      var frame = LoadedFrame(
        frameIndex: 0, timestampSeconds: 0, info: nil, points: merged,
        piece: piece == 0 ? (end == order.count ? .whole : .first) : .more)
      frame.colorsFromIntensity = greysAsColors
      guard load.waitForRoom(maxPoints: waitingPointLimit),
        load.deliver(frame, done: done, total: pointsRead)
      else { return .cancelled }
      start = end
      piece += 1
    }
    return .finished(frames: 1)
  }

  /// Reads `indices`' nodes on every core, in their order; the first error is thrown.
  private func readNodes(_ indices: [Int]) throws -> [OctreeNode.Points] {
    let slots = ParallelSlots<Result<OctreeNode.Points, any Error>?>(
      count: indices.count, initial: nil)
    let source = self.source
    Parallel.perform(iterations: indices.count) { slot in
      slots[slot] = Result { try source.read(node: indices[slot]) }
    }
    return try (0..<indices.count).map { try slots[$0].unsafelyUnwrapped.get() }
  }

  /// The grey levels of the cloud's intensity, ramped from the intensities of its root
  /// level; nil when the root level has none that vary.
  private static func ramp(of nodes: [OctreeNode.Points]) -> IntensityGreys.Ramp? {
    let values = nodes.flatMap { $0.intensity ?? [] }
    let step = max(1, values.count / 65_536)
    return IntensityGreys.Ramp(
      sample: stride(from: 0, to: values.count, by: step).map {
        Double(values[$0])
      })
  }

  /// Appends a node's points, with their intensity levels when there is a ramp, and
  /// those levels as their colours when the cloud has no colour.
  private static func append(
    _ node: OctreeNode.Points, levels ramp: IntensityGreys.Ramp?, greysAsColors: Bool,
    to points: inout FramePoints
  ) {
    let count = node.points.count
    points.positions += node.points.positions
    var levels: [UInt8] = []
    if let ramp {
      if let intensity = node.intensity, intensity.count == count {
        levels = intensity.map { ramp.level(Double($0)) }
      } else {
        levels = Array(repeating: FramePoints.noIntensity, count: count)
      }
      points.intensity += levels
    }
    if node.points.colors.count == count {
      points.colors += node.points.colors
    } else if greysAsColors {
      points.colors += IntensityGreys.colors(ofLevels: levels)
    } else {
      points.colors += repeatElement(FramePoints.noColor, count: count)
    }
    if node.points.confidence.count == count {
      points.confidence += node.points.confidence
    } else {
      points.confidence += repeatElement(FramePoints.unknownConfidence, count: count)
    }
  }
}
