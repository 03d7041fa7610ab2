import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// A scan's intensity levels travel with its points: into the store (padded when only
/// some frames have them), through the level of detail's nodes, and to the GPU after
/// the points of each chunk.
@Suite struct IntensityColumnTests {
  static func frame(_ count: Int, first: Int, levels: Bool) -> FramePoints {
    var points = FramePoints()
    for k in first..<first + count {
      points.positions.append(Point3(Float(k), Float(k % 7), 0))
      points.colors.append(RGB8(1, 2, 3))
      points.confidence.append(FramePoints.unknownConfidence)
      if levels { points.intensity.append(UInt8(truncatingIfNeeded: k * 10)) }
    }
    return points
  }

  @Test func theStoreKeepsALevelForEveryPointOnceAnyHasOne() {
    var store = PointStore()
    store.append(Self.frame(2, first: 0, levels: false), frameIndex: 0)
    #expect(!store.hasIntensity && store.storageByteCount == 2 * 16)
    store.append(Self.frame(3, first: 2, levels: true), frameIndex: 1)
    #expect(store.intensity == [0, 0, 20, 30, 40])
    store.append(Self.frame(1, first: 5, levels: false), frameIndex: 2)
    #expect(store.intensity == [0, 0, 20, 30, 40, 0])
    #expect(store.storageByteCount == 6 * 17)
    // Shorter colour and confidence columns are filled, as a sorted piece's are.
    var bare = FramePoints()
    bare.positions = [Point3(9, 9, 9)]
    store.append(bare, frameIndex: 3)
    #expect(store.colors.last == FramePoints.noColor)
    #expect(store.confidence.last == FramePoints.unknownConfidence)
    #expect(store.intensity.count == 7 && store.intensity.last == FramePoints.noIntensity)
  }

  @Test func theOctreesNodesKeepEachPointsLevel() {
    var store = PointStore()
    store.append(Self.frame(500, first: 0, levels: true), frameIndex: 0)
    store.append(Self.frame(500, first: 500, levels: true), frameIndex: 1)
    let octree = PointOctree(
      store: store, options: PointOctree.Options(gridResolution: 4, leafCapacity: 64))
    #expect(octree.nodes.count > 2)
    var seen = 0
    for node in octree.nodes {
      let points = node.points
      #expect(points.intensity.count == points.count)
      for i in 0..<points.count {
        // Point k sits at x = k and has level k × 10 (mod 256).
        #expect(points.intensity[i] == UInt8(truncatingIfNeeded: Int(points.positions[i].x) * 10))
      }
      seen += points.count
    }
    #expect(seen == 1000)
  }

  @Test func chunksHoldTheLevelsAfterThePoints() throws {
    let backend = RecordingRenderBackend()
    let mirror = PointBufferMirror(backend: backend, firstChunkCapacity: 4, largestChunkCapacity: 4)
    var store = PointStore()
    store.append(Self.frame(3, first: 0, levels: false), frameIndex: 0)
    try mirror.sync(with: store)
    #expect(backend.chunkIntensity.isEmpty && !mirror.holdsIntensity)
    #expect(mirror.residentBytes == 4 * 16)
    // Levels arrive: the mirror starts again, with them.
    store.append(Self.frame(3, first: 3, levels: true), frameIndex: 1)
    try mirror.sync(with: store)
    #expect(mirror.holdsIntensity && mirror.uploadedPoints == 6)
    #expect(mirror.chunks.count == 2 && mirror.residentBytes == 8 * 17)
    let uploaded = mirror.chunks.flatMap { backend.chunkIntensity[$0.id] ?? [] }
    #expect(uploaded == [0, 0, 0, 30, 40, 50])
    #expect(backend.events.contains(.releaseChunks([PointChunkID(0)])))
  }
}
