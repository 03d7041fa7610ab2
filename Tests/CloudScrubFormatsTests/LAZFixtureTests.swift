import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// LAZ files from laspy's test suite (Fixtures/laz, BSD licence) decode to exactly the
/// point records of their uncompressed twins (the twin as laspy with lazrs writes it,
/// `scripts/make-laz-fixtures.py`, where the suite has none).
@Suite struct LAZFixtureTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/laz")

  /// The header and records of the LAS or LAZ file `name`.
  static func records(_ name: String) throws -> (header: LASReader.Header, records: [UInt8]) {
    let file = try MappedFile(path: folder.appendingPathComponent(name).path)
    return try LASReader.withRecords(file.bytes) { header, _, records, _ in
      (header, Array(records))
    }
  }

  @Test(arguments: [
    "simple", "extra", "1_4_w_evlr", "simple.copc", "random-format0", "random-format1",
    "random-format2", "random-format5", "random-format8", "random-format6-channels",
    "random-format7-channels", "random-format8-channels", "lazpy-pt8_v4", "lazpy-pt9_v3",
    "lazpy-pt10_v4", "tiny-format0", "tiny-format1", "tiny-format2", "tiny-format3",
    "tiny-format6", "tiny-format7", "tiny-format8",
  ])
  func decodesToItsTwinsRecords(_ name: String) throws {
    let laz = try Self.records(name + ".laz")
    let las = try Self.records(name + ".las")
    #expect(laz.header.compressed && !las.header.compressed)
    #expect(laz.header.pointFormat == las.header.pointFormat)
    #expect(laz.header.points == las.header.points)
    #expect(laz.records.count == las.records.count)
    let length = las.header.recordLength
    let first = zip(laz.records, las.records).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      first == nil,
      "first differing byte \(first?.offset ?? 0): record \((first?.offset ?? 0) / length), byte \((first?.offset ?? 0) % length)"
    )
  }

  @Test func intensityBecomesAnAttribute() throws {
    // random-format1: point10 and GPS time, no colour; intensity at bytes 12–13.
    let (header, records) = try Self.records("random-format1.las")
    let expected = (0..<header.points).map { index in
      UInt16(records[index * header.recordLength + 12])
        | UInt16(records[index * header.recordLength + 13]) << 8
    }
    let cloud = try LASReader.read(
      path: Self.folder.appendingPathComponent("random-format1.laz").path
    ).cloud
    #expect(cloud.colors == nil)
    #expect(cloud.attribute(named: "intensity")?.values == .uint16(expected))
    #expect(IntensityGreys.levels(of: cloud) != nil)
  }

  @Test func readsAsTheSameCloud() throws {
    let laz = try LASReader.read(path: Self.folder.appendingPathComponent("extra.laz").path)
    let las = try LASReader.read(path: Self.folder.appendingPathComponent("extra.las").path)
    #expect(laz.cloud.positions == las.cloud.positions)
    #expect(laz.cloud.colors == las.cloud.colors)
    #expect(laz.cloud.attributes.map(\.name) == las.cloud.attributes.map(\.name))
    #expect(laz.cloud.attributes == las.cloud.attributes)
    #expect(laz.cloud.count == 1065)
  }
}

/// What LAZ files say about themselves, and broken ones.
@Suite struct LAZFileTests {
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: LAZFixtureTests.folder.appendingPathComponent(name)))
  }

  static func read(_ bytes: [UInt8]) throws(LASErrorReason) -> LASReader.Document {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(LASErrorReason) -> LASReader.Document in try LASReader.read(bytes: raw) }
    }
    return try result.get()
  }

  @Test func copcSaysHowDeepItsOctreeIs() throws {
    // laspy's CopcReader lists 65 hierarchy entries on levels 0–3.
    let loaded = try CloudFileFormats.read(
      LAZFixtureTests.folder.appendingPathComponent("simple.copc.laz").path)
    #expect(loaded.format == "LAZ 1.4 point format 7, COPC octree of 4 levels, 65 nodes")
    #expect(loaded.cloud.count == 1065)
    let plain = try CloudFileFormats.read(
      LAZFixtureTests.folder.appendingPathComponent("simple.laz").path)
    #expect(plain.format == "LAZ 1.2 point format 3 (TerraScan)")
  }

  @Test func morePointsThanTheChunkHoldsNameTheChunkAndPoint() throws {
    // simple.laz is one chunk of 1,065 points; a header promising 2,000 makes the
    // decoder run out of bytes in chunk 0 after the real points.
    var bytes = try Self.bytes("simple.laz")
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(2000).littleEndian, toByteOffset: 107, as: UInt32.self)
    }
    do {
      _ = try Self.read(bytes)
      Issue.record("read a file whose chunk holds fewer points than its header says")
    } catch {
      guard case .lazChunk(let chunk, let point, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(chunk == 0)
      #expect(point >= 1065 && point < 1100, "point \(point)")
      #expect(error.description.hasPrefix("LAZ chunk 0 is corrupt at point"))
    }
  }

  @Test func aChunkTableOutsideTheFileIsNamedAndTheChunksAreReadInTurn() throws {
    let whole = try Self.bytes("random-format1.laz")
    var bytes = whole
    let pointOffset = Int(
      bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 96, as: UInt32.self) })
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: Int64(1 << 40).littleEndian, toByteOffset: pointOffset, as: Int64.self)
    }
    let read = try Self.read(bytes)
    #expect(read.cloud.positions == (try Self.read(whole)).cloud.positions)
    #expect(
      read.notes == [
        "its chunk table offset 1099511627776 lies outside the file (\(bytes.count) bytes), so "
          + "its chunks were read one after another"
      ])
    // With no whole chunk after the offset either, the table's problem is the error.
    #expect(
      throws: LASErrorReason.laz(
        "its chunk table offset 1099511627776 lies outside the file (\(pointOffset + 40) bytes)")
    ) {
      try Self.read(Array(bytes[0..<(pointOffset + 40)]))
    }
  }

  @Test func everyCutAndEveryFlippedByteIsAnErrorOrPointsNeverACrash() throws {
    // Cut at every 397th byte and flip every 389th: each read returns or throws.
    for name in ["random-format1.laz", "random-format8.laz", "simple.copc.laz"] {
      let whole = try Self.bytes(name)
      for cut in stride(from: 0, to: whole.count, by: 397) {
        _ = try? Self.read(Array(whole.prefix(cut)))
      }
      for at in stride(from: 0, to: whole.count, by: 389) {
        var flipped = whole
        flipped[at] ^= 0xA5
        _ = try? Self.read(flipped)
      }
    }
  }
}
