import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// PCD v0.7 written and read: hand-worked bytes, round trips of every field type, and
/// malformed files that name what is wrong.
@Suite struct PCDFormatTests {
  static let provenance = ExportProvenance(source: "test.ply", frames: "frames 0-1")

  static func read(_ bytes: [UInt8]) throws(PCDErrorReason) -> PointCloud {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(PCDErrorReason) -> PointCloud in try PCDReader.read(bytes: raw).cloud }
    }
    return try result.get()
  }

  @Test func binaryRecordIsXYZThenPCLsPackedRGB() throws {
    let cloud = PointCloud(positions: [Point3(1, 2, 3)], colors: [RGB8(255, 0, 128)])
    let bytes = try EncodedCloudFile.encode(
      cloud, as: PCDRecordEncoder.self, provenance: Self.provenance)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.hasPrefix("# .PCD v0.7 - Point Cloud Data file format\n# exported by CloudScrub"))
    #expect(text.contains("\nFIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F F\nCOUNT 1 1 1 1\n"))
    #expect(text.contains("\nWIDTH 1\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS 1\nDATA binary\n"))
    // 1.0, 2.0, 3.0 as little-endian floats, then 0x00FF0080.
    #expect(
      Array(bytes.suffix(16)) == [
        0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 0x80, 0x00, 0xFF, 0x00,
      ])
    #expect(try Self.read(bytes) == cloud)
  }

  @Test func asciiWritesRGBAsThePackedIntegerAsPCLAndOpen3DDo() throws {
    let cloud = PointCloud(positions: [Point3(1, 2, 3)], colors: [RGB8(255, 0, 128)])
    let bytes = try EncodedCloudFile.encode(
      cloud, as: PCDRecordEncoder.self, provenance: Self.provenance,
      options: CloudWriteOptions(ascii: true))
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("TYPE F F F U\n"))
    #expect(text.hasSuffix("DATA ascii\n1.0 2.0 3.0 16711808\n"))
    #expect(try Self.read(bytes) == cloud)
  }

  @Test(arguments: [false, true])
  func everyFieldTypeRoundTripsBitForBit(ascii: Bool) throws {
    let cloud = Clouds.random(count: 300, seed: 7)
    let bytes = try EncodedCloudFile.encode(
      cloud, as: PCDRecordEncoder.self, provenance: Self.provenance,
      options: CloudWriteOptions(ascii: ascii, attributes: .all))
    let back = try Self.read(bytes)
    #expect(back.isBitwiseEqual(to: cloud))
  }

  @Test func pclStyleHeaderWithPaddingCountsAndRGBAReads() throws {
    // An organised 2×1 cloud as PCL writes PointXYZRGBA with padding, in ASCII.
    let text = """
      # .PCD v0.7 - Point Cloud Data file format
      VERSION 0.7
      FIELDS x y z _ rgba histogram
      SIZE 4 4 4 1 4 4
      TYPE F F F U U F
      COUNT 1 1 1 4 1 2
      WIDTH 2
      HEIGHT 1
      VIEWPOINT 0 0 0 1 0 0 0
      POINTS 2
      DATA ascii
      0.5 -1.25 2 0 0 0 0 4278255360 0.5 1.5
      nan nan nan 0 0 0 0 4294901760 2 3

      """
    let cloud = try Self.read(Array(text.utf8))
    #expect(cloud.count == 2)
    #expect(cloud.positions[0] == Point3(0.5, -1.25, 2))
    #expect(cloud.positions[1].x.isNaN)
    // 0xFF00FF00 → r 0, g 255, b 0; 0xFFFF0000 → r 255.
    #expect(cloud.colors == [RGB8(0, 255, 0), RGB8(255, 0, 0)])
    #expect(cloud.attributes.map(\.name) == ["histogram_0", "histogram_1"])
    #expect(cloud.attribute(named: "histogram_1")?.values == .float32([1.5, 3]))
  }

  @Test func compressedDataWithoutLZFSaysSo() throws {
    var bytes = Array(
      "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nWIDTH 1\nPOINTS 1\nDATA binary_compressed\n"
        .utf8)
    bytes += [4, 0, 0, 0, 12, 0, 0, 0, 1, 2, 3, 4]
    #expect(throws: PCDErrorReason.compressedNeedsLZF) { try Self.read(bytes) }
  }

  @Test func malformedFilesNameWhatAndWhere() throws {
    let head = "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\n"
    let cases: [(String, PCDErrorReason)] = [
      (
        head + "WIDTH 1000000000\nHEIGHT 1\nPOINTS 1000000000\nDATA binary\n",
        .truncated(points: 1_000_000_000, expectedBytes: 12_000_000_000, availableBytes: 0)
      ),
      (
        head + "WIDTH 2\nHEIGHT 1\nPOINTS 3\nDATA binary\n",
        .pointCount(points: 3, width: 2, height: 1)
      ),
      (
        head + "WIDTH 2\nPOINTS 2\nDATA ascii\n1 2 3\n10 20\n",
        .valueCount(line: 9, expected: 3, got: 2)
      ),
      (
        head + "WIDTH 1\nPOINTS 1\nDATA ascii\n1 two 3\n",
        .badNumber(line: 8, field: "y", token: "two")
      ),
      (
        "VERSION 0.7\nFIELDS x y\nSIZE 4 4 4\n",
        .fieldListLength(line: 3, keyword: "SIZE", expected: 2, got: 3)
      ),
      (head + "WIDTH 1\nPOINTS 1\nDATA lzma\n", .unknownData("lzma")),
      (
        "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 3\nTYPE F F F\nWIDTH 1\nDATA binary\n",
        .unsupportedType(field: "z", type: "F", size: 3)
      ),
      ("VERSION 0.7\nFIELDS x y z\n", .noDataLine(limitBytes: PCDHeader.maxHeaderBytes)),
    ]
    for (text, expected) in cases {
      #expect(throws: expected, "\(text)") { try Self.read(Array(text.utf8)) }
    }
  }

  @Test func streamedPiecesWriteTheWholeCloudsBytes() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let cloud = SyntheticCloud.scene(count: 5_000, normals: true)
    for writer in [PCDFormatWriter(), LASFormatWriter(), XYZFormatWriter()]
      as [any CloudFormatWriter]
    {
      let whole = folder.appendingPathComponent("whole.\(writer.extensions[0])").path
      let streamed = folder.appendingPathComponent("streamed.\(writer.extensions[0])").path
      let options = CloudWriteOptions(attributes: .all)
      try writer.write(
        cloud, provenance: Self.provenance, options: options, to: whole, inputs: [],
        progress: nil)
      let stream = try writer.streamWriter(
        path: streamed, fields: cloud.subset(indices: []), options: options, inputs: [])
      for start in stride(from: 0, to: cloud.count, by: 1_700) {
        try stream.append(cloud.subset(indices: Array(start..<min(start + 1_700, cloud.count))))
      }
      try stream.finish(provenance: Self.provenance, progress: nil)
      let a = try Data(contentsOf: URL(fileURLWithPath: whole))
      let b = try Data(contentsOf: URL(fileURLWithPath: streamed))
      #expect(a.count > 50_000)
      #expect(a == b, "\(writer.name)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(left.count == 6, "no spool left: \(left)")
  }
}

/// Found by the `pcd` fuzz target: a second FIELDS line after SIZE, TYPE and COUNT.
@Suite struct PCDRedefinedFieldsTests {
  @Test func aSecondFieldsLineWithMoreNamesIsAnErrorNotATrap() {
    let text = """
      VERSION 0.7
      FIELDS x y z
      SIZE 4 4 4
      TYPE F F F
      FIELDS x y z w
      WIDTH 1
      DATA binary

      """
    #expect(throws: PCDErrorReason.fieldListLength(line: 7, keyword: "SIZE", expected: 4, got: 3)) {
      try PCDFormatTests.read(Array(text.utf8))
    }
  }
}
