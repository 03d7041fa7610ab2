// Feeding points in: a whole store, frame by frame (a large frame in shares, an even
// sample first), or a frame that arrives in pieces.
extension PointOctree {
  /// The level of detail of a whole store (a recording loaded, or a PLY cloud as one
  /// frame).
  public init(store: PointStore, options: Options = Options()) {
    self.init(options: options)
    sync(with: store)
  }

  /// Inserts the points of `store` that are not in yet (the store only grows), at
  /// most about `maxPoints` of them, so that a frame loop can grow the tree a little
  /// each turn.
  ///
  /// A frame larger than what is left of `maxPoints` (a PLY cloud is one frame) goes in
  /// over several calls as an even sample first: every k-th point (k chosen so that a
  /// share fits), then the next residue, and so on. So the first call's points already
  /// cover the whole cloud and the first picture shows all of it, coarsely. Within
  /// such a frame, a node's points are then in that order rather than the store's.
  ///
  /// - Returns: whether the tree now holds every point of the store.
  @discardableResult
  public mutating func sync(with store: PointStore, maxPoints: Int = .max) -> Bool {
    var left = max(1, maxPoints)
    while left > 0 {
      if var share = sharing {
        let range = store.pointRange(ofAppendedFrames: share.frame...share.frame)
        let inserted = insertShare(of: range, share, from: store)
        share.next += 1
        sharing = share.next < share.stride ? share : nil
        left -= max(1, inserted)
        continue
      }
      guard frameCount < store.frameCount else { return true }
      let range = store.pointRange(ofAppendedFrames: frameCount...frameCount)
      if range.count > left {
        sharing = Share(frame: frameCount, stride: (range.count + left - 1) / left, next: 0)
        continue
      }
      store.withColumns { insert($0[range], continuingFrame: false) }
      left -= max(1, range.count)
    }
    return sharing == nil && frameCount == store.frameCount
  }

  /// Inserts every `share.stride`-th point of the frame's `range`, from its
  /// `share.next`-th point on; the first share starts the frame. Returns the count.
  private mutating func insertShare(of range: Range<Int>, _ share: Share, from store: PointStore)
    -> Int
  {
    let indices = stride(
      from: range.lowerBound + share.next, to: range.upperBound, by: share.stride)
    let points = store.withColumns { $0.gathering(indices) }
    points.withColumns { insert($0, continuingFrame: share.next > 0) }
    return points.count
  }

  /// Inserts one frame's points as the next frame.
  public mutating func append(_ frame: FramePoints) {
    frame.withColumns { insert($0, continuingFrame: false) }
  }

  /// Inserts `points` as more of the last frame inserted (the first frame when none is
  /// in yet): a frame that arrives in pieces, as a huge PLY file does while it loads
  /// (`ViewerContent` feeds such a frame itself instead of by `sync`).
  public mutating func appendToLastFrame(_ points: FramePoints) {
    points.withColumns { insert($0, continuingFrame: frameCount > 0) }
  }
}
