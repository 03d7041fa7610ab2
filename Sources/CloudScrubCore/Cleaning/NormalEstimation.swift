import Foundation

/// Surface normals from local neighbourhoods (principal component analysis).
public enum NormalEstimation {
  /// Unit normals, one a point: the eigenvector of the smallest eigenvalue of the
  /// covariance of each point's neighbourhood, turned to face its viewpoint.
  ///
  /// A point's neighbourhood is the point itself and its `k` nearest other points (the
  /// same neighbours as `OutlierRemoval.statistical`; fewer when the cloud is smaller).
  /// `viewpoint(i)` is where point `i` was seen from, typically its camera's position;
  /// each normal is flipped so that `dot(normal, viewpoint − point) ≥ 0`. It is called
  /// once a point, in index order, on the calling thread.
  ///
  /// The normal is the zero vector where it is undefined: a point with a non-finite
  /// coordinate, a neighbourhood of fewer than three points, or one whose points all
  /// coincide.
  ///
  /// `stop` is asked inside the tree's build, every 1,024 queries of the search and
  /// every few thousand points of the orientation; once it returns true the work ends
  /// early and the normals are meaningless: the caller checks `stop` again and drops
  /// them.
  public static func estimate(
    _ positions: [Point3], neighbours k: Int, viewpoint: (Int) -> SIMD3<Float>,
    stop: StopCheck? = nil
  ) -> [Point3] {
    let tree = KDTree(positions, stop: stop)
    let neighbourCount = min(max(k, 0), max(tree.count - 1, 0))
    let normals = ParallelSlots(count: positions.count, initial: Point3.zero)
    if neighbourCount >= 2 && !StopChecks.now(stop) {
      tree.forEachNearest(count: neighbourCount, stop: stop) { entry, search, found in
        positions.withUnsafeBufferPointer { points in
          normals[Int(entry.index)] = normal(
            of: entry, neighbours: search, count: found, positions: points)
        }
      }
    }
    var result = [Point3](repeating: .zero, count: positions.count)
    for index in 0..<positions.count {
      if StopChecks.due(stop, at: index) { break }
      var n = normals[index]
      let p = positions[index]
      let v = viewpoint(index)
      let facing = n.x * (v.x - p.x) + n.y * (v.y - p.y) + n.z * (v.z - p.z)
      if facing < 0 { n = Point3(-n.x, -n.y, -n.z) }
      result[index] = n
    }
    return result
  }

  /// The unit normal of the point `centre` and the `count` neighbours a search found,
  /// before orientation, or zero where undefined.
  private static func normal(
    of centre: KDTree.Entry, neighbours search: NearestSearch, count: Int,
    positions: UnsafeBufferPointer<Point3>
  ) -> Point3 {
    guard count >= 2 else { return .zero }
    // Coordinates relative to the centre point keep the sums small, so a neighbourhood
    // far from the origin loses nothing to cancellation.
    let origin = SIMD3<Double>(Double(centre.x), Double(centre.y), Double(centre.z))
    @inline(__always) func offset(_ j: Int) -> SIMD3<Double> {
      let p = positions[Int(search.index(j))]
      return SIMD3(Double(p.x), Double(p.y), Double(p.z)) - origin
    }
    var sum = SIMD3<Double>.zero
    for j in 0..<count { sum += offset(j) }
    let centroid = sum / Double(count + 1)
    // The centre itself sits at offset zero.
    var covariance = SymmetricMatrix3(outerProductOf: -centroid)
    for j in 0..<count { covariance.addOuterProduct(of: offset(j) - centroid) }
    guard covariance.trace > 0 else { return .zero }
    let n = covariance.eigenvectorOfSmallestEigenvalue()
    return Point3(Float(n.x), Float(n.y), Float(n.z))
  }
}
