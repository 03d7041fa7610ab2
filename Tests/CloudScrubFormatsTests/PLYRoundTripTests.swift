import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

@Suite struct PLYRoundTripTests {
  @Test(arguments: [PLYFormat.binaryLittleEndian, .binaryBigEndian, .ascii])
  func randomCloudWithEveryAttributeTypeSurvivesWriteAndRead(format: PLYFormat) throws {
    let cloud = Clouds.random(count: 2_000, seed: 42)
    let bytes = try PLYWriter.encode(
      cloud, options: PLYWriteOptions(format: format, attributes: .all))
    let back = try PLYReader.read(data: bytes).cloud
    #expect(back.isBitwiseEqual(to: cloud))
  }

  @Test func binaryToASCIIToBinaryIsBitExact() throws {
    let cloud = Clouds.random(count: 5_000, seed: 7)
    let all = PLYWriteOptions(attributes: .all)
    let binary = try PLYWriter.encode(cloud, options: all)
    let fromBinary = try PLYReader.read(data: binary).cloud
    let ascii = try PLYWriter.encode(
      fromBinary, options: PLYWriteOptions(format: .ascii, attributes: .all))
    let fromASCII = try PLYReader.read(data: ascii).cloud
    let binaryAgain = try PLYWriter.encode(fromASCII, options: all)
    #expect(binaryAgain == binary)
  }

  @Test func specialFloatsSurviveASCII() throws {
    let values: [Float] = [
      0, -0.0, 1, -1, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, 0.1, 1e-7,
      16_777_218, 3.4028235e38, Float(bitPattern: 0x007F_FFFF), 0.3333333, 123456.79,
    ]
    let cloud = PointCloud(positions: values.map { Point3($0, -$0, $0 * 0.5) })
    let ascii = try PLYWriter.encode(cloud, options: PLYWriteOptions(format: .ascii))
    let back = try PLYReader.read(data: ascii).cloud
    #expect(back.isBitwiseEqual(to: cloud))
  }

  @Test func defaultExportWritesPositionsAndColoursOnly() throws {
    let cloud = Clouds.random(count: 3, seed: 1)
    let bytes = try PLYWriter.encode(cloud)
    let document = try PLYReader.read(data: bytes)
    #expect(document.header.format == .binaryLittleEndian)
    #expect(
      document.header.elements[0].properties.map(\.name)
        == ["x", "y", "z", "red", "green", "blue"])
    #expect(document.cloud.positions == cloud.positions)
    #expect(document.cloud.colors == cloud.colors)
    #expect(document.cloud.normals == nil)
    #expect(document.cloud.attributes.isEmpty)
    // 3 records of 15 bytes after the header.
    #expect(bytes.count - document.header.bodyOffset == 45)
  }

  @Test func namedAttributesAreWrittenInTheCloudsOrder() throws {
    let cloud = Clouds.random(count: 4, seed: 2)
    let options = PLYWriteOptions(attributes: .named(["frame", "normal", "confidence"]))
    let document = try PLYReader.read(data: try PLYWriter.encode(cloud, options: options))
    #expect(
      document.header.elements[0].properties.map(\.name)
        == ["x", "y", "z", "red", "green", "blue", "nx", "ny", "nz", "confidence", "frame"])
    #expect(document.cloud.attribute(named: "frame") == cloud.attribute(named: "frame"))
    #expect(document.cloud.normals == cloud.normals)
  }

  @Test func unknownAttributeIsRefusedWithTheAvailableNames() {
    let cloud = PointCloud(
      positions: [.zero], attributes: [PointAttribute(name: "confidence", values: .uint8([2]))])
    #expect(throws: CloudWriteError.unknownAttribute(name: "intensity", available: ["confidence"]))
    {
      try PLYWriter.encode(cloud, options: PLYWriteOptions(attributes: .named(["intensity"])))
    }
  }

  @Test func hand_encodedBinaryBodyMatchesTheSpec() throws {
    let cloud = PointCloud(positions: [Point3(1, 2, 3)], colors: [RGB8(10, 20, 30)])
    let bytes = try PLYWriter.encode(cloud, options: PLYWriteOptions(comments: ["hello"]))
    let header = """
      ply
      format binary_little_endian 1.0
      comment hello
      element vertex 1
      property float x
      property float y
      property float z
      property uchar red
      property uchar green
      property uchar blue
      end_header

      """
    #expect(Array(bytes.prefix(header.utf8.count)) == Array(header.utf8))
    // 1.0f = 0x3F800000, 2.0f = 0x40000000, 3.0f = 0x40400000, little-endian.
    #expect(
      Array(bytes.suffix(15)) == [
        0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40, 10, 20, 30,
      ])
  }

  @Test func bigEndianBodyIsByteSwapped() throws {
    let cloud = PointCloud(positions: [Point3(1, 2, 3)])
    let bytes = try PLYWriter.encode(cloud, options: PLYWriteOptions(format: .binaryBigEndian))
    #expect(
      Array(bytes.suffix(12)) == [0x3F, 0x80, 0, 0, 0x40, 0, 0, 0, 0x40, 0x40, 0, 0])
  }

  @Test func asciiBodyIsOneRecordALine() throws {
    let cloud = PointCloud(
      positions: [Point3(0.5, -2, 1e-5), Point3(3, 4, 5)], colors: [RGB8(1, 2, 3), RGB8(255, 0, 7)])
    let text = String(
      decoding: try PLYWriter.encode(cloud, options: PLYWriteOptions(format: .ascii)), as: UTF8.self
    )
    #expect(text.hasSuffix("end_header\n0.5 -2.0 1e-05 1 2 3\n3.0 4.0 5.0 255 0 7\n"))
  }

  @Test func emptyCloudWritesAHeaderOnly() throws {
    let bytes = try PLYWriter.encode(PointCloud(colors: []))
    let document = try PLYReader.read(data: bytes)
    #expect(document.cloud.count == 0)
    #expect(document.cloud.colors == [])
    #expect(document.header.bodyOffset == bytes.count)
  }
}
