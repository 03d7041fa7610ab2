import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubApp

/// The window's cleaning preview keeps each point's frame: on a synthetic recording,
/// the cleaned points are grouped by the timeline position of the frame they came
/// from, which is what colouring by frame or alignment error draws them by
/// (`PreviewFrameColourTests` checks the pictures).
@Suite struct WindowPreviewFramesTests {
  @Test func previewPointsKeepTheFrameTheyCameFrom() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("small.csrec").path
    let synth = try CommandRunner.run(["synth", recording, "--frames", "6", "--noise", "0.002"])
    try #require(synth.status == 0, "\(synth.standardError)")
    let (_, content) = try WindowExportTests.openAndLoad(recording)
    let store = content.store
    try #require(store.frameCount == 6)

    // Where each original point is: the timeline positions of the frames holding it.
    var framesAt: [Point3: Set<Int>] = [:]
    for k in 0..<store.frameCount {
      for index in store.frameRanges[k]..<store.frameRanges[k + 1] {
        framesAt[store.positions[index], default: []].insert(k)
      }
    }
    // Statistical outlier removal keeps points where they were.
    let options = CleaningOptions(
      statistical: StatisticalOutlierOptions(neighbours: 8, stdRatio: 1))
    let cleaned = try CleaningPipeline.run(store.cloud(), options: options).cloud
    try #require(cleaned.count < store.count && cleaned.count > store.count / 2)

    let preview = CleaningPreview.previewStore(cleaned, timeline: content.frameIndices)
    #expect(preview.count == cleaned.count)
    #expect(preview.frameIndices == Array(0..<6), "one group a frame, named by position")
    var misplaced = 0
    for k in 0..<preview.frameCount {
      for index in preview.frameRanges[k]..<preview.frameRanges[k + 1]
      where framesAt[preview.positions[index]]?.contains(k) != true {
        misplaced += 1
      }
    }
    #expect(misplaced == 0, "\(misplaced) preview points are not in the frame they came from")
    // Confidence goes along with each point.
    #expect(Set(preview.confidence).isSubset(of: Set(store.confidence)))
    #expect(Set(preview.confidence).count > 1)
  }

  @Test func recordingFrameIndicesMapToTimelinePositions() {
    // Recording frames 3, 5 and 7 are timeline positions 0, 1 and 2.
    let cloud = PointCloud(
      positions: [Point3(0, 0, 0), Point3(1, 0, 0), Point3(2, 0, 0), Point3(3, 0, 0)],
      colors: nil,
      attributes: [
        PointAttribute(name: "frame", values: .uint32([7, 3, 7, 5])),
        PointAttribute(name: "confidence", values: .uint8([2, 1, 0, 2])),
      ])
    let preview = CleaningPreview.previewStore(cloud, timeline: [3, 5, 7])
    #expect(preview.frameIndices == [0, 1, 2])
    #expect(preview.frameRanges == [0, 1, 2, 4])
    #expect(preview.positions.map(\.x) == [1, 3, 0, 2])
    #expect(preview.confidence == [1, 2, 2, 0])
  }
}
