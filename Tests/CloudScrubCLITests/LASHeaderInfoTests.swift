import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `info --read header` describes a LAS or LAZ file from its header and VLRs: the same
/// count, bounds and fields that reading every point finds, without reading one.
@Suite struct LASHeaderInfoTests {
  private func json(_ arguments: [String]) throws -> [String: Any] {
    let result = try CommandRunner.run(["info"] + arguments + ["--json"])
    #expect(result.status == 0, "\(result.standardError)")
    return try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
  }

  /// A three-frame synthetic capture exported with its attributes and normals.
  private func exported(_ format: String, in folder: URL) throws -> String {
    let recording = folder.appendingPathComponent("scan.csrec").path
    #expect(try CommandRunner.run(["synth", recording, "--frames", "3"]).status == 0)
    let output = folder.appendingPathComponent("scan." + format).path
    let export = try CommandRunner.run([
      "export", recording, "-o", output, "--attributes", "all", "--normals",
    ])
    #expect(export.status == 0, "\(export.standardError)")
    return output
  }

  @Test(arguments: ["las", "laz"])
  func theHeaderSaysWhatReadingEveryPointFinds(_ format: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try exported(format, in: folder)
    let read = try json([path, "--read", "points"])
    let header = try json([path, "--read", "header"])
    #expect(read["points_read"] == nil)
    #expect(header["points_read"] as? Bool == false)
    let count = try #require(read["points"] as? Int)
    #expect(count > 100_000)
    #expect(header["points"] as? Int == count)
    // The header declares intensity, which every LAS format has; reading lists it only
    // when a point has one, and these have none.
    let readFields = try #require(read["fields"] as? [String])
    let headerFields = try #require(header["fields"] as? [String])
    #expect(readFields == ["position", "color", "normal", "confidence (uchar)", "frame (uint)"])
    #expect(headerFields.filter { $0 != "intensity (ushort)" } == readFields)
    #expect(headerFields.contains("intensity (ushort)"))
    // The writer stated the points' bounds: within a millimetre (its scale) of theirs.
    let readBounds = try #require(read["bounds"] as? [String: [Double]])
    let headerBounds = try #require(header["bounds"] as? [String: [Double]])
    for key in ["min", "max"] {
      let (a, b) = (try #require(readBounds[key]), try #require(headerBounds[key]))
      #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 0.001 }, "\(key): \(a) against \(b)")
    }
    // A small file is read whole by default.
    #expect(try json([path])["points_read"] == nil)
    let text = try CommandRunner.run(["info", path, "--read", "header"]).standardOutput
    #expect(text.contains("\(count) (") && text.contains("not read: --read points reads them"))
    #expect(text.contains("the points carry 'frame'"), "\(text)")
  }

  @Test func aShortLASFileCountsItsCompleteRecords() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try exported("las", in: folder)
    let full = try #require(try json([path, "--read", "points"])["points"] as? Int)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let recordLength = Int(bytes[105]) | Int(bytes[106]) << 8
    // Cut one and a half records off the end: one complete record fewer, then half of one.
    let short = folder.appendingPathComponent("short.las").path
    try bytes.prefix(bytes.count - recordLength * 3 / 2).write(to: URL(fileURLWithPath: short))
    let header = try json([short, "--read", "header"])
    #expect(header["points"] as? Int == full - 2)
    let comments = try #require(header["comments"] as? [String])
    #expect(comments.contains { $0.hasPrefix("the file holds \(full - 2) of the \(full) points") })
    #expect(try json([short, "--read", "points"])["points"] as? Int == full - 2)
  }

  @Test func readTakesOneOfItsThreeValuesAndLeavesOtherFilesAlone() throws {
    let bad = try CommandRunner.run(["info", TestData.samplePLY, "--read", "some"])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("--read takes points, header or auto, not 'some'"))
    let ply = try json([TestData.samplePLY, "--read", "header"])
    #expect(ply["points_read"] == nil)
    #expect(ply["format"] as? String == "ply")
  }
}
