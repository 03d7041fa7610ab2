import CloudScrubCore
import CloudScrubFormats
import Foundation
import FuzzTargets
import TestSupport
import Testing

/// CloudScrub's PCD and LAS files in Open3D and laspy, and theirs in CloudScrub
/// (`bench/format_peers.py`). Each test skips, saying so, when its Python peer
/// does not import (`pip install open3d laspy`; Open3D also needs Debian's
/// libusb-1.0-0).
@Suite struct PeerFormatsTests {
  static let peers = FormatPeers.available

  static func peer(_ arguments: [String]) throws -> String { try FormatPeers.run(arguments) }

  static func json(_ text: String) throws -> [String: Any] { try FormatPeers.json(text) }

  static let cloud = SyntheticCloud.scene(count: 3_000, normals: true)
  static let provenance = ExportProvenance(source: "peer test")

  @Test(
    .enabled(if: peers.contains("open3d"), "Open3D does not import: pip install open3d"),
    arguments: [false, true])
  func open3DReadsOurPCD(ascii: Bool) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("ours.pcd").path
    try PCDFormatWriter().write(
      Self.cloud, provenance: Self.provenance,
      options: CloudWriteOptions(ascii: ascii, attributes: .all), to: path, inputs: [],
      progress: nil)
    let read = try Self.json(try Self.peer(["read-pcd", path]))
    #expect(read["count"] as? Int == Self.cloud.count)
    // Open3D keeps doubles; ASCII it parses from our shortest float text.
    let p = Self.cloud.positions
    for (key, q) in [("first", p[0]), ("last", p[p.count - 1])] {
      let got = read[key] as? [Double] ?? []
      #expect(got.count == 3)
      for (value, want) in zip(got, [q.x, q.y, q.z]) { #expect(abs(value - Double(want)) <= 1e-6) }
    }
    let c = Self.cloud.colors?[0]
    #expect(read["color"] as? [Int] == c.map { [Int($0.r), Int($0.g), Int($0.b)] })
    #expect(read["normals"] as? Bool == true)
  }

  @Test(
    .enabled(if: peers.contains("open3d"), "Open3D does not import: pip install open3d"),
    arguments: ["binary", "ascii", "compressed"])
  func ourReaderReadsOpen3DsPCD(_ mode: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("source.ply").path
    try PLYWriter.write(Self.cloud, to: source, options: PLYWriteOptions(attributes: .all))
    let path = folder.appendingPathComponent("open3d.pcd").path
    _ = try Self.peer(["write-pcd", source, path, mode])
    #expect(try InputDetector.kind(of: path) == .cloud(format: "PCD"))
    let loaded = try CloudFileFormats.read(path)
    #expect(loaded.format.hasSuffix(mode == "compressed" ? "binary_compressed" : mode))
    let cloud = loaded.cloud
    #expect(cloud.count == Self.cloud.count)
    // Open3D keeps doubles and writes them back as float: the same values, but ASCII
    // prints them with 10 significant digits.
    let worst =
      zip(cloud.positions, Self.cloud.positions).map { a, b in
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
      }.max() ?? 1
    #expect(worst <= (mode == "ascii" ? 1e-6 : 0))
    #expect(cloud.colors == Self.cloud.colors)
    let normalError =
      zip(cloud.normals ?? [], Self.cloud.normals ?? []).map { a, b in
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
      }.max() ?? 1
    #expect(normalError <= 1e-6)
  }

  @Test(.enabled(if: peers.contains("laspy"), "laspy does not import: pip install laspy"))
  func laspyReadsOurLAS() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("ours.las").path
    var cloud = Self.cloud
    cloud.normals = nil
    cloud.attributes = [
      PointAttribute(name: "confidence", values: .uint8((0..<cloud.count).map { UInt8($0 % 3) })),
      PointAttribute(name: "frame", values: .uint32((0..<cloud.count).map { UInt32($0 / 1000) })),
    ]
    try LASFormatWriter().write(
      cloud, provenance: Self.provenance, options: CloudWriteOptions(attributes: .all), to: path,
      inputs: [], progress: nil)
    let read = try Self.json(try Self.peer(["read-las", path]))
    #expect(read["version"] as? String == "1.4")
    #expect(read["format"] as? Int == 7)
    #expect(read["count"] as? Int == cloud.count)
    let first = read["first"] as? [Double] ?? []
    let p = cloud.positions[0]
    #expect(first.count == 3)
    for (got, want) in zip(first, [p.x, p.y, p.z]) { #expect(abs(got - Double(want)) <= 0.00005) }
    let c = cloud.colors?[0] ?? RGB8(0, 0, 0)
    #expect(read["rgb"] as? [Int] == [Int(c.r) * 257, Int(c.g) * 257, Int(c.b) * 257])
    let extra = read["extra"] as? [String: [Double]]
    #expect(extra?["confidence"] == [0, 1, 2])
    #expect(extra?["frame"] == [0, 0, 0])
  }

  @Test(
    .enabled(if: peers.contains("laspy"), "laspy does not import: pip install laspy"),
    arguments: [("1.2", 3), ("1.4", 6), ("1.4", 8)])
  func ourReaderReadsLaspysLAS(_ version: String, _ format: Int) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("laspy.las").path
    _ = try Self.peer(["write-las", path, version, String(format)])
    #expect(try InputDetector.kind(of: path) == .cloud(format: "LAS"))
    let cloud = try CloudFileFormats.read(path).cloud
    #expect(cloud.count == 100)
    // Point i: x = 10 + 0.01 i, y = -5 + 0.02 i, z = 0.001 i; red 600 i → (600 i) >> 8.
    for i in [0, 1, 57, 99] {
      let p = cloud.positions[i]
      #expect(abs(Double(p.x) - (10 + 0.01 * Double(i))) < 1e-5)
      #expect(abs(Double(p.y) - (-5 + 0.02 * Double(i))) < 1e-5)
      #expect(abs(Double(p.z) - 0.001 * Double(i)) < 1e-6)
      if format == 6 {
        #expect(cloud.colors == nil)
      } else {
        let expected = RGB8(
          UInt8((600 * i) >> 8), UInt8((65535 - 600 * i) >> 8), UInt8((257 * i) >> 8))
        #expect(cloud.colors?[i] == expected)
      }
    }
    #expect(cloud.attribute(named: "half")?.values == .float32((0..<100).map { Float($0) / 2 }))
  }
}

/// The compressed PCD seed of the fuzz target reads back as the cloud it was made of:
/// liblzf round trip and the planar layout of `binary_compressed`.
@Suite struct CompressedPCDTests {
  @Test func compressedSeedReadsBackAsTheBinaryOne() throws {
    let seeds = try #require(FuzzTargets.named("pcd")).seeds()
    #expect(seeds.count == 3)
    let binary = try seeds[0].withUnsafeBytes { try PCDReader.read(bytes: $0).cloud }
    let compressed = try seeds[2].withUnsafeBytes {
      try PCDReader.read(bytes: $0, lzf: LZF.pcdDecompressor)
    }
    #expect(compressed.header.data == .binaryCompressed)
    #expect(compressed.cloud == binary)
    #expect(binary.count == 16)
  }
}
