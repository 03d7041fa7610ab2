import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// What the viewer's memory plan counts a point, worked out by hand, and the bounds it
/// relies on checked against real trees and merges.
@Suite struct ViewerMemoryPlanTests {
  @Test func aShownPointCosts50BytesAndAMergedOne178() {
    // 64³ cells = 262,144 bits = 32,768 bytes a grid, and nine nodes' tables, over the
    // more than 32,768 points a node holds when it turns inner: 1 byte and a bit,
    // rounded up to 2.
    #expect(ViewerMemoryPlan.gridBytesPerPoint(PointOctree.Options()) == 1)
    #expect(LODNode.tableBytes < 32_768 / 9)
    #expect(ViewerMemoryPlan.treeBytesPerShownPoint == 2)
    #expect(ViewerMemoryPlan.bytesPerShownPoint == 16 + 16 + 16 + 2)
    // A 32 B slot (the voxel's key and number) in a table at least a quarter full: at
    // most four slots a voxel.
    #expect(ViewerMemoryPlan.mergeIndexBytesPerKeptPoint == 4 * 32)
    #expect(ViewerMemoryPlan.bytesPerKeptPoint(merging: true) == 178)
    // 16 × 16 × 16 cells = 512 bytes over 65 points: 8 bytes, rounded up; with nine
    // nodes' tables, (512 + 9 × tableBytes) / 65, rounded up.
    let small = PointOctree.Options(gridResolution: 16, leafCapacity: 64)
    #expect(ViewerMemoryPlan.gridBytesPerPoint(small) == 8)
    #expect(
      ViewerMemoryPlan.treeBytesPerPoint(small) == (512 + 9 * LODNode.tableBytes + 64) / 65)
  }

  @Test func aNodesTablesAreCountedPieceByPiece() {
    // The node in the node array, its flat-table row (cube, scale, flag, 8 children,
    // grid, slot), six heap blocks of 48 B at most, and a frame table of one frame.
    let row = MemoryLayout<LODCube>.stride + 8 + 1 + 32 + 4 + 4
    #expect(LODNode.tableBytes == MemoryLayout<LODNode>.stride + row + 6 * 48 + 16 + 8 + 64)
  }

  @Test func thePointLimitIsTheBudgetOverWhatAKeptPointCosts() {
    // 1000 points: 1000 × 16 B of queued pieces at most, then 50 B each.
    let fits = ViewerMemoryPlan(
      choice: .off, cloudPoints: 1000, automaticMergeMeters: 0.01, budgetBytes: 66_000)
    #expect(fits.pointLimit == 1000)
    #expect(!fits.keepsTooManyPoints)
    // 1001 points reserve 16,016 B: 49,984 B left hold 999 points.
    let over = ViewerMemoryPlan(
      choice: .off, cloudPoints: 1001, automaticMergeMeters: 0.01, budgetBytes: 66_000)
    #expect(over.pointLimit == 999)
    #expect(over.keepsTooManyPoints)
    #expect(over.rawBytes == 50_050)
    let merged = ViewerMemoryPlan(
      choice: .voxel(meters: 0.01), cloudPoints: 5000, automaticMergeMeters: 0.01,
      budgetBytes: 80_000 + 178_000)
    #expect(merged.pointLimit == 1000)
    #expect(merged.limitMessage(point: 7, of: 5000).contains("over 0.0 GB"))
    // 66,000 bytes hold 1000 shown points, not 1001: an automatic plan merges 1001.
    let automatic = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 1001, automaticMergeMeters: 0.01, budgetBytes: 66_000)
    #expect(automatic.mergeMeters == 0.01)
    #expect(automatic.pointLimit == (66_000 - 16_016) / 178)
    #expect(
      ViewerMemoryPlan.cloudPointLimit(cloudPoints: 1001, budgetBytes: 66_000, merging: true)
        == automatic.pointLimit)
  }

  @Test func aHugeCloudReservesItsBoundedQueue() {
    // The builder's 4 Mi points, the inbox's 4 Mi, and three pieces of 1 Mi records:
    // 11 Mi points at 16 B, 176 MiB, however large the cloud.
    #expect(ViewerMemoryPlan.maxQueuedPoints == 11 << 20)
    #expect(ViewerMemoryPlan.queuedPieceBytes(cloudPoints: 1_000_000_000) == 176 << 20)
    #expect(ViewerMemoryPlan.queuedPieceBytes(cloudPoints: 1000) == 16_000)
    let gb = 1 << 30
    let cloud = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 1_000_000_000, automaticMergeMeters: 0.01,
      budgetBytes: 4 * gb)
    #expect(cloud.pointLimit == (4 * gb - (176 << 20)) / 178)
    // A recording's frames are not queued this way: nothing comes off its budget.
    let recording = ViewerMemoryPlan(
      choice: .off, frames: 10, depthWidth: 10, depthHeight: 10, budgetBytes: 50_000)
    #expect(recording.pointLimit == 1000)
  }

  @Test func aTreesGridsStayWithinTheirBoundAPoint() throws {
    // Small nodes so that many turn inner: at most 8 B of grid a point, plus one grid
    // for each root the tree grew upward (inner, but never a leaf that split).
    let options = PointOctree.Options(gridResolution: 16, leafCapacity: 64)
    let store = try PointOctreeTests.syntheticStore(frames: 6)
    let tree = PointOctree(store: store, options: options)
    let split = tree.nodes.filter { $0.isInner && $0.leafPointCount != nil }.count
    let grown = tree.nodes.filter { $0.isInner && $0.leafPointCount == nil }.count
    #expect(split > 10)
    #expect(tree.gridByteCount == (split + grown) * 512)
    #expect(split * 512 <= tree.count * ViewerMemoryPlan.gridBytesPerPoint(options))
    // At most nine nodes for each inner one (itself and eight children), and the root.
    #expect(tree.nodes.count <= 9 * (split + grown) + 1)
    #expect(
      (split * 512 + (tree.nodes.count - 9 * grown - 1) * LODNode.tableBytes)
        <= tree.count * ViewerMemoryPlan.treeBytesPerPoint(options))
  }

  @Test func aMergesIndexStaysWithinItsBoundAKeptPoint() throws {
    // 100,000 points each in a voxel of its own (1 cm apart on a line), then the same
    // again (all dropped): the index holds 100,000 keys.
    var points = FramePoints()
    for i in 0..<100_000 {
      points.positions.append(Point3(Float(i) * 0.01 + 0.005, 0.005, 0.005))
      points.colors.append(RGB8(0, 0, 0))
      points.confidence.append(2)
    }
    var merge = IngestMerge(voxelSizeMeters: 0.01)
    #expect(try merge.thin(points).count == 100_000)
    #expect(try merge.thin(points).count == 0)
    // At most 128 B a kept point (the first table, 65,536 slots of 32 B, included).
    #expect(merge.storageByteCount <= 100_000 * ViewerMemoryPlan.mergeIndexBytesPerKeptPoint)
  }

  @Test func aCoarsenedMergeKeepsOnlyPointsInFreeCoarseCells() throws {
    func points(_ xs: [Float]) -> FramePoints {
      var points = FramePoints()
      for x in xs {
        points.positions.append(Point3(x, 0.5, -0.5))
        points.colors.append(RGB8(1, 2, 3))
        points.confidence.append(1)
      }
      return points
    }
    var merge = IngestMerge(voxelSizeMeters: 1)
    // Cells 0, 1 and 3 (and y 0, z −1) hold a point.
    #expect(try merge.thin(points([0.5, 1.5, 3.5])).count == 3)
    var coarse = try merge.coarsened()
    #expect(coarse.voxelSizeMeters == 2)
    #expect(coarse.pointsKept == 3)
    // Coarse cells 0 (from 0 and 1) and 1 (from 3) are taken; 2.5 is in coarse cell 1,
    // −0.5 in −1 and 4.5 in 2, which are free.
    let kept = try coarse.thin(points([0.1, 1.9, 2.5, -0.5, 4.5, 5.5]))
    #expect(kept.positions.map(\.x) == [-0.5, 4.5])
  }

  @Test func anAutomaticMergeThatKeepsTooMuchCoarsensInsteadOfStopping() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let records = try PointRecordFile(path: PointRecordFile.write(count: 1000, in: folder))
    // At 2 m cells the 1000 records keep more than the 212 points the budget holds
    // (212 × 178 B after 1000 × 16 B of queued pieces; a merged load that does not
    // coarsen stops at such a limit); coarsening, it finishes.
    let fine = ViewerMemoryPlan(
      choice: .voxel(meters: 2), cloudPoints: 1000, automaticMergeMeters: 8,
      budgetBytes: 212 * 178 + 16_000)
    #expect(fine.pointLimit == 212)
    var plan = SampledCloudLoad(sampler: records, samplePoints: 64, chunkRecords: 100, memory: fine)
    plan.coarsensMerge = true
    let load = plan.start()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .finished(frames: 1))
    let kept = load.take().reduce(0) { $0 + $1.points.count }
    #expect(kept > 0 && kept <= 212)
    #expect(load.notes.contains { $0.hasPrefix("merging at 4000 mm from record") })
  }
}
