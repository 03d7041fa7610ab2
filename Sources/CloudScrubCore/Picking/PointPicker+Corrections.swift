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
  /// as within one frame. Frames past `corrections` are picked where they are stored.
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
        own.ranges = [piece]
        guard var picked = pick(own, in: store) else { continue }
        let p = picked.positionMeters
        let moved = model.transform(SIMD4(p.x, p.y, p.z, 1))
        picked.positionMeters = Point3(moved.x, moved.y, moved.z)
        // Clip w is the view depth of a perspective projection.
        let depth = request.viewProjection.transform(moved).w
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
