/// The automatic merge of a point cloud too large for the viewer, sized from an even
/// sample of the cloud.
extension ViewerMemoryPlan {
  /// The voxel size at which merging the whole cloud, whose even sample is `sample`,
  /// keeps about 70 % of `pointLimit` points, and never below `automaticVoxelMeters`.
  ///
  /// Scanned clouds are surfaces: at a cell size where the sample's points share cells
  /// (four to a cell or more), its occupied cells times the cell's area measure the
  /// surfaces' area A, and the whole cloud, merged at size s, keeps about A / s² points.
  /// A cloud that fills a volume keeps more than this predicts; the load then stops at
  /// the limit and says so.
  public static func mergeMeters(forSample sample: [Point3], pointLimit: Int) -> Float {
    let finite = sample.filter { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    guard finite.count >= 16 else { return automaticVoxelMeters }
    var size = Double(automaticVoxelMeters)
    var occupied = occupiedCells(finite, sizeMeters: size)
    while occupied * 4 > finite.count, size < 1e6 {
      size *= 2
      occupied = occupiedCells(finite, sizeMeters: size)
    }
    let areaSquareMeters = Double(occupied) * size * size
    let meters = (areaSquareMeters / (0.7 * Double(max(1, pointLimit)))).squareRoot()
    // To a tenth of a millimetre, rounded up, so the note reads well.
    let rounded = (meters * 1e4).rounded(.up) / 1e4
    return Float(max(Double(automaticVoxelMeters), rounded))
  }

  /// What the window says of a cloud too large for `budgetBytes` before its load has
  /// chosen the merge's size (from its first sample, `SampledCloudLoad`).
  public static func deferredMergeNote(cloudPoints points: Int, budgetBytes: Int) -> String {
    let (bytes, over) = bytesPerShownPoint.multipliedReportingOverflow(by: max(0, points))
    return "merging while loading, at a size chosen from the first sample: \(points) points "
      + "would need \(gigabytes(over ? Int.max : bytes)), over the viewer's "
      + gigabytes(budgetBytes)
  }

  /// Cells of `sizeMeters` that `points` occupy (points too far out to quantise skip).
  static func occupiedCells(_ points: [Point3], sizeMeters: Double) -> Int {
    var cells = Set<SIMD3<Double>>()
    for p in points {
      let cell = SIMD3<Double>(
        (Double(p.x) / sizeMeters).rounded(.down), (Double(p.y) / sizeMeters).rounded(.down),
        (Double(p.z) / sizeMeters).rounded(.down))
      cells.insert(cell)
    }
    return cells.count
  }
}
