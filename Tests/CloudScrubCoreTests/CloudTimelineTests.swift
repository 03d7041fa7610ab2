import Testing

@testable import CloudScrubCore

/// A cloud whose points carry a `frame` attribute opens as frames again.
@Suite struct CloudTimelineTests {
  let cloud = PointCloud(
    positions: [
      Point3(0, 0, 0), Point3(1, 0, 0), Point3(2, 0, 0), Point3(3, 0, 0), Point3(4, 0, 0),
    ],
    colors: [RGB8(0, 0, 0), RGB8(1, 1, 1), RGB8(2, 2, 2), RGB8(3, 3, 3), RGB8(4, 4, 4)],
    attributes: [
      PointAttribute(name: "frame", values: .uint32([5, 2, 5, 9, 2])),
      PointAttribute(name: "confidence", values: .uint8([0, 1, 2, 2, 1])),
    ])

  @Test func pointsAreGroupedByFrameValueInAscendingOrder() {
    let frames = CloudTimeline.frames(of: cloud)
    #expect(frames.map(\.frameIndex) == [2, 5, 9])
    let expectedTimes: [Double] = [2.0 / 30, 5.0 / 30, 9.0 / 30]
    #expect(frames.map(\.timestampSeconds) == expectedTimes)
    #expect(frames[0].points.positions == [Point3(1, 0, 0), Point3(4, 0, 0)])
    #expect(frames[1].points.positions == [Point3(0, 0, 0), Point3(2, 0, 0)])
    #expect(frames[1].points.colors == [RGB8(0, 0, 0), RGB8(2, 2, 2)])
    #expect(frames[1].points.confidence == [0, 2])
    #expect(frames[2].points.positions == [Point3(3, 0, 0)])
  }

  @Test func streamingLoadOfATimelineCloudMakesAScrubbableTimeline() {
    let load = StreamingLoad(cloud: cloud)
    #expect(load.status == .finished(frames: 3))
    var content = ViewerContent()
    var state = ViewerState()
    for command in content.absorb(load.take()) { state.apply(command) }
    #expect(content.frameIndices == [2, 5, 9])
    #expect(content.store.frameRanges == [0, 2, 4, 5])
    #expect(state.playback.loadedFrameCount == 3)
    state.apply(.playback(.seek(frame: 0)))
    #expect(state.drawRange(frameRanges: content.store.frameRanges) == 0..<2)
  }

  @Test func cloudsWithoutWholeFrameNumbersAreOneFrame() {
    var fractional = cloud
    fractional.attributes[0] = PointAttribute(name: "frame", values: .float32([0, 0.5, 1, 1, 2]))
    #expect(CloudTimeline.frameValues(of: fractional) == nil)
    #expect(CloudTimeline.frames(of: fractional).count == 1)
    var negative = cloud
    negative.attributes[0] = PointAttribute(name: "frame", values: .int32([0, -1, 1, 1, 2]))
    #expect(CloudTimeline.frames(of: negative).count == 1)
    let plain = PointCloud(positions: cloud.positions)
    let frames = CloudTimeline.frames(of: plain)
    #expect(frames.count == 1 && frames[0].points.positions == cloud.positions)
  }
}
