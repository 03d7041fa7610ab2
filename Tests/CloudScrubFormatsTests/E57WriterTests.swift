import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// The writer's files: the standard's header and page checksums (checked with the
/// tests' own bit-by-bit CRC), and round trips through the reader.
@Suite struct E57WriterTests {
  static func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-e57w-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// 10 000 points on a helix with colours: more than two data packets.
  static let helix: PointCloud = {
    let positions = (0..<10_000).map { i -> Point3 in
      let t = Float(i) * 0.01
      return Point3(cos(t) * 2, sin(t) * 2, t * 0.1 - 3)
    }
    let colors = (0..<10_000).map { RGB8(UInt8($0 % 256), UInt8(($0 / 256) % 256), 200) }
    return PointCloud(positions: positions, colors: colors)
  }()

  @Test func crc32cOfTheCheckStringIsTheStandardValue() {
    #expect(CRC32.checksum(Array("123456789".utf8), .castagnoli) == 0xE306_9283)
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(E57TestFiles.crc32c(ArraySlice("123456789".utf8)) == 0xE306_9283)
  }

  @Test func headerAndEveryPageChecksumFollowTheStandard() throws {
    let url = try Self.folder().appendingPathComponent("helix.e57")
    try E57Writer.write(cloud: Self.helix, provenance: E57Provenance(), to: url)
    let bytes = Array(try Data(contentsOf: url))
    #expect(bytes.starts(with: Array("ASTM-E57".utf8)))
    #expect(bytes.count % 1024 == 0)
    func long(_ offset: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
    #expect(long(16) == UInt64(bytes.count))
    #expect(long(40) == 1024)
    for page in 0..<(bytes.count / 1024) {
      let start = page * 1024
      let stored = bytes[(start + 1020)..<(start + 1024)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      #expect(stored == E57TestFiles.crc32c(bytes[start..<(start + 1020)]), "page \(page)")
    }
    // 10 000 coloured points: 15 bytes each in packets of 4 367, plus the XML.
    #expect(bytes.count > 150_000 && bytes.count < 160_000)
  }

  @Test func oneScanRoundTripsEveryPointAndColourExactly() throws {
    let url = try Self.folder().appendingPathComponent("helix.e57")
    let provenance = E57Provenance(
      software: "CloudScrub test", description: "a helix",
      entries: [
        .init(name: "source", value: "synthetic ]]> helix"), .init(name: "frames", value: "0-9"),
      ])
    try E57Writer.write(cloud: Self.helix, provenance: provenance, to: url)
    let contents = try E57Reader.contents(of: url.path)
    #expect(contents.cloud.positions == Self.helix.positions)
    #expect(contents.cloud.colors == Self.helix.colors)
    #expect(contents.writer == "CloudScrub test")
    #expect(contents.scans.count == 1)
    let xml = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(xml.contains("synthetic ]]]]><![CDATA[> helix"))
  }

  @Test func theSameCloudGivesTheSameBytes() throws {
    let folder = try Self.folder()
    let a = folder.appendingPathComponent("a.e57")
    let b = folder.appendingPathComponent("b.e57")
    try E57Writer.write(cloud: Self.helix, provenance: E57Provenance(), to: a)
    try E57Writer.write(cloud: Self.helix, provenance: E57Provenance(), to: b)
    #expect(try Data(contentsOf: a) == Data(contentsOf: b))
  }

  @Test func scansPerFrameKeepTheirPosesAndWorldPositions() throws {
    // Frame 0 at the origin, frame 1 turned 90° about y and moved.
    var cloud = PointCloud(
      positions: [Point3(1, 0, 0), Point3(0, 2, 0), Point3(3, 1, -1), Point3(0.5, 0.5, 0.5)],
      colors: [RGB8(1, 2, 3), RGB8(4, 5, 6), RGB8(7, 8, 9), RGB8(10, 11, 12)])
    cloud.attributes = [PointAttribute(name: "frame", values: .uint32([1, 0, 1, 0]))]
    let turned = Transform3D(axisAngle: SIMD3(0, Double.pi / 2, 0), translation: SIMD3(2, 0, 1))
    let scans = E57Scan.perFrame(cloud) { $0 == 1 ? turned : .identity }
    #expect(scans.map(\.name) == ["frame 0", "frame 1"])
    #expect(scans[0].cloud.positions == [Point3(0, 2, 0), Point3(0.5, 0.5, 0.5)])
    let url = try Self.folder().appendingPathComponent("frames.e57")
    try E57Writer.write(scans: scans, provenance: E57Provenance(), to: url)
    let contents = try E57Reader.contents(of: url.path)
    #expect(contents.scans.count == 2)
    #expect(
      contents.scans[1].worldFromScan.rowMajor.enumerated().allSatisfy {
        abs($0.element - turned.rowMajor[$0.offset]) < 1e-12
      })
    // Frame order: frame 0's points, then frame 1's, each back in world coordinates.
    let expected = [Point3(0, 2, 0), Point3(0.5, 0.5, 0.5), Point3(1, 0, 0), Point3(3, 1, -1)]
    for (point, want) in zip(contents.cloud.positions, expected) {
      #expect(abs(point.x - want.x) < 1e-5 && abs(point.y - want.y) < 1e-5)
      #expect(abs(point.z - want.z) < 1e-5)
    }
    #expect(
      contents.cloud.colors == [RGB8(4, 5, 6), RGB8(10, 11, 12), RGB8(1, 2, 3), RGB8(7, 8, 9)])
  }

  @Test func nonFinitePointsAreLeftOutAndEmptyCloudsWrite() throws {
    let folder = try Self.folder()
    let cloud = PointCloud(
      positions: [Point3(1, 2, 3), Point3(.nan, 0, 0), Point3(4, 5, 6)],
      colors: [RGB8(1, 1, 1), RGB8(2, 2, 2), RGB8(3, 3, 3)])
    try E57Writer.write(
      cloud: cloud, provenance: E57Provenance(), to: folder.appendingPathComponent("n.e57"))
    let back = try E57Reader.read(url: folder.appendingPathComponent("n.e57"))
    #expect(back.positions == [Point3(1, 2, 3), Point3(4, 5, 6)])
    #expect(back.colors == [RGB8(1, 1, 1), RGB8(3, 3, 3)])
    try E57Writer.write(
      cloud: PointCloud(), provenance: E57Provenance(), to: folder.appendingPathComponent("e.e57"))
    #expect(try E57Reader.read(url: folder.appendingPathComponent("e.e57")).isEmpty)
  }

  @Test func aPoseThatIsNoRotationIsRefused() throws {
    let url = try Self.folder().appendingPathComponent("scaled.e57")
    let scan = E57Scan(name: "s", worldFromScan: .scale(SIMD3(2, 2, 2)), cloud: Self.helix)
    #expect(throws: FileError.self) {
      try E57Writer.write(scans: [scan], provenance: E57Provenance(), to: url)
    }
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }
}
