import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// Files CloudCompare wrote (committed in Fixtures/cloudcompare, made as its README says)
/// read here, and, where CloudCompare is installed, our files read by it.
@Suite struct CloudCompareFilesTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/cloudcompare")

  /// The five points of `five-points.ply`, as their decimals round to `Float`.
  static let positions = [
    Point3(1.5, -2.25, 0.125), Point3(0, 0, 0), Point3(10.001, 20.002, -30.003),
    Point3(-0.5, 0.75, 0.001), Point3(123.456, -654.321, 7.5),
  ]
  static let colors = [
    RGB8(255, 0, 0), RGB8(0, 255, 0), RGB8(0, 0, 255), RGB8(10, 20, 30), RGB8(200, 100, 50),
  ]

  static let cloudCompare = XTools.locate("CloudCompare")

  static func read(_ path: String) throws -> LoadedCloud { try CloudFileFormats.read(path) }

  @Test(arguments: ["cc-ascii.ply", "cc-binary.ply", "five-points.ply"])
  func cloudComparesPLYReadsWithEveryPointAndColour(_ name: String) throws {
    let loaded = try Self.read(Self.folder.appendingPathComponent(name).path)
    #expect(loaded.cloud.positions == Self.positions)
    #expect(loaded.cloud.colors == Self.colors)
  }

  @Test func cloudComparesASCIIExportReadsWithItsHeaderLine() throws {
    // `//X Y Z R G B`, then x y z at 8 decimals: the float's own digits, rounded.
    let loaded = try Self.read(Self.folder.appendingPathComponent("cc.asc").path)
    #expect(loaded.format == "XYZ text")
    #expect(loaded.cloud.colors == Self.colors)
    #expect(loaded.cloud.count == 5)
    for (got, want) in zip(loaded.cloud.positions, Self.positions) {
      #expect(abs(got.x - want.x) <= 1e-8 * max(1, abs(want.x)))
      #expect(abs(got.y - want.y) <= 1e-8 * max(1, abs(want.y)))
      #expect(abs(got.z - want.z) <= 1e-8 * max(1, abs(want.z)))
    }
  }

  @Test(
    .enabled(
      if: cloudCompare != nil && XTools.installed(["Xvfb"]),
      "CloudCompare or Xvfb is not installed (apt-get install cloudcompare xvfb)"),
    .timeLimit(.minutes(5)))
  func cloudCompareReadsOurPLYAndWritesWhatWeRead() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = folder.appendingPathComponent("ours.ply").path
    let cloud = SyntheticCloud.scene(count: 2_000, normals: false)
    try PLYWriter.write(cloud, to: ours)
    let x = try XvfbSession()
    defer { x.stop() }
    for (format, extra, name) in [
      ("PLY", ["-PLY_EXPORT_FMT", "BINARY_LE"], "back.ply"),
      ("ASC", ["-PREC", "9", "-SEP", "SPACE"], "back.asc"),
    ] {
      let target = folder.appendingPathComponent(name).path
      let result = try CommandRunner.run(
        executable: URL(fileURLWithPath: Self.cloudCompare ?? "CloudCompare"),
        ["-SILENT", "-AUTO_SAVE", "OFF", "-NO_TIMESTAMP", "-O", ours, "-C_EXPORT_FMT", format]
          + extra + ["-SAVE_CLOUDS", "FILE", target],
        environment: ["DISPLAY": x.display], in: folder, timeoutSeconds: 120)
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      let back = try Self.read(target).cloud
      #expect(back.count == cloud.count, "\(format)")
      #expect(back.colors == cloud.colors, "\(format)")
      if format == "PLY" {
        #expect(back.positions == cloud.positions)
      } else {
        for (got, want) in zip(back.positions, cloud.positions) {
          #expect(abs(got.x - want.x) <= 1e-6 && abs(got.y - want.y) <= 1e-6)
          #expect(abs(got.z - want.z) <= 1e-6)
        }
      }
    }
  }
}
