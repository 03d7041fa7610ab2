import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// XYZ/CSV text written and read, and 3D Gaussian-splat PLY files shown as points.
@Suite struct XYZAndSplatTests {
  static func read(_ text: String) throws(XYZErrorReason) -> PointCloud {
    let bytes = Array(text.utf8)
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(XYZErrorReason) -> PointCloud in try XYZReader.read(bytes: raw).cloud }
    }
    return try result.get()
  }

  @Test func writesXYZRGBLinesAfterCommentLines() throws {
    let cloud = PointCloud(
      positions: [Point3(1, -2.5, 0.125), Point3(0.1, 0, 3)],
      colors: [RGB8(255, 0, 7), RGB8(1, 2, 3)])
    let provenance = ExportProvenance(source: "scan.r3d", frames: "frames 0-9")
    let xyz = String(
      decoding: try EncodedCloudFile.encode(
        cloud, as: XYZRecordEncoder.self, provenance: provenance),
      as: UTF8.self)
    #expect(
      xyz == """
        # exported by CloudScrub from scan.r3d
        # frames 0-9
        # 2 points
        # columns: x y z r g b
        1.0 -2.5 0.125 255 0 7
        0.1 0.0 3.0 1 2 3

        """)
    let csv = String(
      decoding: try EncodedCloudFile.encode(
        cloud, as: CSVRecordEncoder.self, provenance: provenance),
      as: UTF8.self)
    #expect(csv.hasSuffix("# 2 points\nx,y,z,r,g,b\n1.0,-2.5,0.125,255,0,7\n0.1,0.0,3.0,1,2,3\n"))
    #expect(try Self.read(xyz) == cloud)
    #expect(try Self.read(csv) == cloud)
  }

  @Test func readsTextWithOrWithoutColourAndHeader() throws {
    let plain = try Self.read("1 2 3\n4\t5\t6\r\n\n7,8,9")
    #expect(plain.positions == [Point3(1, 2, 3), Point3(4, 5, 6), Point3(7, 8, 9)])
    #expect(plain.colors == nil)
    // Colours in 0…1 are scaled: 0.5 → 127.5 → 128, 0.25 → 63.75 → 64.
    let unit = try Self.read("X,Y,Z,Red,Green,Blue\n1,2,3,0.5,0.25,1\n")
    #expect(unit.colors == [RGB8(128, 64, 255)])
    // Header columns in another order, with an extra one kept as an attribute.
    let named = try Self.read("intensity z y x\n0.5 3 2 1\n")
    #expect(named.positions == [Point3(1, 2, 3)])
    #expect(named.attribute(named: "intensity")?.values == .float32([0.5]))
    // Seven columns without a header: x y z r g b, then column_6.
    let seven = try Self.read("# a comment\n1 2 3 10 20 30 0.75\n")
    #expect(seven.colors == [RGB8(10, 20, 30)])
    #expect(seven.attribute(named: "column_6")?.values == .float32([0.75]))
  }

  @Test func malformedTextNamesTheLine() throws {
    #expect(throws: XYZErrorReason.columnCount(line: 3, expected: 3, got: 2)) {
      try Self.read("1 2 3\n4 5 6\n7 8\n")
    }
    #expect(throws: XYZErrorReason.badNumber(line: 2, column: 1, token: "x")) {
      try Self.read("1 2 3\n4 x 6\n")
    }
    #expect(throws: XYZErrorReason.tooFewColumns(line: 1, got: 2)) { try Self.read("1 2\n") }
    #expect(throws: XYZErrorReason.noPoints) { try Self.read("# nothing\n") }
  }

  @Test func detectionWantsANumberLineAfterAtMostOneHeader() {
    #expect(XYZReader.looksLikeText(Array("x y z\n1 2 3\n".utf8), isWholeFile: true))
    #expect(XYZReader.looksLikeText(Array("# c\n1,2,3".utf8), isWholeFile: true))
    #expect(!XYZReader.looksLikeText(Array("1,2,3".utf8), isWholeFile: false))
    #expect(!XYZReader.looksLikeText(Array("ply\nformat ascii 1.0\n".utf8), isWholeFile: true))
    #expect(!XYZReader.looksLikeText(Array("hello world\n".utf8), isWholeFile: true))
    #expect(!XYZReader.looksLikeText([0x01, 0x02, 0x0A], isWholeFile: true))
  }

  @Test func splatColoursComeFromDegreeZeroAndOpacityFromTheLogit() throws {
    let dc = [Float(0), 1, -5]
    let cloud = PointCloud(
      positions: [Point3(0, 0, 0), Point3(1, 0, 0), Point3(2, 0, 0)],
      attributes: [
        PointAttribute(name: "f_dc_0", values: .float32(dc)),
        PointAttribute(name: "f_dc_1", values: .float32([1, -5, 0])),
        PointAttribute(name: "f_dc_2", values: .float32([-5, 0, 1])),
        PointAttribute(name: "opacity", values: .float32([0, 2, -2])),
        PointAttribute(name: "scale_0", values: .float32([-3, -3, -3])),
      ])
    let bytes = try PLYWriter.encode(cloud, options: PLYWriteOptions(attributes: .all))
    let read = try PLYReader.read(data: bytes).cloud
    #expect(GaussianSplats.isSplatCloud(read))
    let points = GaussianSplats.points(of: read)
    // 0.5 + 0.28209479 × 0 = 0.5 → 128; × 1 → 0.7821 → 199; × −5 → clamped to 0.
    #expect(points.colors == [RGB8(128, 199, 0), RGB8(199, 0, 128), RGB8(0, 128, 199)])
    // sigmoid(0) = 0.5, sigmoid(2) = 0.8808, sigmoid(−2) = 0.1192.
    guard case .float32(let opacity) = points.attribute(named: "opacity")?.values else {
      Issue.record("no float opacity")
      return
    }
    #expect(abs(opacity[0] - 0.5) < 1e-6 && abs(opacity[1] - 0.880797) < 1e-5)
    #expect(abs(opacity[2] - 0.119203) < 1e-5)
    #expect(points.attribute(named: "confidence")?.values == .uint8([1, 2, 0]))
    #expect(points.attribute(named: "scale_0") == cloud.attribute(named: "scale_0"))
    // What the minimum-confidence filter of the window sees.
    #expect(StreamingLoad.confidence(of: points) == [1, 2, 0])
    #expect(
      GaussianSplats.points(of: SyntheticCloud.scene(count: 10)) == SyntheticCloud.scene(count: 10))
  }
}
