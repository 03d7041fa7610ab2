import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// The real export in `../shared/data/record3d-exr-door-gaps`: 341 depth/colour pairs
/// for 345 poses, files 60, 234, 262 and 302 missing as in the app's own export.
@Suite(.enabled(if: TestData.sharedData != nil))
struct Record3DGapsTests {
  let folder: String
  let recording: Record3DEXRRecording
  /// `metadata.json` read here, independently of the importer.
  let json: [String: Any]

  init() throws {
    folder = try #require(TestData.shared("record3d-exr-door-gaps"))
    recording = try Record3DEXRRecording(folder: folder)
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/metadata.json"))
    json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func keepsAll341FramesAndNamesTheFourMissing() throws {
    #expect(recording.frameCount == 341)
    #expect(recording.missingFileNumbers == [60, 234, 262, 302])
    let expected = (0..<345).filter { ![60, 234, 262, 302].contains($0) }
    #expect(recording.fileNumbers == expected)
    #expect(
      recording.description.notes.contains(
        "4 poses without a depth file, left out: frame numbers 60, 234, 262, 302 "
          + "(no depth/60.exr …)"))
  }

  @Test func framesAfterAGapKeepTheirFileNumbersPoseAndTime() throws {
    let times = try #require(json["frameTimestamps"] as? [Double])
    let poses = try #require(json["poses"] as? [[Double]])
    // Index 60 is file 61; index 299 is file 303 (four gaps before it).
    for (index, number) in [(59, 59), (60, 61), (232, 233), (233, 235), (299, 303), (340, 344)] {
      let info = try recording.frameInfo(at: index)
      #expect(info.timestampSeconds == times[number])
      let row = poses[number]
      #expect(info.pose.position == SIMD3(row[4], row[5], row[6]))
    }
    let frame = try recording.frame(at: 299)
    #expect(frame.depth.width == 192 && frame.depth.height == 256)
    #expect(frame.timestampSeconds == times[303])
    // The colour is the file's own JPEG, not its neighbour's.
    let jpeg = try Data(contentsOf: URL(fileURLWithPath: folder + "/rgb/303.jpg"))
    let sameBytes = frame.color == .jpeg(Array(jpeg))
    #expect(sameBytes)
  }
}
