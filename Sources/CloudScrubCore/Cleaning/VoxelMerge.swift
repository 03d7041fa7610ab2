import Foundation

/// Merging the points that share a voxel into one point.
///
/// A point's voxel is its cell index `floor(Double(c) / Double(size))` on each axis, on a
/// grid anchored at the origin (so negative coordinates floor towards −∞, and a point
/// exactly on a boundary belongs to the cell above it). Points with a NaN or infinite
/// coordinate are dropped. Cell indices are exact however far from the origin a point is:
/// they are never truncated to 32 bits.
///
/// Each voxel becomes one point, in the order of the voxel's first point in the input
/// (so a recording's frame order is kept):
/// - position: the mean, summed in `Double` in input order;
/// - colour: the mean of each channel, rounded to nearest (halves up);
/// - normal: the mean, renormalised to unit length (zero when the normals cancel);
/// - "confidence" (a `.uint8` attribute, 0–2 with 255 for unknown): the highest known
///   value, 255 only when every point's is unknown;
/// - any other integer attribute, "frame" among them: the value of the voxel's first
///   point in input order;
/// - floating-point attributes: the mean, summed in `Double`.
///
/// The points are scattered into buckets by a hash of their voxel key (streaming passes
/// over the cores), then each bucket's voxels are gathered in a small open-addressing
/// table that stays in cache; the result does not depend on the number of cores.
/// Clouds of more than 2³² − 1 points are not supported.
public enum VoxelMerge {
  /// The cloud with the points of each voxel of `voxelSizeMeters` merged into one.
  ///
  /// `voxelSizeMeters` must be positive and finite. `stop` is asked every few thousand
  /// points or voxels of each pass; once it says to stop, the merge returns an empty
  /// cloud, which the caller, asking it again, drops.
  public static func merge(
    _ cloud: PointCloud, voxelSizeMeters: Float, stop: StopCheck? = nil
  ) -> PointCloud {
    merge(cloud, voxelSizeMeters: voxelSizeMeters, taskCount: nil, stop: stop)
  }

  /// `merge` with the number of parallel tasks and the bucket size chosen (tests use them
  /// to run the multi-task, multi-bucket path on small clouds); a `nil` task count picks
  /// one a core for large clouds.
  static func merge(
    _ cloud: PointCloud, voxelSizeMeters: Float, taskCount: Int?,
    pointsPerBucket: Int = VoxelBuckets.defaultPointsPerBucket, stop: StopCheck? = nil
  ) -> PointCloud {
    precondition(
      voxelSizeMeters > 0 && voxelSizeMeters.isFinite, "voxel size must be positive and finite")
    precondition(cloud.isConsistent, "one value a point in every field")
    precondition(cloud.count < Int(UInt32.max), "at most 2³² − 1 points")
    let tasks =
      taskCount
      ?? (cloud.count < 1 << 16 ? 1 : Parallel.cores)
    let inputs = VoxelInputs(cloud)
    let size = Double(voxelSizeMeters)
    guard let bounds = finiteBounds(cloud.positions, stop: stop), !StopChecks.now(stop) else {
      return VoxelMergeOutput.empty(like: cloud)
    }
    let merged: PointCloud?
    if let keying = PackedVoxelKeying(size: size, bounds: bounds) {
      merged = run(
        cloud, inputs, keying: keying, tasks: tasks, pointsPerBucket: pointsPerBucket, stop: stop)
    } else {
      merged = run(
        cloud, inputs, keying: WideVoxelKeying(size: size), tasks: tasks,
        pointsPerBucket: pointsPerBucket, stop: stop)
    }
    return merged ?? VoxelMergeOutput.empty(like: cloud)
  }

  /// The merged cloud, or nil once `stop` said to stop.
  private static func run<K: VoxelKeying>(
    _ cloud: PointCloud, _ inputs: VoxelInputs, keying: K, tasks: Int, pointsPerBucket: Int,
    stop: StopCheck?
  ) -> PointCloud? {
    // A few chunks a task, handed out as cores come free.
    let chunks = tasks > 1 ? 4 * tasks : 1
    guard
      let buckets = VoxelBuckets(
        inputs, keying: keying, chunkCount: chunks, pointsPerBucket: pointsPerBucket, stop: stop),
      let voxels = VoxelBuckets.accumulate(
        buckets, inputs, keying: keying, taskCount: tasks, stop: stop)
    else { return nil }
    return VoxelMergeOutput.assemble(cloud, inputs, voxels: voxels, stop: stop)
  }

  /// The box around every finite position, computed over the cores (meaningless once
  /// `stop` says to stop).
  static func finiteBounds(_ positions: [Point3], stop: StopCheck? = nil) -> Bounds3? {
    // The fast pass skips NaN (a comparison with NaN is false) but not infinities; the
    // careful pass runs only when one turned up.
    if let bounds = bounds(positions, skippingInfinities: false, stop: stop),
      [bounds.min.x, bounds.min.y, bounds.min.z, bounds.max.x, bounds.max.y, bounds.max.z]
        .allSatisfy(\.isFinite)
    {
      return bounds
    }
    if StopChecks.now(stop) { return nil }
    return bounds(positions, skippingInfinities: true, stop: stop)
  }

  private static func bounds(
    _ positions: [Point3], skippingInfinities: Bool, stop: StopCheck?
  ) -> Bounds3? {
    let tasks = Parallel.cores
    let parts = ParallelSlots<Bounds3?>(count: tasks, initial: nil)
    let count = positions.count
    VoxelBuckets.forEachChunk(count, count < 1 << 16 ? 1 : tasks) { task, range in
      var lo = Point3(.infinity, .infinity, .infinity)
      var hi = Point3(-.infinity, -.infinity, -.infinity)
      positions.withUnsafeBufferPointer { positions in
        for index in range {
          if StopChecks.due(stop, at: index) { break }
          let p = positions[index]
          if skippingInfinities && !(p.x.isFinite && p.y.isFinite && p.z.isFinite) { continue }
          lo.x = p.x < lo.x ? p.x : lo.x
          lo.y = p.y < lo.y ? p.y : lo.y
          lo.z = p.z < lo.z ? p.z : lo.z
          hi.x = p.x > hi.x ? p.x : hi.x
          hi.y = p.y > hi.y ? p.y : hi.y
          hi.z = p.z > hi.z ? p.z : hi.z
        }
      }
      // A part that saw no point (or only NaN) keeps its inverted box: leave it out.
      if lo.x <= hi.x { parts[task] = Bounds3(min: lo, max: hi) }
    }
    return (0..<tasks).compactMap { parts[$0] }.reduce(nil) { merged, part in
      guard let merged else { return part }
      return Bounds3(
        min: Point3(
          min(merged.min.x, part.min.x), min(merged.min.y, part.min.y),
          min(merged.min.z, part.min.z)),
        max: Point3(
          max(merged.max.x, part.max.x), max(merged.max.y, part.max.y),
          max(merged.max.z, part.max.z)))
    }
  }
}

extension VoxelInputs {
  init(_ cloud: PointCloud) {
    positions = cloud.positions
    colors = cloud.colors ?? []
    normals = cloud.normals ?? []
    confidence = []
    floatAttributes = []
    for attribute in cloud.attributes {
      switch attribute.values {
      case .uint8(let values) where attribute.name == VoxelMergeOutput.confidenceName:
        if confidence.isEmpty { confidence = values }
      case .float32, .float64:
        floatAttributes.append(attribute.values)
      default:
        break
      }
    }
  }
}
