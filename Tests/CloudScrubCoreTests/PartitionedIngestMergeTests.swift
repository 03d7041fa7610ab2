import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// The ingest-time merge split over partitions (one a core) keeps exactly the points a
/// single table keeps, in the same order, and the viewer's memory plan counts its index.
@Suite struct PartitionedIngestMergeTests {
  /// Eight frames of a synthetic recording, unprojected, in timeline order.
  static func frames() throws -> [FramePoints] {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 8, depthWidth: 96, depthHeight: 72, colorWidth: 96, colorHeight: 72,
        depthNoiseMeters: 0.002))
    let loader = RecordingLoader(source: source)
    return try (0..<source.frameCount).map { try loader.points(ofFrame: $0) }
  }

  /// Points with their index (modulo 256) as red, and confidence 2.
  static func points(_ positions: [Point3]) -> FramePoints {
    var points = FramePoints()
    points.positions = positions
    points.colors = positions.indices.map { RGB8(UInt8(truncatingIfNeeded: $0), 0, 0) }
    points.confidence = positions.map { _ in 2 }
    return points
  }

  /// The indices of the points a walk in order with a set of cells keeps, a list a
  /// frame: worked out without the merge's tables.
  static func reference(_ frames: [FramePoints], sizeMeters: Float) -> [[Int]] {
    var cells = Set<[Double]>()
    return frames.map { frame in
      frame.positions.indices.filter { index in
        let p = frame.positions[index]
        guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { return false }
        let cell = [p.x, p.y, p.z].map { (Double($0) / Double(sizeMeters)).rounded(.down) }
        return cells.insert(cell).inserted
      }
    }
  }

  @Test(arguments: [(0.01, 1), (0.01, 2), (0.01, 3), (0.05, 4), (0.003, 2)] as [(Float, Int)])
  func partitionsKeepWhatOneWalkInOrderKeeps(_ size: Float, partitions: Int) throws {
    let frames = try Self.frames()
    // 6,912 points a frame: above the size that splits the work between threads.
    #expect(frames[0].count >= IngestMerge.parallelMinimumPoints)
    let expected = Self.reference(frames, sizeMeters: size)
    var merge = IngestMerge(voxelSizeMeters: size, partitions: partitions)
    var kept = 0
    for (k, frame) in frames.enumerated() {
      let thinned = try merge.thin(frame)
      #expect(thinned.positions == expected[k].map { frame.positions[$0] }, "frame \(k)")
      // Colours and confidence travel with their points.
      #expect(thinned.colors == expected[k].map { frame.colors[$0] })
      #expect(thinned.confidence == expected[k].map { frame.confidence[$0] })
      kept += thinned.count
    }
    #expect(kept > 0)
    #expect(merge.pointsKept == kept)
    #expect(merge.pointsSeen == frames.reduce(0) { $0 + $1.count })
  }

  @Test func runsOfOneVoxelAndACopyOfTheMergeStayApart() throws {
    // A run of points in one 1 m voxel, then a point of a new voxel, then the first
    // voxel again: only the first of the run and the new voxel are kept.
    let tail = [Point3(1.5, 0.5, 0.5), Point3(0.2, 0.2, 0.2)]
    let run = [Point3](repeating: Point3(0.5, 0.5, 0.5), count: 5000) + tail
    var merge = IngestMerge(voxelSizeMeters: 1, partitions: 2)
    let first = try merge.thin(Self.points(run))
    #expect(first.positions == [Point3(0.5, 0.5, 0.5), Point3(1.5, 0.5, 0.5)])
    #expect(first.colors == [RGB8(0, 0, 0), RGB8(UInt8(truncatingIfNeeded: 5000), 0, 0)])
    // A copy goes on alone: what it keeps does not reach the original.
    var copy = merge
    let fresh = [Point3(2.5, 0.5, 0.5)]
    #expect(try copy.thin(Self.points(fresh)).positions == fresh)
    #expect(try merge.thin(Self.points(fresh)).positions == fresh)
    #expect(try copy.thin(Self.points(fresh)).positions.isEmpty)
  }

  @Test func theIndexHoldsWhatThePlanCountsAKeptPoint() throws {
    // 100,000 distinct 1 cm voxels in one table: it starts at 65,536 slots and doubles
    // past half full (32,768 and 65,536 voxels), so it ends at 262,144 slots of 32 bytes.
    var merge = IngestMerge(voxelSizeMeters: 0.01, partitions: 1)
    let positions = (0..<100_000).map {
      Point3(Float($0 % 400) * 0.01 + 0.005, Float($0 / 400) * 0.01 + 0.005, 0)
    }
    #expect(try merge.thin(Self.points(positions)).count == 100_000)
    #expect(VoxelIndex.bytesPerSlot == 32)
    #expect(merge.storageByteCount == 262_144 * 32)
    #expect(merge.storageByteCount <= 100_000 * ViewerMemoryPlan.mergeIndexBytesPerKeptPoint)
    #expect(ViewerMemoryPlan.mergeIndexBytesPerKeptPoint == 128)
  }

  @Test func theMemoryPlanCountsTheMergeIndexOfARecording() {
    let gb = 1 << 30
    // Every point kept: 50 bytes a point (store, level of detail, node cache, 16 each, and
    // at most 2 of bit grids and node tables).
    let raw = ViewerMemoryPlan(
      choice: .off, frames: 240, depthWidth: 256, depthHeight: 192, budgetBytes: 2 * gb)
    #expect(raw.bytesPerKeptPoint == 50)
    #expect(raw.pointLimit == 42_949_672)
    // Merged while loading: 50 + 128 bytes of index a kept point.
    let merged = ViewerMemoryPlan(
      choice: .automatic, frames: 36_000, depthWidth: 256, depthHeight: 192, budgetBytes: 2 * gb)
    #expect(merged.mergeMeters == 0.005)
    #expect(merged.bytesPerKeptPoint == 178)
    #expect(merged.pointLimit == 12_064_514)
    #expect(merged.limitMessage(frame: 7).contains("over 2.1 GB of memory"))
    // A point cloud merged while loading holds the same index: 100 M points × 50 B do
    // not fit 2 GiB, so it merges and counts 178 bytes a kept point.
    let cloud = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 100_000_000, automaticMergeMeters: 0.01,
      budgetBytes: 2 * gb)
    #expect(cloud.mergeMeters == 0.01)
    #expect(cloud.bytesPerKeptPoint == 178)
  }
}
