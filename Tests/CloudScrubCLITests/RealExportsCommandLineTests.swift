import CloudScrubCore
import Foundation
import TestSupport
import Testing

/// The real `cloudscrub` binary on the real exports in `../shared/data`.
@Suite(.enabled(if: TestData.sharedData != nil))
struct RealExportsCommandLineTests {
  let data: URL

  init() throws { data = try #require(TestData.sharedData) }

  @Test func infoOfTheExportWithGapsCountsEveryFrameAndNamesTheMissing() throws {
    let result = try CommandRunner.run(["info", "--json", "record3d-exr-door-gaps"], in: data)
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["frames"] as? Int == 341)
    let notes = try #require(object["notes"] as? [String])
    #expect(notes.contains { $0.contains("frame numbers 60, 234, 262, 302") })
  }
}
