import Foundation
import Testing

@testable import CloudScrubCore

/// An octree of 1 + 4 + 16 nodes of 100 points each; every point of node n lies at
/// x = n, coloured (n, 0, 0), or without colour with intensities 0…99.
struct FakeOctree: OctreeNodeSource {
  var colored = true
  var failing: Int? = nil
  let nodes: [OctreeNode] =
    [OctreeNode(level: 0, points: 100)]
    + (0..<4).map { _ in OctreeNode(level: 1, points: 100) }
    + (0..<16).map { _ in OctreeNode(level: 2, points: 100) }

  struct Failure: Error, CustomStringConvertible {
    var description: String { "node 3 cannot be read" }
  }

  func read(node index: Int) throws -> OctreeNode.Points {
    if index == failing { throw Failure() }
    var points = FramePoints()
    points.positions = (0..<100).map { Point3(Float(index), Float($0), 0) }
    guard colored else {
      return OctreeNode.Points(points: points, intensity: (0..<100).map { UInt16($0) })
    }
    points.colors = Array(repeating: RGB8(UInt8(index), 0, 0), count: 100)
    return OctreeNode.Points(points: points)
  }
}

@Suite struct OctreeLevelLoadTests {
  /// Node of every point delivered, in delivery order, and the pieces' kinds.
  static func delivered(_ load: OctreeLevelLoad) throws -> (nodes: [Int], frames: [LoadedFrame]) {
    let frames = try #require(load.start().takeUntilStopped(timeout: 60))
    return (frames.flatMap { $0.points.positions.map { Int($0.x) } }, frames)
  }

  @Test func everyLevelIsReadRootFirstWhenItFits() throws {
    var load = OctreeLevelLoad(source: FakeOctree(), pointLimit: 10_000)
    load.piecePoints = 250
    #expect(load.levelsRead == 3 && load.levels == 3)
    #expect(load.pointsRead == 2100 && load.note == nil)
    let (nodes, frames) = try Self.delivered(load)
    // Root alone, then whole nodes until a piece holds 250 points or more.
    #expect(frames.map(\.points.count) == [100, 300, 300, 300, 300, 300, 300, 200])
    #expect(frames.first?.piece == .first)
    #expect(frames.dropFirst().allSatisfy { $0.piece == .more })
    #expect(nodes == (0..<21).flatMap { Array(repeating: $0, count: 100) })
    #expect(frames[0].points.colors.allSatisfy { $0 == RGB8(0, 0, 0) })
    #expect(frames.last?.points.colors.last == RGB8(20, 0, 0))
  }

  @Test func levelsThatWouldPassTheLimitAreLeftOut() throws {
    let load = OctreeLevelLoad(source: FakeOctree(), pointLimit: 2099)
    #expect(load.levelsRead == 2 && load.pointsRead == 500)
    #expect(
      load.note
        == "levels 0–1 of the octree's 3 read, 500 of 2100 points: the finer levels would pass the viewer's memory budget"
    )
    let (nodes, _) = try Self.delivered(load)
    #expect(nodes == (0..<5).flatMap { Array(repeating: $0, count: 100) })
  }

  @Test func aRootTooLargeForTheLimitIsStillRead() throws {
    let load = OctreeLevelLoad(source: FakeOctree(), pointLimit: 50)
    #expect(load.levelsRead == 1 && load.pointsRead == 100)
    #expect(load.note?.hasPrefix("level 0 of the octree's 3 read, 100 of 2100 points") == true)
    let (nodes, frames) = try Self.delivered(load)
    #expect(nodes.count == 100 && frames.count == 1 && frames[0].piece == .whole)
  }

  @Test func pointsWithoutColourAreGreyedByTheRootsIntensities() throws {
    let load = OctreeLevelLoad(source: FakeOctree(colored: false), pointLimit: 10_000)
    let (_, frames) = try Self.delivered(load)
    #expect(frames.allSatisfy { $0.colorsFromIntensity })
    // The root's intensities 0…99: the 1st percentile is 0.99 → index 0 (0), the 99th
    // index 98 (98); 49 is grey 255 × 49 / 98 = 127.5, rounded to 128.
    let greys = frames[0].points.colors
    #expect(greys[0] == RGB8(0, 0, 0) && greys[98] == RGB8(255, 255, 255))
    #expect(greys[49] == RGB8(128, 128, 128) && greys[99] == RGB8(255, 255, 255))
    #expect(frames.last?.points.colors.last == RGB8(255, 255, 255))
  }

  @Test func aNodeThatCannotBeReadStopsTheLoadAfterTheLevelsBefore() throws {
    var load = OctreeLevelLoad(source: FakeOctree(failing: 3), pointLimit: 10_000)
    load.piecePoints = 100
    let started = load.start()
    let frames = try #require(started.takeUntilStopped(timeout: 60))
    // The root and nodes 1 and 2 came; node 3's piece failed.
    #expect(frames.map(\.points.count) == [100, 100, 100])
    #expect(started.status == .failed("node 3 cannot be read"))
  }

  @Test func aCancelledLoadDeliversNothingMore() throws {
    let reached = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    var load = OctreeLevelLoad(source: FakeOctree(), pointLimit: 10_000)
    load.piecePoints = 100
    load.beforePiece = { piece in
      if piece == 2 {
        reached.signal()
        _ = proceed.wait(timeout: .now() + 60)
      }
    }
    let started = load.start()
    #expect(reached.wait(timeout: .now() + 60) == .success)
    // Pieces 0 and 1 (the root, then node 1) came before the load reached piece 2.
    #expect(started.take().map(\.points.count) == [100, 100])
    started.cancel()
    proceed.signal()
    #expect(started.waitUntilStopped(timeout: 60))
    #expect(started.take().isEmpty)
    #expect(started.status == .cancelled)
  }
}
