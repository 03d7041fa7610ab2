import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// LAZ files that lazrs (the LASzip format in Rust, through laspy) writes from points
/// whose every field varies (`bench/laz_peers.py random`) decode here to exactly the
/// records of the same points written uncompressed. Skipped, saying so, without
/// `pip install laspy lazrs`.
@Suite struct LAZPeerTests {
  static func records(_ path: String) throws -> (header: LASReader.Header, records: [UInt8]) {
    let file = try MappedFile(path: path)
    return try LASReader.withRecords(file.bytes) { header, _, records, _ in
      (header, Array(records))
    }
  }

  /// `count` random points of `format` with `extra` extra bytes on `channels` scanner
  /// channels, as LAZ (compressed by lazrs, or `by` "laszip") and LAS.
  static func pair(
    format: Int, count: Int, extra: Int, channels: Int = 1, seed: Int, by: String = "lazrs"
  ) throws -> (laz: String, las: String, folder: URL) {
    let folder = try TestData.makeTemporaryDirectory()
    let laz = folder.appendingPathComponent("points.laz").path
    let las = folder.appendingPathComponent("points.las").path
    _ = try FormatPeers.run(
      ["random", "\(format)", "\(count)", "\(seed)", laz, las, "\(extra)", "\(channels)", by],
      script: FormatPeers.lazScript)
    return (laz, las, folder)
  }

  static func expectSameRecords(_ laz: String, _ las: String) throws {
    let ours = try records(laz)
    let twin = try records(las)
    #expect(ours.header.compressed)
    #expect(ours.header.points == twin.header.points)
    #expect(ours.records.count == twin.records.count)
    let length = twin.header.recordLength
    if let first = zip(ours.records, twin.records).enumerated().first(where: {
      $0.element.0 != $0.element.1
    }) {
      Issue.record(
        "record \(first.offset / length) differs first at byte \(first.offset % length): \(first.element.0) for \(first.element.1)"
      )
    }
  }

  @Test(
    .enabled(if: FormatPeers.lazrs, "laspy with lazrs does not import: pip install laspy lazrs"),
    arguments: [
      (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (1, 3), (3, 5), (6, 0), (7, 0), (8, 0),
      (6, 2), (8, 3),
    ])
  func everyFormatDecodesToItsRecords(_ format: Int, _ extra: Int) throws {
    // 120,000 points: two full chunks of 50,000 and a part one.
    let (laz, las, folder) = try Self.pair(
      format: format, count: 120_000, extra: extra, seed: format * 10 + extra)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.expectSameRecords(laz, las)
  }

  @Test(
    .enabled(if: FormatPeers.lazrs, "laspy with lazrs does not import: pip install laspy lazrs"),
    arguments: [(6, 0), (7, 3), (8, 2)])
  func pointsOnFourScannerChannelsDecodeToTheirRecords(_ format: Int, _ extra: Int) throws {
    // Switches come every ten points or so; colours and extra bytes follow LASzip's item
    // contexts (the channel on a switch, 0 on the points that stay).
    let (laz, las, folder) = try Self.pair(
      format: format, count: 120_000, extra: extra, channels: 4, seed: 64 + format)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.expectSameRecords(laz, las)
  }

  @Test(
    .enabled(if: FormatPeers.laszip, "laspy's LASzip backend does not import: pip install laszip"))
  func laszipsFourChannelColoursDecodeToTheirRecords() throws {
    let (laz, las, folder) = try Self.pair(
      format: 7, count: 120_000, extra: 1, channels: 4, seed: 65, by: "laszip")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.expectSameRecords(laz, las)
  }

  @Test(
    .enabled(if: FormatPeers.lazrs, "laspy with lazrs does not import: pip install laspy lazrs"))
  func theWindowReadsTheChunksBeforeACorruptOne() throws {
    // 120,000 points in chunks of 50,000, 50,000 and 20,000; a header promising 130,000
    // makes the last chunk run out of bytes after its 20,000th point.
    let (laz, _, folder) = try Self.pair(format: 1, count: 120_000, extra: 0, seed: 5)
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: laz)))
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(130_000).littleEndian, toByteOffset: 107, as: UInt32.self)
      $0.storeBytes(of: UInt64(130_000).littleEndian, toByteOffset: 247, as: UInt64.self)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: laz))
    #expect(throws: LASError.self) { try CloudFileFormats.read(laz) }
    let shown = try CloudFileFormats.read(laz, whatReads: true)
    #expect(shown.cloud.count == 100_000)
    #expect(shown.notes.count == 1)
    #expect(shown.notes.first?.hasPrefix("LAZ chunk 2 is corrupt at point 120") == true)
    #expect(shown.notes.first?.hasSuffix("the 100000 points before it are read") == true)
  }

  @Test(
    .enabled(if: FormatPeers.lazrs, "laspy with lazrs does not import: pip install laspy lazrs"),
    arguments: [1, 7])
  func aFileCutBeforeItsChunkTableReadsChunkAfterChunk(_ format: Int) throws {
    let (laz, las, folder) = try Self.pair(format: format, count: 120_000, extra: 0, seed: 8)
    defer { try? FileManager.default.removeItem(at: folder) }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: laz)))
    let pointOffset = Int(LASFormatTests.le(bytes, 96, UInt32.self))
    let table = Int(LASFormatTests.le(bytes, pointOffset, Int64.self))
    // Cut where the table starts: every chunk is there, the table is not.
    let cut = folder.appendingPathComponent("cut.laz").path
    try Data(bytes[0..<table]).write(to: URL(fileURLWithPath: cut))
    let file = try MappedFile(path: cut)
    let (records, notes) = try LASReader.withRecords(file.bytes) { _, _, records, notes in
      (Array(records), notes)
    }
    #expect(Bool(records == (try Self.records(las).records)))
    #expect(
      notes.contains { $0.hasSuffix("so its chunks were read one after another") }, "\(notes)")
    // Cut inside the last chunk too: the two whole chunks are read.
    try Data(bytes[0..<(table - 100)]).write(to: URL(fileURLWithPath: cut))
    let shorter = try CloudFileFormats.read(cut)
    #expect(shorter.cloud.count == 100_000)
    #expect(
      shorter.notes.contains("the chunks hold 100000 of the 120000 points the header promises"),
      "\(shorter.notes)")
  }
}
