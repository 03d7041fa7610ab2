import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// The level of detail grown on its own worker thread (`LevelOfDetailBuilder`), as the
/// window grows it: every point in exactly once, frame order kept in every node, and a
/// close that stops the worker before its next step. No test here depends on timing:
/// each waits for the worker's state, with a generous timeout as a guard.
@Suite struct LevelOfDetailBuilderTests {
  /// Frames of the synthetic store as the loader delivers them.
  static func frames(of store: PointStore) -> [LoadedFrame] {
    (0..<store.frameCount).map { k in
      let range = store.pointRange(ofAppendedFrames: k...k)
      var points = FramePoints()
      points.positions = Array(store.positions[range])
      points.colors = Array(store.colors[range])
      points.confidence = Array(store.confidence[range])
      return LoadedFrame(frameIndex: k, timestampSeconds: Double(k), info: nil, points: points)
    }
  }

  @Test func aRecordingGoesInWholeFrameByFrameOnTheWorker() throws {
    let store = try PointOctreeTests.syntheticStore(frames: 8)
    var frames = Self.frames(of: store)
    // An empty frame in the middle still counts as a frame.
    frames.insert(
      LoadedFrame(frameIndex: 0, timestampSeconds: 3.5, info: nil, points: FramePoints()), at: 4)
    for position in frames.indices { frames[position].frameIndex = 10 * position }
    // Steps of 500 points: every frame (about 3,000 points) goes in as several shares.
    let builder = LevelOfDetailBuilder(stepPoints: 500)
    var content = ViewerContent(levelOfDetail: true, builder: builder)
    for frame in frames { _ = content.absorb([frame]) }
    #expect(builder.waitUntilIdle(timeout: 120))
    #expect(content.levelOfDetailIsComplete)
    #expect(builder.pendingPoints == 0)
    let checked = content.withLevelOfDetail { tree in
      #expect(tree.count == store.count)
      #expect(tree.frameCount == 9)
      // Each frame's points, gathered from every node's range of that frame, are the
      // frame's own, once each.
      for position in 0..<9 {
        let original = position < 4 ? position : position - 1
        var ids: [Int] = []
        for node in tree.nodes {
          let range = node.pointRange(ofFrames: position...position)
          ids += range.map { PointOctreeTests.id(node.points, $0) }
        }
        let expected =
          position == 4 ? [] : Array(store.pointRange(ofAppendedFrames: original...original))
        #expect(ids.sorted() == expected, "frame \(position)")
      }
      return true
    }
    #expect(checked == true)
    content.stopLevelOfDetail()
    #expect(builder.waitUntilStopped(timeout: 60))
  }

  @Test func aSampledLoadEndsWithEveryPointOnceOnTheWorker() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try PointRecordFile.write(count: 1000, in: folder)
    let records = try PointRecordFile(path: path)
    let load = SampledCloudLoad(sampler: records, samplePoints: 64, chunkRecords: 100).start()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .finished(frames: 1))
    // Steps of 37 points: the sample in two shares, each chunk in three slices.
    let content = try #require(ViewerContent.absorbingAll(of: load, stepPoints: 37))
    #expect(content.levelOfDetailIsComplete)
    #expect(content.store.count == 1000)
    var keys: [[UInt32]] = []
    let frames = content.withLevelOfDetail { tree in
      for node in tree.nodes {
        for index in 0..<node.points.count {
          keys.append(Self.key(node.points.positions[index], node.points.colors[index]))
        }
      }
      return tree.frameCount
    }
    #expect(frames == 1)
    let expected = (0..<1000).map { PointRecordFile.point($0) }.map { Self.key($0.0, $0.1) }
    #expect(
      keys.sorted { $0.lexicographicallyPrecedes($1) }
        == expected.sorted { $0.lexicographicallyPrecedes($1) })
  }

  /// A point as comparable numbers: position bits and colour.
  private static func key(_ p: Point3, _ c: RGB8) -> [UInt32] {
    [
      p.x.bitPattern, p.y.bitPattern, p.z.bitPattern,
      UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b),
    ]
  }

  @Test func closingStopsTheWorkerBeforeItsNextStep() throws {
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let builder = LevelOfDetailBuilder(stepPoints: 100) { step in
      guard step == 1 else { return }
      reached.signal()
      release.wait()
    }
    var content = ViewerContent(levelOfDetail: true, builder: builder)
    let store = try PointOctreeTests.syntheticStore(frames: 2)
    _ = content.absorb(Self.frames(of: store))
    // Step 0 is in; the worker waits before step 1.
    #expect(reached.wait(timeout: .now() + 60) == .success)
    content.stopLevelOfDetail()
    release.signal()
    #expect(builder.waitUntilStopped(timeout: 60))
    // Step 0 was frame 0's first share: every stride-th point, stride ⌈n / 100⌉.
    let first = store.pointRange(ofAppendedFrames: 0...0).count
    let share = (first + (first + 99) / 100 - 1) / ((first + 99) / 100)
    #expect(builder.count == share)
    #expect(builder.pendingPoints == 0)
    #expect(!content.levelOfDetailIsComplete)
    // Submitting after the close does nothing.
    let later = Self.frames(of: store).map { frame in
      var moved = frame
      moved.frameIndex += 100
      return moved
    }
    _ = content.absorb(later)
    #expect(builder.pendingPoints == 0)
    #expect(content.withLevelOfDetail { $0.count } == share)
  }

  @Test func theLastCopyOfTheContentGoingAwayStopsTheWorker() throws {
    let builder = LevelOfDetailBuilder(stepPoints: 1 << 20)
    do {
      var content = ViewerContent(levelOfDetail: true, builder: builder)
      _ = content.absorb(Self.frames(of: try PointOctreeTests.syntheticStore(frames: 1)))
      #expect(builder.waitUntilIdle(timeout: 60))
    }
    #expect(builder.waitUntilStopped(timeout: 60))
  }
}
