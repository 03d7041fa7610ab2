import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// Damaged and hostile E57 files: each is refused with an error that names what is
/// wrong and where, before anything large is allocated.
@Suite struct E57CorruptFileTests {
  /// The reason `E57Reader` gives for the file `bytes`, or nil when it reads.
  func reason(_ bytes: [UInt8]) throws -> E57ErrorReason? {
    let path = try E57TestFiles.write(bytes)
    do {
      _ = try E57Reader.contents(of: path)
      return nil
    } catch let error as E57Error {
      #expect(error.description.hasSuffix(": " + path))
      return error.reason
    }
  }

  func written(_ cloud: PointCloud = E57WriterTests.helix) throws -> [UInt8] {
    let url = try E57WriterTests.folder().appendingPathComponent("w.e57")
    try E57Writer.write(cloud: cloud, provenance: E57Provenance(), to: url)
    return Array(try Data(contentsOf: url))
  }

  /// `bytes` with `replacement` at `offset` and the page's checksum made right again.
  func patched(_ bytes: [UInt8], at offset: Int, with replacement: [UInt8]) -> [UInt8] {
    var out = bytes
    out.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
    let start = offset / 1024 * 1024
    let crc = E57TestFiles.crc32c(out[start..<(start + 1020)])
    for k in 0..<4 { out[start + 1020 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
    return out
  }

  @Test func aFlippedByteIsReportedWithItsPage() throws {
    var bytes = try written()
    bytes[3 * 1024 + 100] ^= 0x40
    guard case .checksumMismatch(let page, _, _)? = try reason(bytes) else {
      Issue.record("no checksum error")
      return
    }
    #expect(page == 3)
  }

  @Test func aTruncatedFileIsRefusedByItsDeclaredLength() throws {
    let bytes = try written()
    #expect(
      try reason(Array(bytes[0..<(20 * 1024)]))
        == .lengthMismatch(declaredBytes: UInt64(bytes.count), fileBytes: 20 * 1024))
    #expect(
      try reason(Array(bytes[0..<500]))
        == .truncated(what: "the first page", neededBytes: 1024, fileBytes: 500))
    #expect(try reason(Array("ply\nformat ascii 1.0\n".utf8)) == .notE57)
  }

  @Test func aHugeRecordCountIsRefusedBeforeAllocating() throws {
    let prototype = """
      <cartesianX type="Float"/><cartesianY type="Float"/><cartesianZ type="Float"/>
      """
    let packet = E57TestFiles.dataPacket([
      [UInt8](repeating: 0, count: 24), [UInt8](repeating: 0, count: 24),
      [UInt8](repeating: 0, count: 24),
    ])
    let bytes = E57TestFiles.file(sections: [[packet]]) {
      E57TestFiles.xml(scans: [
        E57TestFiles.scan(offset: $0[0], count: 4_000_000_000_000, prototype: prototype)
      ])
    }
    // An 84-byte packet holds at most 84 × 8 / 192 = 3 records of three doubles.
    #expect(
      try reason(bytes)
        == .implausibleRecordCount(scan: 0, recordCount: 4_000_000_000_000, limit: 3))
  }

  /// An empty packet (type 2) of `bytes` bytes: room in the section that holds no data.
  func emptyPacket(_ bytes: Int) -> [UInt8] {
    [2, 0] + E57TestFiles.littleEndian(UInt16(bytes - 1)) + [UInt8](repeating: 0, count: bytes - 4)
  }

  @Test func aSectionThatEndsEarlyNamesThePointsRead() throws {
    let prototype = """
      <cartesianX type="Float"/><cartesianY type="Float"/><cartesianZ type="Float"/>
      """
    let eight = [UInt8](repeating: 0, count: 8)
    let packet = E57TestFiles.dataPacket([eight + eight, eight + eight, eight + eight])
    let bytes = E57TestFiles.file(sections: [[packet, emptyPacket(32)]]) {
      E57TestFiles.xml(scans: [E57TestFiles.scan(offset: $0[0], count: 3, prototype: prototype)])
    }
    guard case .badPacket(0, _, let message)? = try reason(bytes) else {
      Issue.record("no packet error")
      return
    }
    #expect(message == "the section ends after 2 of 3 points")
  }

  @Test func aPacketWithTheWrongStreamCountIsRefused() throws {
    let prototype = """
      <cartesianX type="Float"/><cartesianY type="Float"/><cartesianZ type="Float"/>
      """
    let packet = E57TestFiles.dataPacket([[UInt8](repeating: 0, count: 8)])
    let bytes = E57TestFiles.file(sections: [[packet, emptyPacket(64)]]) {
      E57TestFiles.xml(scans: [E57TestFiles.scan(offset: $0[0], count: 1, prototype: prototype)])
    }
    guard case .badPacket(0, _, let message)? = try reason(bytes) else {
      Issue.record("no packet error")
      return
    }
    #expect(message == "holds 1 byte streams, the prototype has 3 fields")
  }

  @Test func deepXMLIsRefusedAtItsLimit() throws {
    let deep =
      String(repeating: "<a type=\"Structure\">", count: 100)
      + String(repeating: "</a>", count: 100)
    let bytes = E57TestFiles.file(sections: []) { _ in
      "<e57Root type=\"Structure\">" + deep + "</e57Root>"
    }
    #expect(try reason(bytes) == .xmlTooDeep(limit: 64))
  }

  @Test func anXMLSectionClaimingTooManyBytesIsRefused() throws {
    let bytes = try written(PointCloud(positions: [Point3(1, 2, 3)]))
    let huge = E57TestFiles.littleEndian(UInt64(1) << 40)
    #expect(
      try reason(patched(bytes, at: 32, with: huge))
        == .xmlTooLarge(bytes: 1 << 40, limitBytes: E57Reader.maximumXMLBytes))
    // 60 MB of XML claimed in a one-page file: refused before 60 MB are allocated.
    let long = E57TestFiles.littleEndian(UInt64(60 << 20))
    guard
      case .truncated(what: "the XML section", _, _)? = try reason(
        patched(bytes, at: 32, with: long))
    else {
      Issue.record("no truncation error")
      return
    }
    let past = E57TestFiles.littleEndian(UInt64(1) << 30)
    #expect(
      try reason(patched(bytes, at: 24, with: past))
        == .badOffset(what: "XML section", offset: 1 << 30))
  }

  @Test func malformedXMLNamesWhatIsWrong() throws {
    let cases: [(String, String)] = [
      (
        "<!DOCTYPE e57Root [<!ENTITY a \"b\">]><e57Root/>",
        "a document type declaration or other '<!' markup before the root"
      ),
      ("<e57Root type=\"Structure\"><data3D></e57Root>", "</e57Root> closes <data3D>"),
      ("<e57Root type=\"Structure\">&bogus;</e57Root>", "unknown reference &bogus;"),
    ]
    for (xml, message) in cases {
      let bytes = E57TestFiles.file(sections: []) { _ in xml }
      guard case .xmlSyntax(_, let got)? = try reason(bytes) else {
        Issue.record("no syntax error for \(xml)")
        continue
      }
      #expect(got == message)
    }
  }

  @Test func aScanWithoutPointsOrCoordinatesIsNamed() throws {
    let noPoints = E57TestFiles.file(sections: []) { _ in
      E57TestFiles.xml(scans: [
        "<vectorChild type=\"Structure\"><name type=\"String\"/></vectorChild>"
      ])
    }
    #expect(try reason(noPoints) == .missingElement(path: "/e57Root/data3D/0/points"))
    let packet = E57TestFiles.dataPacket([[1]])
    let rowsOnly = E57TestFiles.file(sections: [[packet]]) {
      E57TestFiles.xml(scans: [
        E57TestFiles.scan(
          offset: $0[0], count: 1,
          prototype: "<rowIndex type=\"Integer\" minimum=\"0\" maximum=\"255\"/>")
      ])
    }
    #expect(try reason(rowsOnly) == .noCoordinates(scan: 0, fields: ["rowIndex"]))
  }
}
