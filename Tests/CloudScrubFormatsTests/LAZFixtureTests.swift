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

  @Test(arguments: ["simple", "extra", "1_4_w_evlr", "simple.copc"])
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
