import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// ASCII files big enough to be split across cores: every layout reads the same as the
/// one-core token stream would, and errors keep their line numbers.
@Suite struct PLYASCIILargeFileTests {
  static let count = ASCIIVertexReader.parallelThreshold + 1_234

  static let cloud: PointCloud = {
    var cloud = SyntheticCloud.scene(count: count, seed: 11, normals: true)
    cloud.attributes = [
      PointAttribute(
        name: "confidence", values: .uint8((0..<count).map { UInt8($0 % 3) })),
      PointAttribute(
        name: "intensity", values: .float64((0..<count).map { Double($0) / 7 })),
    ]
    return cloud
  }()

  /// The cloud as ASCII PLY text, header and body, with faces after the vertices.
  static func text(lineEnd: String = "\n", recordEnd: (Int) -> String = { _ in "\n" }) throws
    -> String
  {
    let bytes = try PLYWriter.encode(
      cloud, options: PLYWriteOptions(format: .ascii, attributes: .all))
    let whole = String(decoding: bytes, as: UTF8.self)
    guard let split = whole.range(of: "end_header\n") else { throw PLYError.notPLY }
    let header =
      whole[..<split.lowerBound]
      .replacingOccurrences(of: "end_header", with: "")
      + "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
    var body = ""
    for (index, line) in whole[split.upperBound...].split(separator: "\n").enumerated() {
      body += line + recordEnd(index)
    }
    body += "3 0 1 2\n3 2 1 0\n"
    return (header + body).replacingOccurrences(of: "\n", with: lineEnd)
  }

  private func read(_ text: String) throws(PLYError) -> PointCloud {
    try PLYReader.read(data: Array(text.utf8)).cloud
  }

  @Test func oneRecordALineReadsExactly() throws {
    let back = try read(try Self.text())
    #expect(back.isBitwiseEqual(to: Self.cloud))
  }

  @Test func crlfLineEndsReadExactly() throws {
    let back = try read(try Self.text(lineEnd: "\r\n"))
    #expect(back.isBitwiseEqual(to: Self.cloud))
  }

  @Test func recordsSpanningLinesFallBackToTheTokenStream() throws {
    // Every 997th record is broken over two lines after its third value.
    var lines = try Self.text().split(separator: "\n", omittingEmptySubsequences: false)
    let headerLines = lines.firstIndex(of: "end_header").map { $0 + 1 } ?? 0
    var broken = 0
    for record in stride(from: 5, to: Self.count, by: 997) {
      var fields = lines[headerLines + record].split(separator: " ")
      fields[3] = "\n" + fields[3]
      lines[headerLines + record] = fields.joined(separator: " ")[...]
      broken += 1
    }
    let text = lines.joined(separator: "\n")
    #expect(text.split(separator: "\n").count == lines.count - 1 + broken)
    let back = try read(text)
    #expect(back.isBitwiseEqual(to: Self.cloud))
  }

  @Test func blankLinesBetweenRecordsFallBackToTheTokenStream() throws {
    let back = try read(try Self.text(recordEnd: { $0 % 5_000 == 4_999 ? "\n\n" : "\n" }))
    #expect(back.isBitwiseEqual(to: Self.cloud))
  }

  @Test func twoRecordsOnOneLineFallBackToTheTokenStream() throws {
    let back = try read(try Self.text(recordEnd: { $0 == 30_000 ? " " : "\n" }))
    #expect(back.isBitwiseEqual(to: Self.cloud))
  }

  @Test func aBadNumberDeepInTheFileNamesItsLine() throws {
    var lines = try Self.text().split(separator: "\n", omittingEmptySubsequences: false)
    let headerLines = lines.firstIndex(of: "end_header").map { $0 + 1 } ?? 0
    let record = 40_000
    var fields = lines[headerLines + record].split(separator: " ")
    fields[2] = "zz"
    lines[headerLines + record] = fields.joined(separator: " ")[...]
    #expect(
      throws: PLYError.badNumber(
        token: "zz", line: headerLines + record + 1, element: "vertex", property: "z")
    ) {
      try read(lines.joined(separator: "\n"))
    }
  }

  @Test func aFileCutInsideTheVerticesNamesTheRecord() throws {
    let text = try Self.text()
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let headerLines = lines.firstIndex(of: "end_header").map { $0 + 1 } ?? 0
    lines = Array(lines.prefix(headerLines + 45_000))
    let cut = lines.joined(separator: "\n") + "\n1.5 2"
    #expect(
      throws: PLYError.truncated(element: "vertex", index: 45_000, byteOffset: cut.utf8.count)
    ) {
      try read(cut)
    }
  }

  @Test func noFinalNewlineAndNoFacesStillReads() throws {
    let bytes = try PLYWriter.encode(Self.cloud, options: PLYWriteOptions(format: .ascii))
    let back = try PLYReader.read(data: Array(bytes.dropLast())).cloud
    #expect(back.positions == Self.cloud.positions)
    #expect(back.colors == Self.cloud.colors)
  }
}
