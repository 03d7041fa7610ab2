import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// The real `cloudscrub` binary, run as a user would.
@Suite struct CommandLineTests {
  @Test func infoJSONOfTheSampleMatchesTheGoldenFile() throws {
    let result = try CommandRunner.run(["info", "Assets/sample.ply", "--json"])
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    Golden.check(result.standardOutput, against: "sample-info.json")
    // The figures in the golden file, checked against the scene's definition too.
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["points"] as? Int == 40_000)
    let bounds = try #require(object["bounds"] as? [String: [Double]])
    #expect(bounds["min"] == [-2, 0, -2])
    let maximum = try #require(bounds["max"])
    #expect(maximum[0] < 2 && maximum[0] > 1.99)
    #expect(maximum[1] < 2.5 && maximum[1] > 2.49)
  }

  @Test func infoTextOfTheSampleMatchesTheGoldenFile() throws {
    let result = try CommandRunner.run(["info", "Assets/sample.ply"])
    #expect(result.status == 0)
    Golden.check(result.standardOutput, against: "sample-info.txt")
  }

  @Test(.enabled(if: TestData.sharedData != nil, "needs ../shared/data"))
  func infoJSONOfASharedMeshMatchesTheGoldenFile() throws {
    let path = try #require(TestData.shared("ply/mikedh+trimesh/models/fixed_top.ply"))
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let result = try CommandRunner.run(["info", "--json", "fixed_top.ply"], in: folder)
    #expect(result.status == 0)
    Golden.check(result.standardOutput, against: "fixed_top-info.json")
  }

  @Test(.enabled(if: TestData.sharedData != nil, "needs ../shared/data"))
  func infoJSONOfTheRealRecordingMatchesTheGoldenFile() throws {
    let path = try #require(TestData.shared("record3d-exr-desk"))
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let result = try CommandRunner.run(["info", "--json", "record3d-exr-desk"], in: folder)
    #expect(result.status == 0, "\(result.standardError)")
    Golden.check(result.standardOutput, against: "record3d-exr-desk-info.json")
    // Checked against metadata.json by hand: 240 frames at 60 fps, K column-major
    // (fx = K[0], cx = K[6]) for the 1440×1920 colour images.
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["frames"] as? Int == 240)
    #expect(object["fps"] as? Double == 60)
    #expect((object["depth"] as? [String: Int]) == ["width": 192, "height": 256])
    #expect((object["color"] as? [String: Int]) == ["width": 1440, "height": 1920])
  }

  @Test func exportWritesWhatReadsBackEqual() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let binary = folder.appendingPathComponent("out.ply").path
    let ascii = folder.appendingPathComponent("out-ascii.ply").path
    #expect(try CommandRunner.run(["export", "Assets/sample.ply", "-o", binary]).status == 0)
    #expect(
      try CommandRunner.run(["export", "Assets/sample.ply", "--output=\(ascii)", "--ascii"]).status
        == 0)
    let original = try PLYReader.read(path: TestData.samplePLY).cloud
    let fromBinary = try PLYReader.read(path: binary)
    let fromASCII = try PLYReader.read(path: ascii)
    #expect(fromBinary.cloud == original)
    #expect(fromASCII.cloud == original)
    #expect(fromBinary.header.format == .binaryLittleEndian)
    #expect(fromASCII.header.format == .ascii)
    #expect(fromBinary.header.comments == ["exported by CloudScrub from sample.ply"])
    // Nothing but the two exports is left in the folder: no temporary files.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(names == ["out-ascii.ply", "out.ply"])
  }

  @Test func exportWithAttributesKeepsThem() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("source.ply").path
    let output = folder.appendingPathComponent("out.ply").path
    let cloud = Clouds.random(count: 50, seed: 5)
    try PLYWriter.write(cloud, to: source, options: PLYWriteOptions(attributes: .all))
    let result = try CommandRunner.run(
      ["export", source, "-o", output, "--attributes", "normal,confidence"])
    #expect(result.status == 0)
    let back = try PLYReader.read(path: output).cloud
    #expect(back.normals == cloud.normals)
    #expect(back.attributes.map(\.name) == ["confidence"])
    #expect(back.attribute(named: "confidence") == cloud.attribute(named: "confidence"))
  }

  @Test func exportRefusesToOverwriteItsInput() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("source.ply")
    try FileManager.default.copyItem(atPath: TestData.samplePLY, toPath: source.path)
    let before = try Data(contentsOf: source)
    let link = folder.appendingPathComponent("link.ply")
    try FileManager.default.linkItem(at: source, to: link)
    for target in [source.path, link.path] {
      let result = try CommandRunner.run(["export", source.path, "-o", target])
      #expect(result.status == 1)
      #expect(result.standardError.contains("refusing to write over an input file"))
    }
    #expect(try Data(contentsOf: source) == before)
  }

  @Test func badInputExitsOneAndNamesTheProblemAndPath() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let truncated = folder.appendingPathComponent("truncated.ply")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: TestData.samplePLY))
    try bytes.prefix(bytes.count - 100).write(to: truncated)
    let output = folder.appendingPathComponent("out.ply").path
    let result = try CommandRunner.run(["export", truncated.path, "-o", output])
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "error: header claims 40000 'vertex' records needing at least 600000 bytes, but "
        + "only 599900 bytes remain in the file: \(truncated.path)\n")
    #expect(!FileManager.default.fileExists(atPath: output))
    let missing = try CommandRunner.run(["info", folder.appendingPathComponent("nope.ply").path])
    #expect(missing.status == 1)
    #expect(missing.standardError.hasPrefix("error: cannot open: No such file or directory: "))
  }

  @Test func badUsageExitsTwo() throws {
    #expect(try CommandRunner.run([]).status == 2)
    #expect(try CommandRunner.run(["frobnicate"]).status == 2)
    #expect(try CommandRunner.run(["info"]).status == 2)
    #expect(try CommandRunner.run(["info", "a.ply", "b.ply"]).status == 2)
    #expect(try CommandRunner.run(["info", "--colour", "a.ply"]).status == 2)
    let noOutput = try CommandRunner.run(["export", "Assets/sample.ply"])
    #expect(noOutput.status == 2)
    #expect(noOutput.standardError.contains("-o OUT.ply"))
    #expect(try CommandRunner.run(["export", "Assets/sample.ply", "-o"]).status == 2)
    #expect(try CommandRunner.run(["synth", "x.ply", "--points", "many"]).status == 2)
  }

  @Test(arguments: ["info", "export", "synth", "bench"])
  func everyCommandHasHelp(command: String) throws {
    let result = try CommandRunner.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix("usage: cloudscrub \(command)"))
  }

  @Test func topLevelHelpListsTheCommands() throws {
    let result = try CommandRunner.run(["--help"])
    #expect(result.status == 0)
    for command in ["info", "export", "synth", "bench"] {
      #expect(result.standardOutput.contains("  \(command) "))
    }
  }

  @Test func noProgressIsPrintedWhenNotOnATerminal() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CommandRunner.run(
      ["export", "Assets/sample.ply", "-o", folder.appendingPathComponent("o.ply").path])
    #expect(result.standardError.isEmpty)
    #expect(result.standardOutput.isEmpty)
  }

  @Test func synthIsDeterministic() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.ply").path
    let b = folder.appendingPathComponent("b.ply").path
    #expect(try CommandRunner.run(["synth", a, "--points", "500", "--seed", "3"]).status == 0)
    #expect(try CommandRunner.run(["synth", b, "--points", "500", "--seed", "3"]).status == 0)
    #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
    #expect(try PLYReader.read(path: a).cloud.count == 500)
  }
}
