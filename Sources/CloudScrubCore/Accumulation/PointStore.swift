/// The merged cloud of a recording: every frame's points appended in timeline order, so
/// that the points of frames a…b are one contiguous range.
///
/// 16 bytes a point: position (12), colour (3), confidence (1), and one more for a
/// scan's intensity. A point's frame is not stored per point: `frameRanges` gives it.
public struct PointStore: Equatable, Sendable {
  public private(set) var positions: [Point3] = []
  public private(set) var colors: [RGB8] = []
  public private(set) var confidence: [UInt8] = []
  /// Each point's intensity level (`FramePoints.intensity`), or empty when no point has
  /// one: a scan's, drawn by the intensity colour mode.
  public private(set) var intensity: [UInt8] = []
  /// Prefix sums of per-frame point counts: the points of the k-th appended frame are
  /// `frameRanges[k]..<frameRanges[k + 1]`. Always one longer than `frameIndices`.
  public private(set) var frameRanges: [Int] = [0]
  /// The recording's index of each appended frame (frames can be skipped).
  public private(set) var frameIndices: [Int] = []

  /// Bytes a point takes in the store.
  public static let bytesPerPoint = MemoryLayout<Point3>.stride + MemoryLayout<RGB8>.stride + 1

  public init() {}

  public var count: Int { positions.count }
  public var frameCount: Int { frameIndices.count }
  /// Whether the points carry intensity (then every point has a level).
  public var hasIntensity: Bool { !intensity.isEmpty }

  /// Reserves room for `estimatedPoints` points, so that appending frames does not copy
  /// what is already there. Untouched room costs address space, not memory.
  public mutating func reserveCapacity(estimatedPoints: Int) {
    positions.reserveCapacity(estimatedPoints)
    colors.reserveCapacity(estimatedPoints)
    confidence.reserveCapacity(estimatedPoints)
    // Large stores: ask for huge pages before the room is first touched.
    positions.withUnsafeMutableBytes { adviseHugePages($0, capacity: estimatedPoints * 12) }
    colors.withUnsafeMutableBytes { adviseHugePages($0, capacity: estimatedPoints * 3) }
    confidence.withUnsafeMutableBytes { adviseHugePages($0, capacity: estimatedPoints) }
  }

  /// Appends one frame's points after every frame already there.
  ///
  /// The first frame of a store with no room reserved for it takes the frame's columns
  /// as they are, without copying them (a whole cloud that arrives as one frame), where
  /// the columns are complete.
  public mutating func append(_ points: FramePoints, frameIndex: Int) {
    precondition(frameIndices.last.map { frameIndex > $0 } ?? true, "frames arrive in order")
    let n = points.count
    if frameIndices.isEmpty, positions.capacity < n, points.colors.count == n,
      points.confidence.count == n, points.intensity.isEmpty || points.intensity.count == n
    {
      positions = points.positions
      colors = points.colors
      confidence = points.confidence
      intensity = points.intensity
      frameRanges = [0, n]
      frameIndices = [frameIndex]
      return
    }
    points.withColumns { append($0, toFrame: frameIndex) }
  }

  /// Appends points to the last appended frame (a frame that arrives in pieces, as a
  /// level-of-detail node receives a large frame).
  public mutating func appendToLastFrame(_ points: FramePoints) {
    guard let last = frameIndices.last else {
      assertionFailure("a frame to add to")
      return
    }
    points.withColumns { append($0, toFrame: last) }
  }

  /// Appends points to frame `frameIndex`: to the last appended frame when it is that
  /// frame, else as a new frame after it (a level-of-detail node's share of a piece).
  ///
  /// Missing colours and confidence are filled (`PointColumns`). Intensity is kept for
  /// every point once any point has it: the points before get `FramePoints.noIntensity`,
  /// and so do later points without it.
  public mutating func append(_ points: PointColumns, toFrame frameIndex: Int) {
    precondition(frameIndices.last.map { frameIndex >= $0 } ?? true, "frames arrive in order")
    let n = points.count
    positions.append(contentsOf: points.positions)
    if points.colors.count >= n {
      colors.append(contentsOf: UnsafeBufferPointer(rebasing: points.colors[0..<n]))
    } else {
      colors.append(contentsOf: (0..<n).lazy.map { points.color(at: $0) })
    }
    if points.confidence.count >= n {
      confidence.append(contentsOf: UnsafeBufferPointer(rebasing: points.confidence[0..<n]))
    } else {
      confidence.append(contentsOf: (0..<n).lazy.map { points.confidence(at: $0) })
    }
    if points.hasIntensity || hasIntensity {
      let before = positions.count - n
      if intensity.count < before {
        intensity.append(contentsOf: repeatElement(FramePoints.noIntensity, count: before))
      }
      if points.intensity.count >= n {
        intensity.append(contentsOf: UnsafeBufferPointer(rebasing: points.intensity[0..<n]))
      } else {
        intensity.append(contentsOf: (0..<n).lazy.map { points.intensity(at: $0) })
      }
    }
    if frameIndices.last == frameIndex {
      frameRanges[frameRanges.count - 1] = positions.count
    } else {
      frameRanges.append(positions.count)
      frameIndices.append(frameIndex)
    }
  }

  /// Calls `body` with the store's columns, borrowed for the call.
  public func withColumns<R>(_ body: (PointColumns) throws -> R) rethrows -> R {
    try PointColumns.borrowing(positions, colors, confidence, intensity, body)
  }

  /// The range of points of the appended frames `first…last` (positions in
  /// `frameIndices`, not recording indices).
  public func pointRange(ofAppendedFrames frames: ClosedRange<Int>) -> Range<Int> {
    frameRanges[frames.lowerBound]..<frameRanges[frames.upperBound + 1]
  }

  /// Bytes of point data held in memory.
  public var storageByteCount: Int {
    positions.count * MemoryLayout<Point3>.stride + colors.count * MemoryLayout<RGB8>.stride
      + confidence.count + intensity.count
  }

  /// The merged points as a cloud with `confidence` (uchar) and `frame` (uint, the
  /// recording's frame index) attributes.
  public func cloud() -> PointCloud {
    // With no stop to ask, the cloud is always made.
    cloud(stop: nil) ?? PointCloud(positions: [])
  }

  /// The points at `indices` (ascending) as `cloud()` gives them, gathered without the
  /// rest: `stop` is asked every few thousand points, and nil returned once it says to
  /// stop.
  public func cloud(of indices: [Int], stop: StopCheck?) -> PointCloud? {
    var positions: [Point3] = []
    var colors: [RGB8] = []
    var confidence: [UInt8] = []
    var frames: [UInt32] = []
    positions.reserveCapacity(indices.count)
    colors.reserveCapacity(indices.count)
    confidence.reserveCapacity(indices.count)
    frames.reserveCapacity(indices.count)
    var frame = 0
    for (taken, index) in indices.enumerated() {
      if StopChecks.due(stop, at: taken) { return nil }
      while frameRanges[frame + 1] <= index { frame += 1 }
      positions.append(self.positions[index])
      colors.append(self.colors[index])
      confidence.append(self.confidence[index])
      frames.append(UInt32(frameIndices[frame]))
    }
    return PointCloud(
      positions: positions, colors: colors,
      attributes: [
        PointAttribute(name: "confidence", values: .uint8(confidence)),
        PointAttribute(name: "frame", values: .uint32(frames)),
      ])
  }

  /// `cloud()`, asking `stop` every few thousand points while the frame column is
  /// filled: nil once it says to stop.
  public func cloud(stop: StopCheck?) -> PointCloud? {
    var frames = [UInt32](repeating: 0, count: count)
    for (k, frame) in frameIndices.enumerated() {
      let value = UInt32(frame)
      for i in frameRanges[k]..<frameRanges[k + 1] {
        if StopChecks.due(stop, at: i) { return nil }
        frames[i] = value
      }
    }
    return PointCloud(
      positions: positions, colors: colors,
      attributes: [
        PointAttribute(name: "confidence", values: .uint8(confidence)),
        PointAttribute(name: "frame", values: .uint32(frames)),
      ])
  }
}
