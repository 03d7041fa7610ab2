import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// The ingest-time merge and the viewer's memory plan: memory that follows the scene,
/// not the length of the capture.
@Suite struct IngestMergeTests {
  static func points(_ positions: [Point3]) -> FramePoints {
    var points = FramePoints()
    points.positions = positions
    points.colors = positions.indices.map { RGB8(UInt8($0), 0, 0) }
    points.confidence = positions.map { _ in 2 }
    return points
  }

  @Test func theFirstPointOfEachVoxelIsKeptInOrder() throws {
    // 10 cm voxels: (0.01, 0, 0) and (0.09, 0.05, 0.02) share cell (0, 0, 0);
    // (−0.01, 0, 0) is in cell (−1, 0, 0); NaN is never kept.
    var merge = IngestMerge(voxelSizeMeters: 0.1)
    let first = try merge.thin(
      Self.points([
        Point3(0.01, 0, 0), Point3(-0.01, 0, 0), Point3(0.09, 0.05, 0.02), Point3(.nan, 0, 0),
      ]))
    #expect(first.positions == [Point3(0.01, 0, 0), Point3(-0.01, 0, 0)])
    #expect(first.colors == [RGB8(0, 0, 0), RGB8(1, 0, 0)])
    // A later frame adds only what falls in new voxels.
    let second = try merge.thin(Self.points([Point3(0.05, 0.05, 0.05), Point3(0.15, 0, 0)]))
    #expect(second.positions == [Point3(0.15, 0, 0)])
    #expect(merge.pointsSeen == 6)
    #expect(merge.pointsKept == 3)
  }

  @Test func aMergedLoadKeepsOnePointAVoxelInFrameOrder() throws {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 8, depthWidth: 64, depthHeight: 48, colorWidth: 64, colorHeight: 48,
        depthNoiseMeters: 0.002))
    let raw = try RecordingLoader(source: source).load()
    let merged = try RecordingLoader(source: source, ingestMergeMeters: 0.05).load()
    #expect(merged.frameIndices == raw.frameIndices)
    // Worked out independently: walk the raw points in order, keeping a set of cells.
    var cells = Set<[Double]>()
    var expected: [Point3] = []
    for p in raw.positions {
      let cell = [p.x, p.y, p.z].map { (Double($0) / Double(Float(0.05))).rounded(.down) }
      if cells.insert(cell).inserted { expected.append(p) }
    }
    #expect(merged.positions == expected)
    #expect(merged.count < raw.count * 3 / 4)
    // Each frame's kept points are a contiguous range, in frame order.
    for k in 0..<merged.frameCount {
      #expect(merged.frameRanges[k] <= merged.frameRanges[k + 1])
    }
  }

  @Test func theViewerMergesOnlyWhatWouldNotFit() {
    let gb = 1 << 30
    // 240 frames of 256 × 192: 11.8 M points, 566 MB: every point.
    let desk = ViewerMemoryPlan(
      choice: .automatic, frames: 240, depthWidth: 256, depthHeight: 192, budgetBytes: 2 * gb)
    #expect(desk.mergeMeters == nil)
    #expect(desk.note == nil)
    #expect(desk.rawBytes == 240 * 256 * 192 * 50)
    // 36 000 frames: 88 GB at 50 B a point; merged at 5 mm, and said; a merged point
    // also costs its voxel index, at most 128 B.
    let long = ViewerMemoryPlan(
      choice: .automatic, frames: 36_000, depthWidth: 256, depthHeight: 192, budgetBytes: 2 * gb)
    #expect(long.mergeMeters == 0.005)
    #expect(long.note?.contains("88.5 GB") == true)
    #expect(long.pointLimit == 2 * gb / (50 + 128))
    // Sizes no recording has (a hostile header) cannot overflow the estimate.
    let huge = ViewerMemoryPlan(
      choice: .automatic, frames: 1 << 40, depthWidth: 1 << 40, depthHeight: 9, budgetBytes: gb)
    #expect(huge.rawBytes == Int.max)
    #expect(huge.mergeMeters == 0.005)
    #expect(
      ViewerMemoryPlan(choice: .off, frames: 36_000, depthWidth: 256, depthHeight: 192).mergeMeters
        == nil)
    #expect(
      ViewerMemoryPlan(choice: .voxel(meters: 0.01), frames: 1, depthWidth: 1, depthHeight: 1)
        .mergeMeters == 0.01)
  }

  @Test func aLoadPastThePointLimitStopsWithAMessage() throws {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 30, depthWidth: 32, depthHeight: 24, colorWidth: 32, colorHeight: 24))
    // The limit is passed within the frame where the running count first exceeds it.
    let counts = try RecordingLoader(source: source).load().frameRanges
    let stop = try #require(counts.firstIndex { $0 > 2_000 }) - 1
    #expect(stop > 1 && stop < 29)
    let memory = ViewerMemoryPlan(
      choice: .off, frames: 30, depthWidth: 32, depthHeight: 24, budgetBytes: 2_000 * 49)
    let load = StreamingLoad(recording: RecordingLoader(source: source), memory: memory)
    #expect(load.waitUntilStopped(timeout: 60))
    guard case .failed(let message) = load.status else {
      Issue.record("the load did not stop at the limit: \(load.status)")
      return
    }
    #expect(message.contains("stopped loading at frame \(stop)"))
    #expect(message.contains("--merge"))
    let frames = load.take()
    #expect(frames.count == stop)
    #expect(frames.reduce(0) { $0 + $1.points.count } <= 2_000)
  }
}
