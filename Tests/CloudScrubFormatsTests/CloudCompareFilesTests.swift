import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// Files CloudCompare wrote (committed in Fixtures/cloudcompare, made as its README says)
/// read here, and, where CloudCompare is installed, our PLY and XYZ files read by it and
/// what it writes of them read here. (Debian's CloudCompare has no PCD, LAS or E57
/// plugin.)
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
  func cloudCompareReadsOurPLYAndXYZAndWritesWhatWeRead() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = folder.appendingPathComponent("ours.ply").path
    let cloud = SyntheticCloud.scene(count: 2_000, normals: false)
    try PLYWriter.write(cloud, to: ours)
    // Our XYZ text, its `#` lines skipped (CloudCompare's ASCII reader would ask about
    // them in a dialog).
    let text = folder.appendingPathComponent("ours.xyz").path
    try XYZFormatWriter().write(
      cloud, provenance: ExportProvenance(source: "test"), options: CloudWriteOptions(),
      to: text, inputs: [], progress: nil)
    let comments = try String(contentsOfFile: text, encoding: .utf8)
      .split(separator: "\n").prefix { $0.hasPrefix("#") }.count
    let x = try XvfbSession()
    defer { x.stop() }
    for (input, format, extra, name) in [
      (["-O", ours], "PLY", ["-PLY_EXPORT_FMT", "BINARY_LE"], "back.ply"),
      (["-O", ours], "ASC", ["-PREC", "9", "-SEP", "SPACE"], "back.asc"),
      (
        ["-O", "-SKIP", String(comments), text], "PLY", ["-PLY_EXPORT_FMT", "BINARY_LE"], "text.ply"
      ),
    ] {
      let target = folder.appendingPathComponent(name).path
      let result = try CommandRunner.run(
        executable: URL(fileURLWithPath: Self.cloudCompare ?? "CloudCompare"),
        ["-SILENT", "-AUTO_SAVE", "OFF", "-NO_TIMESTAMP"] + input + ["-C_EXPORT_FMT", format]
          + extra + ["-SAVE_CLOUDS", "FILE", target],
        environment: ["DISPLAY": x.display], in: folder, timeoutSeconds: 120)
      #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
      let back = try Self.read(target).cloud
      #expect(back.count == cloud.count, "\(format)")
      #expect(back.colors == cloud.colors, "\(format)")
      if name == "back.ply" {
        #expect(back.positions == cloud.positions)
      } else {
        // Through decimal text (CloudCompare reads it as double; its ASC has 9 decimals
        // after the point): within two float steps and the last decimal's half.
        func near(_ a: Float, _ b: Float) -> Bool {
          abs(a - b) <= 2 * b.ulp + (name == "back.asc" ? 5e-10 : 0)
        }
        let far = zip(back.positions, cloud.positions).filter { got, want in
          !(near(got.x, want.x) && near(got.y, want.y) && near(got.z, want.z))
        }
        #expect(far.isEmpty, "\(name): \(far.prefix(3))")
      }
    }
  }
}
