import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// `export -o out.laz`: the LAS export's records compressed, which our reader and lazrs
/// (through laspy, where installed) decompress to exactly the LAS export's records.
@Suite struct LAZWriterTests {
  static let provenance = ExportProvenance(source: "test.ply", cleaning: "voxel 0.01 m")

  /// 120,000 points (chunks of 50,000, 50,000 and 20,000) with colours, normals and a
  /// frame attribute: 36 + 12 + 4 bytes a record.
  static let cloud: PointCloud = {
    var cloud = SyntheticCloud.scene(count: 120_000, normals: true)
    cloud.attributes = [
      PointAttribute(name: "frame", values: .uint32((0..<UInt32(cloud.count)).map { $0 / 700 }))
    ]
    return cloud
  }()

  static let options = CloudWriteOptions(attributes: .all)

  static func records(_ path: String) throws -> (header: LASReader.Header, records: [UInt8]) {
    let file = try MappedFile(path: path)
    return try LASReader.withRecords(file.bytes) { header, _, records, _ in
      (header, Array(records))
    }
  }

  /// The cloud written as LAS and as LAZ in a new folder.
  static func pair(_ cloud: PointCloud = cloud) throws -> (laz: String, las: String, folder: URL) {
    let folder = try TestData.makeTemporaryDirectory()
    let laz = folder.appendingPathComponent("points.laz").path
    let las = folder.appendingPathComponent("points.las").path
    try LASFormatWriter().write(
      cloud, provenance: provenance, options: options, to: las, inputs: [], progress: nil)
    try LAZFormatWriter().write(
      cloud, provenance: provenance, options: options, to: laz, inputs: [], progress: nil)
    return (laz, las, folder)
  }

  @Test func theLAZExportDecompressesToTheLASExportsRecords() throws {
    let (laz, las, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = try Self.records(laz)
    let twin = try Self.records(las)
    #expect(ours.header.compressed && !twin.header.compressed)
    #expect(ours.header.points == 120_000 && ours.header.recordLength == 52)
    #expect(Bool(ours.records == twin.records))
    let compressed = try FileManager.default.attributesOfItem(atPath: laz)[.size] as? Int ?? 0
    let plain = try FileManager.default.attributesOfItem(atPath: las)[.size] as? Int ?? 0
    #expect(compressed < plain / 2, "\(compressed) bytes for \(plain)")
    // The same cloud, provenance and bounds as the LAS export.
    let a = try CloudFileFormats.read(laz).cloud
    let b = try CloudFileFormats.read(las).cloud
    #expect(a.positions == b.positions && a.colors == b.colors && a.normals == b.normals)
    #expect(a.attribute(named: "frame") == Self.cloud.attribute(named: "frame"))
  }

  @Test func aStreamedLAZExportIsTheWholeClouds() throws {
    let (laz, _, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let streamed = folder.appendingPathComponent("streamed.laz").path
    let writer = try LAZFormatWriter().streamWriter(
      path: streamed, fields: Self.cloud, options: Self.options, inputs: [])
    // Pieces that straddle chunk boundaries.
    var start = 0
    for size in [1, 49_998, 3, 30_000, 39_998] {
      try writer.append(Self.cloud.subset(indices: Array(start..<(start + size))))
      start += size
    }
    try writer.finish(provenance: Self.provenance, progress: nil)
    #expect(start == Self.cloud.count)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: streamed))
        == Data(contentsOf: URL(fileURLWithPath: laz)))
  }

  @Test func recordsInPiecesOfAnySizeMakeTheSameChunks() throws {
    // 130,000 records: chunks of 50,000, 50,000 and 30,000, compressed one at a time
    // from pieces that straddle them, or three at once from one piece.
    let (records, length) = LAZEncoderTests.records(
      format: 7, extra: 2, count: 130_000, channels: 1, seed: 9)
    let items = LAZFileHeader.items(format: 7, recordLength: length)
    func chunks(batch: Int, pieces: [Int]) throws -> (bytes: [UInt8], table: [UInt8]) {
      var bytes: [UInt8] = []
      let writer = LAZChunkWriter(
        items: items, recordLength: length, batchChunks: batch, sink: { bytes += $0 })
      var start = 0
      try records.withUnsafeBytes { all in
        for piece in pieces {
          try writer.append(
            UnsafeRawBufferPointer(rebasing: all[(start * length)..<((start + piece) * length)]))
          start += piece
        }
      }
      #expect(start == 130_000)
      let table = try writer.finish()
      return (bytes, table)
    }
    let one = try chunks(batch: 3, pieces: [130_000])
    let pieces = try chunks(batch: 1, pieces: [7, 49_993, 1, 60_000, 19_999, 0])
    // Compared as one truth value: a failing comparison of megabytes would diff them.
    #expect(Bool(one.bytes == pieces.bytes))
    #expect(one.table == pieces.table)
    #expect(Bool(try chunks(batch: 2, pieces: [100_001, 29_999]).bytes == one.bytes))
  }

  @Test func compressingTheLASExportGivesTheLAZExport() throws {
    let (laz, las, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let compressed = folder.appendingPathComponent("compressed.laz").path
    try LAZFileCompressor.compress(las: las, to: compressed)
    #expect(
      Bool(
        try Data(contentsOf: URL(fileURLWithPath: compressed))
          == Data(contentsOf: URL(fileURLWithPath: laz))))
    // Only uncompressed LAS 1.4 of formats 6-8 is compressed; the input stays.
    let old = folder.appendingPathComponent("old.las").path
    let record = LASFormatTests.record(1, 2, 3, length: 20, rgbAt: nil, [])
    try Data(LASFormatTests.las12(format: 0, recordLength: 20, records: [record])).write(
      to: URL(fileURLWithPath: old))
    let refused = folder.appendingPathComponent("refused.laz").path
    #expect(throws: LASError.self) { try LAZFileCompressor.compress(las: old, to: refused) }
    #expect(throws: LASError.self) { try LAZFileCompressor.compress(las: laz, to: refused) }
    #expect(!FileManager.default.fileExists(atPath: refused))
  }

  @Test func anEmptyCloudIsAnEmptyLAZ() throws {
    let (laz, _, folder) = try Self.pair(PointCloud(positions: [], colors: []))
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try CloudFileFormats.read(laz).cloud.count == 0)
  }

  @Test func theExportRegistryWritesLAZByExtensionAndName() throws {
    #expect(try ExportFormats.writer(for: "scan.LAZ").name == "laz")
    #expect(try ExportFormats.writer(for: "scan.bin", format: "laz").name == "laz")
  }

  static let lazrs = Testing.ConditionTrait.enabled(
    if: FormatPeers.lazrs, "laspy with lazrs does not import: pip install laspy lazrs")

  /// What lazrs decompresses `laz` to.
  static func lazrsRecords(_ laz: String, folder: URL) throws -> [UInt8] {
    let out = folder.appendingPathComponent("lazrs.bin").path
    _ = try FormatPeers.run(["decompress", laz, out], script: FormatPeers.lazScript)
    return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
  }

  @Test(lazrs) func lazrsDecompressesTheExportToTheLASExportsRecords() throws {
    let (laz, las, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(Bool(try Self.lazrsRecords(laz, folder: folder) == Self.records(las).records))
  }

  @Test(
    .enabled(if: FormatPeers.laszip, "laspy's LASzip backend does not import: pip install laszip"))
  func laszipReadsTheExportAsTheLASExportsRecords() throws {
    let (laz, las, folder) = try Self.pair()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("laszip.bin").path
    _ = try FormatPeers.run(["laszip-read", laz, out], script: FormatPeers.lazScript)
    let read = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    let twin = try Self.records(las).records
    #expect(Bool(read == twin))
  }

  /// laspy's random points (every field varying, `bench/laz_peers.py random`) as LAS,
  /// compressed here with the writer's codecs: lazrs reads back the records.
  @Test(lazrs, arguments: [(6, 0, 4), (7, 0, 1), (7, 3, 1), (8, 2, 1), (7, 3, 4), (8, 2, 3)])
  func lazrsDecompressesOurCodingOfEveryField(_ format: Int, _ extra: Int, _ channels: Int)
    throws
  {
    let (_, las, folder) = try LAZPeerTests.pair(
      format: format, count: 120_000, extra: extra, channels: channels, seed: 77 + format)
    defer { try? FileManager.default.removeItem(at: folder) }
    let laz = folder.appendingPathComponent("ours.laz").path
    try LAZFileCompressor.compress(las: las, to: laz)
    let records = try Self.records(las).records
    let twin = records
    #expect(Bool(try Self.lazrsRecords(laz, folder: folder) == twin))
    #expect(Bool(try Self.records(laz).records == twin))
  }

  /// Colours and extra bytes of points that switch among four scanner channels: LASzip
  /// itself reads our coding of them back to the records.
  @Test(
    .enabled(if: FormatPeers.laszip, "laspy's LASzip backend does not import: pip install laszip"))
  func laszipDecompressesOurCodingOfPointsOnFourChannels() throws {
    let (_, las, folder) = try LAZPeerTests.pair(
      format: 7, count: 120_000, extra: 2, channels: 4, seed: 3)
    defer { try? FileManager.default.removeItem(at: folder) }
    let laz = folder.appendingPathComponent("ours.laz").path
    try LAZFileCompressor.compress(las: las, to: laz)
    let out = folder.appendingPathComponent("laszip.bin").path
    _ = try FormatPeers.run(["laszip-read", laz, out], script: FormatPeers.lazScript)
    let read = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    #expect(Bool(read == (try Self.records(las).records)))
  }
}
