import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// PCD files written by PCL's own tools (Debian's `pcl-tools`: `pcl_ply2pcd` and
/// `pcl_pcd2ply`) read here, and ours read there. Each test skips, saying so, where the
/// tools are not installed.
@Suite struct PCLToolsFormatsTests {
  static let toPCD = XTools.locate("pcl_ply2pcd")
  static let toPLY = XTools.locate("pcl_pcd2ply")
  static let cloud = SyntheticCloud.scene(count: 3_000, normals: false)

  static func run(_ tool: String?, _ arguments: [String]) throws {
    guard let tool else { throw PeerError("PCL's tool is not on PATH") }
    let result = try CommandRunner.run(
      executable: URL(fileURLWithPath: tool), arguments, timeoutSeconds: 120)
    guard result.status == 0 else {
      throw PeerError(result.standardError + result.standardOutput)
    }
  }

  /// The largest coordinate difference between two clouds of the same size.
  static func worst(_ a: PointCloud, _ b: PointCloud) -> Float {
    zip(a.positions, b.positions).map { p, q in
      max(abs(p.x - q.x), abs(p.y - q.y), abs(p.z - q.z))
    }.max() ?? .infinity
  }

  @Test(
    .enabled(if: toPCD != nil, "PCL's tools are not installed: apt-get install pcl-tools"),
    arguments: [(1, "binary"), (0, "ascii")])
  func ourReaderReadsPCLsPCD(_ format: Int, _ kind: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("source.ply").path
    try PLYWriter.write(Self.cloud, to: source, options: PLYWriteOptions())
    let path = folder.appendingPathComponent("pcl.pcd").path
    try Self.run(Self.toPCD, [source, path, "-format", String(format)])
    #expect(try InputDetector.kind(of: path) == .cloud(format: "PCD"))
    let loaded = try CloudFileFormats.read(path)
    #expect(loaded.format.hasSuffix(kind))
    #expect(loaded.cloud.count == Self.cloud.count)
    // PCL packs the colour in a uint32 `rgb`; its ASCII form prints 8 significant
    // digits, so a coordinate below 10 m is off by at most 5e-8 × 10 m.
    #expect(Self.worst(loaded.cloud, Self.cloud) <= (kind == "ascii" ? 5e-7 : 0))
    #expect(loaded.cloud.colors == Self.cloud.colors)
  }

  @Test(.enabled(if: toPLY != nil, "PCL's tools are not installed: apt-get install pcl-tools"))
  func pclReadsOurPCD() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("ours.pcd").path
    try PCDFormatWriter().write(
      Self.cloud, provenance: ExportProvenance(source: "PCL test"), options: CloudWriteOptions(),
      to: path, inputs: [], progress: nil)
    // PCL reads our PCD and writes it back as PLY, which reads here as what we wrote.
    let back = folder.appendingPathComponent("back.ply").path
    try Self.run(Self.toPLY, [path, back, "-format", "1", "-use_camera", "0"])
    let cloud = try CloudFileFormats.read(back).cloud
    #expect(cloud.count == Self.cloud.count)
    #expect(Self.worst(cloud, Self.cloud) == 0)
    #expect(cloud.colors == Self.cloud.colors)
  }
}
