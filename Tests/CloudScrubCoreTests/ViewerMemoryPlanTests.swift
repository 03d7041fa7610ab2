import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// What the viewer's memory plan counts a point, worked out by hand, and the bounds it
/// relies on checked against real trees and merges.
@Suite struct ViewerMemoryPlanTests {
  @Test func aShownPointCosts49BytesAndAMergedOne177() {
    // 64³ cells = 262,144 bits = 32,768 bytes a grid, over the more than 32,768 points a
    // node holds when it turns inner: under 1 byte, rounded up to 1.
    #expect(ViewerMemoryPlan.gridBytesPerShownPoint == 1)
    #expect(ViewerMemoryPlan.bytesPerShownPoint == 16 + 16 + 16 + 1)
    // A 32 B slot (the voxel's key and number) in a table at least a quarter full: at
    // most four slots a voxel.
    #expect(ViewerMemoryPlan.mergeIndexBytesPerKeptPoint == 4 * 32)
    #expect(ViewerMemoryPlan.bytesPerKeptPoint(merging: true) == 177)
    // 16 × 16 × 16 cells = 512 bytes over 65 points: 8 bytes, rounded up.
    #expect(
      ViewerMemoryPlan.gridBytesPerPoint(PointOctree.Options(gridResolution: 16, leafCapacity: 64))
        == 8)
  }

  @Test func thePointLimitIsTheBudgetOverWhatAKeptPointCosts() {
    let fits = ViewerMemoryPlan(
      choice: .off, cloudPoints: 1000, automaticMergeMeters: 0.01, budgetBytes: 49_000)
    #expect(fits.pointLimit == 1000)
    #expect(!fits.keepsTooManyPoints)
    let over = ViewerMemoryPlan(
      choice: .off, cloudPoints: 1001, automaticMergeMeters: 0.01, budgetBytes: 49_000)
    #expect(over.keepsTooManyPoints)
    #expect(over.rawBytes == 49_049)
    let merged = ViewerMemoryPlan(
      choice: .voxel(meters: 0.01), cloudPoints: 5000, automaticMergeMeters: 0.01,
      budgetBytes: 177_000)
    #expect(merged.pointLimit == 1000)
    #expect(merged.limitMessage(point: 7, of: 5000).contains("over 0.0 GB"))
    // 49,000 bytes hold 1000 shown points, not 1001: an automatic plan merges 1001.
    let automatic = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 1001, automaticMergeMeters: 0.01, budgetBytes: 49_000)
    #expect(automatic.mergeMeters == 0.01)
    #expect(automatic.pointLimit == 49_000 / 177)
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
    let path = try SampledCloudLoadTests.write(
      count: 1000, columns: SampledCloudLoadTests.standard, format: .binaryLittleEndian,
      in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    // At 2 m cells the 1000 records keep more than the 212 points the budget holds (the
    // merged load of `SampledCloudLoadTests` stops there); coarsening, it finishes.
    let fine = ViewerMemoryPlan(
      choice: .voxel(meters: 2), cloudPoints: 1000, automaticMergeMeters: 8, budgetBytes: 37_524)
    var plan = SampledCloudLoad(sampler: sampler, samplePoints: 64, chunkRecords: 100, memory: fine)
    plan.coarsensMerge = true
    let load = plan.start()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .finished(frames: 1))
    let kept = load.take().reduce(0) { $0 + $1.points.count }
    #expect(kept > 0 && kept <= 212)
    #expect(load.notes.contains { $0.hasPrefix("merging at 4000 mm from record") })
  }
}
