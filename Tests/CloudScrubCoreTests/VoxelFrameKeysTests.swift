import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// A frame's voxel keys, worked out once on every core by point range, are those of one
/// walk in order, across the ranges' edges too; and the merges fed with frames large
/// enough to be keyed on several cores still give the whole-cloud results.
@Suite struct VoxelFrameKeysTests {
  /// 10,000 points in runs of one voxel (1 m cells) whose lengths cross the places
  /// where the frame is split for 2, 3 and 4 cores, with points the mask drops and NaN
  /// points just before those places, so that "the point before" must be looked for
  /// across them.
  static func frame() -> (positions: [Point3], keep: [Bool]) {
    var positions: [Point3] = []
    var keep: [Bool] = []
    var cell = 0
    var run = 1
    while positions.count < 10_000 {
      for _ in 0..<run where positions.count < 10_000 {
        let k = positions.count
        // Scattered inside the cell, so that only the cell makes points equal.
        let fraction = Float(k % 7) / 8 + 0.05
        positions.append(Point3(Float(cell % 5) + fraction, Float(cell / 5) + fraction, 0.5))
        keep.append(true)
      }
      cell += 1
      run = run % 97 + 13
    }
    for edge in [2500, 3333, 5000, 6666, 7500] {
      for k in (edge - 3)..<edge { keep[k] = false }
      positions[edge - 5] = Point3(.nan, 0, 0)
      positions[edge + 1] = Point3(0, .infinity, 0)
    }
    return (positions, keep)
  }

  @Test(arguments: [(1, 1), (2, 2), (3, 3), (4, 4), (2, 3), (3, 4)])
  func keysOwnersAndRepeatsAreThoseOfOneWalkInOrder(partitions: Int, ranges: Int) throws {
    let (positions, keep) = Self.frame()
    let keying = WideVoxelKeying(size: 1)
    let keys = VoxelFrameKeys(keying: keying, partitions: partitions)
    keys.compute(positions, keep: keep, ranges: ranges)
    let out = keys.buffers
    var last: (x: Double, y: Double, z: Double)?
    var lastOwner = -1
    var repeatsSeen = 0
    var owned = [Int](repeating: 0, count: partitions)
    for k in 0..<positions.count {
      let p = positions[k]
      guard keep[k], p.x.isFinite, p.y.isFinite, p.z.isFinite else {
        #expect(out.owners[k] == VoxelFrameKeys.skipped, "point \(k)")
        continue
      }
      let cell = (
        x: Double(p.x).rounded(.down), y: Double(p.y).rounded(.down),
        z: Double(p.z).rounded(.down)
      )
      let key = WideVoxelKeying.Key(
        x: cell.x.bitPattern, y: cell.y.bitPattern, z: cell.z.bitPattern)
      #expect(out.keys[k] == key, "point \(k)")
      let isRepeat = last.map { $0 == cell } ?? false
      #expect(out.repeats[k] == isRepeat, "point \(k)")
      if !isRepeat {
        let hash = keying.hash(key)
        #expect(out.hashes[k] == hash, "point \(k)")
        lastOwner = partitions == 1 ? 0 : Int(hash >> 56) % partitions
      } else {
        repeatsSeen += 1
      }
      #expect(Int(out.owners[k]) == lastOwner, "point \(k)")
      owned[lastOwner] += 1
      last = cell
    }
    // Most points repeat the one before; every partition gets some voxels.
    #expect(repeatsSeen > 8_000)
    #expect(owned.allSatisfy { $0 > 0 })
  }

  /// Frames of 128 × 96 pixels are keyed on several cores; with a mask and NaN points
  /// the streamed merge and the ingest merge still give the whole-cloud results.
  @Test(arguments: [2, 3])
  func largeFramesMergeAsTheWholeCloud(partitions: Int) throws {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 3, depthWidth: 128, depthHeight: 96, colorWidth: 128, colorHeight: 96,
        depthNoiseMeters: 0.003))
    let loader = RecordingLoader(source: source)
    var frames = try (0..<3).map { try loader.points(ofFrame: $0) }
    for k in stride(from: 0, to: frames[1].count, by: 101) {
      frames[1].positions[k] = Point3(.nan, 0, 0)
    }
    try #require(frames.allSatisfy { $0.count >= VoxelFrameKeys.parallelMinimumPoints })
    let keeps = frames.map { frame in frame.positions.map { $0.y.isNaN || $0.y > 0.2 } }
    let accumulator = VoxelAccumulator(voxelSizeMeters: 0.01, partitions: partitions)
    var store = PointStore()
    var kept: [Bool] = []
    for (index, frame) in frames.enumerated() {
      try accumulator.add(frame, frameIndex: index, keeping: keeps[index])
      store.append(frame, frameIndex: index)
      kept += keeps[index]
    }
    let whole = VoxelMerge.merge(store.cloud().subset(keeping: kept), voxelSizeMeters: 0.01)
    #expect(whole.count > 1000)
    #expect(accumulator.cloud().isBitwiseEqual(to: whole))

    // The ingest merge keeps a point where no earlier finite point reached its voxel.
    var merge = IngestMerge(voxelSizeMeters: 0.01, partitions: partitions)
    var seen = Set<[Double]>()
    for frame in frames {
      let thinned = try merge.thin(frame)
      var expected: [Point3] = []
      for p in frame.positions where p.x.isFinite && p.y.isFinite && p.z.isFinite {
        let cell = [p.x, p.y, p.z].map { (Double($0) / Double(Float(0.01))).rounded(.down) + 0 }
        if seen.insert(cell).inserted { expected.append(p) }
      }
      #expect(thinned.positions == expected)
    }
  }
}
