import Foundation

/// An axis-aligned box in world metres, bounds inclusive.
public struct CropBox: Equatable, Sendable {
  public var min: Point3
  public var max: Point3

  public init(min: Point3, max: Point3) {
    self.min = min
    self.max = max
  }

  /// Whether `point` lies inside the box or on its boundary (false for NaN coordinates).
  public func contains(_ point: Point3) -> Bool {
    point.x >= min.x && point.x <= max.x && point.y >= min.y && point.y <= max.y
      && point.z >= min.z && point.z <= max.z
  }
}

/// Keeping the points inside a region of space.
public enum Crop {
  /// One flag a point: set when the point lies inside `box` and its height (along the
  /// world's `up` axis) lies in `heightBandMeters`, both bounds inclusive.
  ///
  /// A `nil` box or band does not filter. With both `nil` every point is kept, NaN
  /// positions included; with either set a point with a NaN coordinate the filter
  /// looks at is dropped. Runs over all cores; pass the result to
  /// `PointCloud.subset(keeping:)`.
  ///
  /// `stop` is asked every few thousand points; once it says to stop, the mask keeps
  /// nothing and the caller, asking it again, drops it.
  public static func mask(
    _ positions: [Point3], box: CropBox?, heightBandMeters: ClosedRange<Float>?,
    up: WorldUp = .y, stop: StopCheck? = nil
  ) -> [Bool] {
    switch (box, heightBandMeters) {
    case (nil, nil):
      return [Bool](repeating: true, count: positions.count)
    case (let box?, nil):
      return flags(positions, stop) { box.contains($0) }
    case (nil, let band?):
      return flags(positions, stop) { band.contains(up.height(of: $0)) }
    case (let box?, let band?):
      return flags(positions, stop) { box.contains($0) && band.contains(up.height(of: $0)) }
    }
  }

  /// `keep(position)` for every position, over the cores.
  private static func flags(
    _ positions: [Point3], _ stop: StopCheck?, _ keep: @Sendable (Point3) -> Bool
  ) -> [Bool] {
    let count = positions.count
    let result = VoxelBuffer<Bool>(count: count)
    let tasks = count < 1 << 16 ? 1 : 4 * Parallel.cores
    VoxelBuckets.forEachChunk(count, tasks) { _, range in
      positions.withUnsafeBufferPointer { positions in
        for index in range {
          if StopChecks.due(stop, at: index) { return }
          result[index] = keep(positions[index])
        }
      }
    }
    // A chunk that stopped left flags unwritten: hand out none of them.
    if StopChecks.now(stop) { return [Bool](repeating: false, count: count) }
    return result.array
  }
}
