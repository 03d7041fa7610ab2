import Foundation

/// Outlier filters over positions; each returns a keep mask with one flag a point.
///
/// Both query every point once, spread over all cores in an order that keeps
/// neighbouring queries close: statistical removal through a `NeighbourGrid` where the
/// cloud suits one (a `KDTree` otherwise), radius removal through a `KDTree`. Points
/// with a non-finite coordinate are never kept and are nobody's neighbour.
public enum OutlierRemoval {
  /// Keeps points whose mean distance to their `k` nearest neighbours is at most the
  /// cloud's mean of that figure plus `stdRatio` standard deviations.
  ///
  /// Semantics, precisely (a brute-force reference reproduces the mask bit for bit):
  /// - A point's neighbours are the `k` nearest *other* points (PCL's convention; Open3D
  ///   counts the point itself as one of its k). Duplicates of a point are other points
  ///   at distance 0. When the cloud has fewer than `k + 1` finite points, every point
  ///   uses all the others.
  /// - Its mean distance is the sum, in `Double`, nearest first, of
  ///   `Double(distanceSquared.squareRoot())` (the `Float` square root of the `Float`
  ///   squared distance), divided by the number of neighbours.
  /// - The global mean and the sample standard deviation (divisor n − 1) of the mean
  ///   distances are taken in `Double` in point order, two-pass; a point is kept when
  ///   its mean distance ≤ mean + stdRatio × deviation.
  /// - With `k < 1` or fewer than two finite points, every finite point is kept.
  ///
  /// Once `stop` returns true the searches end early and the mask is meaningless: the
  /// caller checks `stop` again and drops it.
  public static func statistical(
    _ positions: [Point3], neighbours k: Int, stdRatio: Double, stop: StopCheck? = nil
  ) -> [Bool] {
    var keep = positions.map { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    let finiteCount = keep.reduce(0) { $0 + ($1 ? 1 : 0) }
    guard k >= 1, finiteCount >= 2 else { return keep }
    let means = meanNeighbourDistances(
      positions, neighbours: min(k, finiteCount - 1), stop: stop)
    if StopChecks.now(stop) { return keep }

    var sum = 0.0
    for index in 0..<positions.count where keep[index] { sum += means[index] }
    let mean = sum / Double(finiteCount)
    var squares = 0.0
    for index in 0..<positions.count where keep[index] {
      let deviation = means[index] - mean
      squares += deviation * deviation
    }
    let threshold = mean + stdRatio * (squares / Double(finiteCount - 1)).squareRoot()
    for index in 0..<positions.count where keep[index] {
      keep[index] = means[index] <= threshold
    }
    return keep
  }

  /// Keeps points that have at least `minNeighbours` other points within `radiusMeters`
  /// (inclusive: squared distance ≤ radius², in `Float`).
  ///
  /// Duplicates of a point count as neighbours. With `minNeighbours < 1` every finite
  /// point is kept; a negative or NaN radius reaches no neighbour. `stop` ends the
  /// search early, as for `statistical`.
  public static func radius(
    _ positions: [Point3], radiusMeters: Float, minNeighbours: Int, stop: StopCheck? = nil
  ) -> [Bool] {
    let finite = positions.map { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    guard minNeighbours >= 1 else { return finite }
    guard radiusMeters >= 0 else { return [Bool](repeating: false, count: positions.count) }
    let tree = KDTree(positions, stop: stop)
    if StopChecks.now(stop) { return finite }
    let keep = ParallelSlots(count: positions.count, initial: false)
    let radiusSquared = radiusMeters * radiusMeters
    Parallel.forEachRange(tree.count, minimumPerTask: 1 << 12) { range in
      tree.withSearchContext { context in
        for position in range {
          if position == range.lowerBound || position & 1023 == 0, let stop, stop() { break }
          let e = context.entries[position]
          let found = context.count(
            withinSquared: radiusSquared, e.x, e.y, e.z, excludingPosition: position,
            limit: minNeighbours)
          keep[Int(e.index)] = found >= minNeighbours
        }
      }
    }
    return (0..<positions.count).map { keep[$0] }
  }

  /// Each point's mean distance to its `k` nearest other points (as `statistical`
  /// defines it), by original index; NaN for points with a non-finite coordinate.
  static func meanNeighbourDistances(
    _ positions: [Point3], neighbours k: Int, stop: StopCheck? = nil
  ) -> [Double] {
    let means = ParallelSlots(count: positions.count, initial: Double.nan)
    // The builds ask inside them and the searches every 1,024 queries; between them,
    // a stop skips what is left.
    let stopped = { StopChecks.now(stop) }
    let unmeasured = { [Double](repeating: .nan, count: positions.count) }
    let ordered = KDTree(mortonOrdering: positions, stop: stop)
    if stopped() { return unmeasured() }
    // The grid is faster on surfaces of even density; a cloud too spread out for one,
    // or of very uneven density, uses the median-split tree alone.
    if let grid = NeighbourGrid(ordered, neighbours: k, stop: stop) {
      grid.forEachNearestDistances(count: k, stop: stop) { entry, distances in
        var sum = 0.0
        for d in distances { sum += Double(d.squareRoot()) }
        means[Int(entry.index)] = distances.isEmpty ? .nan : sum / Double(distances.count)
      }
    } else {
      if stopped() { return unmeasured() }
      KDTree(positions, stop: stop).forEachNearest(count: k, stop: stop) { entry, search, found in
        var sum = 0.0
        for j in 0..<found { sum += Double(search.distanceSquared(j).squareRoot()) }
        means[Int(entry.index)] = found > 0 ? sum / Double(found) : .nan
      }
    }
    return (0..<positions.count).map { means[$0] }
  }
}
