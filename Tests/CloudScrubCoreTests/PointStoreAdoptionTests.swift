import Testing

@testable import CloudScrubCore

/// A whole cloud arriving as one frame goes into an empty store without a copy of its
/// columns; every other append copies, and a frame never sees later appends.
@Suite struct PointStoreAdoptionTests {
  static func frame(_ count: Int, first: Int) -> FramePoints {
    var points = FramePoints()
    for k in first..<first + count {
      points.positions.append(Point3(Float(k), 1, 2))
      points.colors.append(RGB8(UInt8(truncatingIfNeeded: k), 2, 3))
      points.confidence.append(UInt8(k % 3))
    }
    return points
  }

  static func address(_ positions: [Point3]) -> UnsafeRawPointer? {
    positions.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  @Test func theFirstWholeFrameOfAStoreIsTakenAsItIs() {
    let points = Self.frame(1_000, first: 0)
    var store = PointStore()
    store.append(points, frameIndex: 7)
    #expect(Self.address(store.positions) == Self.address(points.positions))
    #expect(store.colors == points.colors && store.confidence == points.confidence)
    #expect(store.frameRanges == [0, 1_000] && store.frameIndices == [7])
    #expect(store.pointRange(ofAppendedFrames: 0...0) == 0..<1_000)

    // More points copy the shared columns first: the frame keeps its own.
    store.append(Self.frame(3, first: 1_000), frameIndex: 8)
    #expect(store.count == 1_003 && points.count == 1_000)
    #expect(store.positions[1_002] == Point3(1_002, 1, 2))
    #expect(store.confidence[1_001] == 1_001 % 3)
    #expect(store.frameRanges == [0, 1_000, 1_003] && store.frameIndices == [7, 8])
    #expect(Self.address(store.positions) != Self.address(points.positions))
  }

  @Test func aStoreWithRoomReservedOrAFrameWithMissingColumnsIsCopied() {
    let points = Self.frame(100, first: 0)
    var reserved = PointStore()
    reserved.reserveCapacity(estimatedPoints: 1_000)
    reserved.append(points, frameIndex: 0)
    #expect(Self.address(reserved.positions) != Self.address(points.positions))
    #expect(reserved.positions == points.positions && reserved.colors == points.colors)

    var bare = FramePoints()
    bare.positions = points.positions
    var store = PointStore()
    store.append(bare, frameIndex: 0)
    #expect(store.colors == Array(repeating: FramePoints.noColor, count: 100))
    #expect(store.confidence == Array(repeating: FramePoints.unknownConfidence, count: 100))
  }
}
