/// Feeds a level of detail a frame that arrives in pieces (a huge PLY cloud: its even
/// sample first, then the rest in file order), since `PointOctree.sync` takes a frame
/// only once it is whole.
///
/// The first piece (the sample) goes in as the octree's own large frames do: every
/// t-th point, then the next residue, so the first turn's points already cover the
/// cloud; the points that came after it go in in store order. Every point of the frame
/// is inserted exactly once.
struct GrowingFrameFeed: Sendable {
  /// The frame's position in the store.
  let frame: Int
  /// The store's indices of the first piece.
  let sample: Range<Int>
  /// The stride over the sample (0 until the first turn chooses it) and the residue
  /// next to insert.
  private var sampleStride = 0
  private var residue = 0
  /// Store index up to which the points after the sample are in.
  private var filled: Int

  init(frame: Int, sample: Range<Int>) {
    self.frame = frame
    self.sample = sample
    filled = sample.upperBound
  }

  /// Whether every point of the frame that the store holds is in `tree`.
  func isCaughtUp(with store: PointStore) -> Bool {
    sampleStride > 0 && residue >= sampleStride
      && filled == store.pointRange(ofAppendedFrames: frame...frame).upperBound
  }

  /// Inserts about `maxPoints` of the frame's points that `tree` lacks.
  mutating func feed(_ tree: inout PointOctree, from store: PointStore, maxPoints: Int) {
    var left = max(1, maxPoints)
    if sampleStride == 0 { sampleStride = max(1, (sample.count + left - 1) / left) }
    while left > 0, residue < sampleStride {
      let indices = stride(
        from: sample.lowerBound + residue, to: sample.upperBound, by: sampleStride)
      let points = Self.gather(indices, from: store)
      if residue == 0 { tree.append(points) } else { tree.appendToLastFrame(points) }
      residue += 1
      left -= max(1, points.count)
    }
    let end = store.pointRange(ofAppendedFrames: frame...frame).upperBound
    while left > 0, residue >= sampleStride, filled < end {
      let upper = min(end, filled + left)
      tree.appendToLastFrame(Self.gather(filled..<upper, from: store))
      left -= upper - filled
      filled = upper
    }
  }

  private static func gather(_ indices: some Sequence<Int>, from store: PointStore)
    -> FramePoints
  {
    var points = FramePoints()
    for index in indices {
      points.positions.append(store.positions[index])
      points.colors.append(store.colors[index])
      points.confidence.append(store.confidence[index])
    }
    return points
  }
}
