import Foundation

extension PointPicker {
  /// The point `request` picks in `store` when each frame's points are drawn moved by
  /// its pose correction (`corrections[f]`, one a store frame, as
  /// `FramePoseCorrections.matrices` gives): the click is tested against the corrected
  /// positions, and the picked point's position is the corrected one.
  ///
  /// Each frame's shown points are picked through the view composed with that frame's
  /// correction; of the frames' picks, those on the front surface (view depth within
  /// `surfaceDepthFraction` of the nearest) count, and the one nearest the click wins,
  /// as within one frame. The crop is tested on the corrected positions. Frames past
  /// `corrections` are picked where they are stored.
  public static func pick(
    _ request: PickRequest, in store: PointStore, corrections: [Matrix4]
  ) -> PickedPoint? {
    var picks: [(point: PickedPoint, depth: Float)] = []
    let starts = store.frameRanges
    for range in request.ranges {
      let shown = range.clamped(to: 0..<store.count)
      guard !shown.isEmpty else { continue }
      let first = frame(ofPoint: shown.lowerBound, frameRanges: starts)
      let last = frame(ofPoint: shown.upperBound - 1, frameRanges: starts)
      for frame in first...last {
        let piece = (starts[frame]..<starts[frame + 1]).clamped(to: shown)
        guard !piece.isEmpty else { continue }
        let model = corrections.indices.contains(frame) ? corrections[frame] : .identity
        var own = request
        own.viewProjection = request.viewProjection * model
        own.worldFromStored = model
        own.ranges = [piece]
        guard var picked = pick(own, in: store) else { continue }
        let moved = PickProjector.moved(picked.positionMeters, by: model)
        picked.positionMeters = moved
        // Clip w is the view depth of a perspective projection.
        let depth = request.viewProjection.transform(SIMD4(moved.x, moved.y, moved.z, 1)).w
        picks.append((picked, depth))
      }
    }
    guard let nearest = picks.map(\.depth).min() else { return nil }
    let surface = nearest * (1 + surfaceDepthFraction)
    return
      picks.filter { $0.depth <= surface }
      .min { a, b in
        (a.point.distancePixels, a.depth, a.point.index)
          < (b.point.distancePixels, b.depth, b.point.index)
      }?.point
  }
}

extension PointSelection {
  /// The command that moves the picked points (and a measurement's ends) to where they
  /// are drawn now that the poses shown changed: each point of `store` at its frame's
  /// correction in `corrections` (one a store frame, as `FramePoseCorrections.matrices`
  /// gives), or where it is stored when `corrections` is nil or has no entry for its
  /// frame. The same single-precision move a pick through those corrections makes.
  public func following(_ store: PointStore, corrections: [Matrix4]?) -> SelectionCommand {
    var positions: [Int: Point3] = [:]
    for point in [picked, measureStart, measureEnd].compactMap({ $0 })
    where store.positions.indices.contains(point.index) {
      let stored = store.positions[point.index]
      let frame = PointPicker.frame(ofPoint: point.index, frameRanges: store.frameRanges)
      if let corrections, corrections.indices.contains(frame) {
        positions[point.index] = PickProjector.moved(stored, by: corrections[frame])
      } else {
        positions[point.index] = stored
      }
    }
    return .moved(positionsMeters: positions)
  }
}
