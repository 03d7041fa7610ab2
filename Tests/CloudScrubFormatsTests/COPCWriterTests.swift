import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// `export -o out.copc.laz`: the LAS export's records, shared among the nodes of an
/// octree whose levels are even samples, each node a LAZ chunk; our reader, our COPC
/// node reader and laspy's COPC reader (where installed) read it back.
@Suite struct COPCWriterTests {
  static let cloud = LAZWriterTests.cloud
  static let options = LAZWriterTests.options
  static let provenance = LAZWriterTests.provenance

  /// The cloud written as LAS and as COPC in a new folder.
  static func pair() throws -> (copc: String, las: String, folder: URL) {
    let folder = try TestData.makeTemporaryDirectory()
    let copc = folder.appendingPathComponent("points.copc.laz").path
    let las = folder.appendingPathComponent("points.las").path
    try LASFormatWriter().write(
      cloud, provenance: provenance, options: options, to: las, inputs: [], progress: nil)
    try COPCFormatWriter().write(
      cloud, provenance: provenance, options: options, to: copc, inputs: [], progress: nil)
    return (copc, las, folder)
  }

  /// Records as sortable rows, to compare files whose records come in other orders.
  static func rows(_ records: [UInt8], length: Int) -> [[UInt8]] {
    stride(from: 0, to: records.count, by: length).map { Array(records[$0..<($0 + length)]) }
      .sorted { $0.lexicographicallyPrecedes($1) }
  }

  @Test func theCOPCExportHoldsTheLASExportsRecords() throws {
    let (copc, las, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = try LAZWriterTests.records(copc)
    let twin = try LAZWriterTests.records(las)
    #expect(ours.header.compressed && ours.header.points == 120_000)
    let length = twin.header.recordLength
    #expect(
      Bool(Self.rows(ours.records, length: length) == Self.rows(twin.records, length: length)))
    #expect(ours.header.copc != nil)
  }

  @Test func everyNodeKeepsOnePointACellInsideItsCube() throws {
    let (copc, _, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = try MappedFile(path: copc)
    let source = try #require(try COPCNodeSource.open(file))
    // The info VLR, first after the 375-byte header: centre, half side, spacing.
    let info = file.bytes.baseAddress.unsafelyUnwrapped + 375 + 54
    func double(_ at: Int) -> Double {
      Double(
        bitPattern: UInt64(littleEndian: info.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
    }
    let center = SIMD3(double(0), double(8), double(16))
    let half = double(24)
    #expect(double(32) == 2 * half / 128)
    let bounds = Self.cloud.positions.reduce(
      (SIMD3<Float>(repeating: .infinity), SIMD3<Float>(repeating: -.infinity))
    ) { (pointwiseMin($0.0, SIMD3($1.x, $1.y, $1.z)), pointwiseMax($0.1, SIMD3($1.x, $1.y, $1.z))) }
    #expect(abs(2 * half - Double((bounds.1 - bounds.0).max())) < 0.01)
    #expect(source.nodes.filter { $0.level == 0 }.count == 1)
    // Subtree totals, to tell the nodes with children (one point a cell, at least
    // `foldBelow` points below them) from the leaves (sparse subtrees folded into one).
    let entries = source.hierarchy.entries
    var subtree: [SIMD4<Int32>: Int] = [:]
    for node in entries {
      var key = SIMD4<Int32>(Int32(node.level), node.x, node.y, node.z)
      while true {
        subtree[key, default: 0] += node.points
        if key[0] == 0 { break }
        key = SIMD4(key[0] - 1, key[1] >> 1, key[2] >> 1, key[3] >> 1)
      }
    }
    let parents = Set(
      entries.filter { $0.level > 0 }.map {
        SIMD4<Int32>(Int32($0.level - 1), $0.x >> 1, $0.y >> 1, $0.z >> 1)
      })
    var total = 0
    for (index, node) in source.hierarchy.entries.enumerated() {
      let side = 2 * half / Double(1 << node.level)
      let corner =
        center - SIMD3(repeating: half) + SIMD3(Double(node.x), Double(node.y), Double(node.z))
        * side
      let points = try source.read(node: index).points.positions
      total += points.count
      var cells = Set<SIMD3<Int>>()
      for p in points {
        let unit = (SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z)) - corner) / side
        // Positions are rounded to Float after the LAS scale: a millimetre of slack.
        #expect(unit.min() > -0.001 / side && unit.max() < 1 + 0.001 / side)
        let cell = SIMD3<Int>(
          (unit * 128).rounded(.down).clamped(lowerBound: .zero, upperBound: .init(repeating: 127)))
        cells.insert(cell)
      }
      let key = SIMD4<Int32>(Int32(node.level), node.x, node.y, node.z)
      if parents.contains(key) {
        // One point a cell, within the Float rounding of cell borders.
        #expect(Double(cells.count) >= 0.99 * Double(points.count))
        #expect(subtree[key, default: 0] >= COPCOctree.foldBelow)
      }
    }
    #expect(!parents.isEmpty && entries.count > parents.count)
    #expect(total == Self.cloud.count)
    // Each level is denser than the one above.
    let perLevel = Dictionary(grouping: source.nodes, by: \.level).mapValues {
      $0.reduce(0) { $0 + $1.points }
    }
    #expect(perLevel[0, default: 0] > 0 && perLevel.count >= 2)
  }

  @Test func aStreamedCOPCExportIsTheWholeClouds() throws {
    let (copc, _, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let streamed = folder.appendingPathComponent("streamed.copc.laz").path
    let writer = try COPCFormatWriter().streamWriter(
      path: streamed, fields: Self.cloud, options: Self.options, inputs: [])
    var start = 0
    for size in [1, 59_999, 60_000] {
      try writer.append(Self.cloud.subset(indices: Array(start..<(start + size))))
      start += size
    }
    try writer.finish(provenance: Self.provenance, progress: nil)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: streamed))
        == Data(contentsOf: URL(fileURLWithPath: copc)))
  }

  @Test func anEmptyCloudAndOnePointAreCOPCFilesToo() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let empty = folder.appendingPathComponent("empty.copc.laz").path
    try COPCFormatWriter().write(
      PointCloud(), provenance: Self.provenance, options: CloudWriteOptions(), to: empty,
      inputs: [], progress: nil)
    #expect(try LASReader.read(path: empty).cloud.count == 0)
    let one = folder.appendingPathComponent("one.copc.laz").path
    var cloud = PointCloud()
    cloud.positions = [Point3(1, 2, 3)]
    try COPCFormatWriter().write(
      cloud, provenance: Self.provenance, options: CloudWriteOptions(), to: one, inputs: [],
      progress: nil)
    #expect(try LASReader.read(path: one).cloud.positions == [Point3(1, 2, 3)])
    let source = try #require(try COPCNodeSource.open(MappedFile(path: one)))
    #expect(source.nodes == [OctreeNode(level: 0, points: 1)])
  }

  @Test func aNodesRecordsGoInMortonOrder() {
    // Records of 12 bytes (x, y, z) at the unit cube's corners, shuffled, and a far
    // point: the Z-curve visits x first, then y, then z, and the far point last.
    let corners: [SIMD3<Int32>] = [
      [1, 1, 1], [0, 0, 1], [1, 0, 0], [0, 1, 1], [0, 0, 0], [1, 1, 0], [10, 10, 10],
      [0, 1, 0], [1, 0, 1],
    ]
    var bytes: [UInt8] = []
    for c in corners { for v in [c.x, c.y, c.z] { bytes.appendLittleEndian(v) } }
    let order = bytes.withUnsafeBytes {
      COPCWriter.mortonOrder(Array(0..<UInt32(corners.count)), records: $0, recordLength: 12)
    }
    #expect(
      order.map { corners[Int($0)] } == [
        [0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1],
        [10, 10, 10],
      ])
  }

  @Test func theExtensionCOPCDotLAZPicksCOPCAndDotLAZPicksLAZ() throws {
    #expect(try ExportFormats.writer(for: "/a/scan.copc.laz").name == "copc")
    #expect(try ExportFormats.writer(for: "/a/scan.COPC.LAZ").name == "copc")
    #expect(try ExportFormats.writer(for: "/a/copc.laz").name == "laz")
    #expect(try ExportFormats.writer(for: "/a/scan.laz").name == "laz")
    #expect(try ExportFormats.writer(for: "/a/scan.laz", format: "copc").name == "copc")
  }

  @Test(
    .enabled(if: FormatPeers.lazrs, "laspy with lazrs does not import: pip install laspy lazrs"))
  func laspysCOPCReaderReadsEveryLevel() throws {
    let (copc, _, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = try #require(try COPCNodeSource.open(MappedFile(path: copc)))
    let perLevel = Dictionary(grouping: source.nodes, by: \.level).mapValues {
      $0.reduce(0) { $0 + $1.points }
    }
    let expected = (0..<perLevel.count).map { perLevel[$0, default: 0] }
    let output = try FormatPeers.run(["copc-levels", copc], script: FormatPeers.lazScript)
    #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected)")
  }
}
