import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// LAS 1.4 point format 7 written, LAS 1.2–1.4 read: hand-worked records, files laid
/// out by hand in older point formats, and malformed ones.
@Suite struct LASFormatTests {
  static let provenance = ExportProvenance(source: "test.ply", cleaning: "voxel 0.01 m")

  static func read(_ bytes: [UInt8]) throws(LASErrorReason) -> LASReader.Document {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(LASErrorReason) -> LASReader.Document in try LASReader.read(bytes: raw) }
    }
    return try result.get()
  }

  static func le<T: FixedWidthInteger>(_ bytes: [UInt8], _ at: Int, _: T.Type) -> T {
    bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: T.self)) }
  }

  @Test func recordIsTenthMillimetreStepsFromTheFirstPointRoundedToTheMetre() throws {
    let cloud = PointCloud(
      positions: [Point3(1.23456, -0.5, 10.00004), Point3(2, 0, 10)],
      colors: [RGB8(255, 128, 0), RGB8(1, 2, 3)],
      attributes: [PointAttribute(name: "confidence", values: .uint8([2, 1]))])
    let bytes = try EncodedCloudFile.encode(
      cloud, as: LASRecordEncoder.self, provenance: Self.provenance,
      options: CloudWriteOptions(attributes: .all))
    #expect(bytes.starts(with: Array("LASF".utf8)))
    #expect(bytes[24] == 1 && bytes[25] == 4 && bytes[104] == 7)
    #expect(Self.le(bytes, 105, UInt16.self) == 37)  // 36 + one extra byte
    #expect(Self.le(bytes, 247, UInt64.self) == 2)
    let start = Int(Self.le(bytes, 96, UInt32.self))
    #expect(bytes.count == start + 2 * 37)
    // Offset (1, -1, 10): x = round(0.2345600128 / 0.0001) = 2346, y = 5000, z = 0.
    #expect(Self.le(bytes, start, Int32.self) == 2346)
    #expect(Self.le(bytes, start + 4, Int32.self) == 5000)
    #expect(Self.le(bytes, start + 8, Int32.self) == 0)
    #expect(bytes[start + 14] == 0x11)  // return 1 of 1
    #expect(Self.le(bytes, start + 30, UInt16.self) == 65535)
    #expect(Self.le(bytes, start + 32, UInt16.self) == 32896)  // 128 × 257
    #expect(bytes[start + 36] == 2)
    let document = try Self.read(bytes)
    #expect(document.header.versionMinor == 4 && document.header.pointFormat == 7)
    #expect(document.header.provenance == Self.provenance.lines.joined(separator: "\n"))
    #expect(document.cloud.colors == cloud.colors)
    #expect(document.cloud.attribute(named: "confidence")?.values == .uint8([2, 1]))
    #expect(document.cloud.positions[0] == Point3(1.2346, -0.5, 10))
    // Bounds in the header: max x 2, min x 1.2346.
    let maxX = Double(bitPattern: Self.le(bytes, 179, UInt64.self))
    let minX = Double(bitPattern: Self.le(bytes, 187, UInt64.self))
    #expect(abs(maxX - 2) < 1e-9 && abs(minX - 1.2346) < 1e-9)
  }

  /// Intensity goes into the records' own field at byte 12, not the extra bytes: 16-bit
  /// values as they are, larger ones kept within 16 bits, floats within 0…1 scaled.
  @Test func intensityIsTheRecordsOwnField() throws {
    let positions = [Point3(0, 0, 0), Point3(1, 0, 0), Point3(2, 0, 0)]
    let cases: [(AttributeValues, [UInt16])] = [
      (.uint16([0, 513, 65_535]), [0, 513, 65_535]),
      (.int32([-4, 70_000, 12]), [0, 65_535, 12]),
      (.float32([0, 0.5, 1]), [0, 32_768, 65_535]),  // 0.5 × 65,535 = 32,767.5
      (.float64([2.4, 300, 7]), [2, 300, 7]),
    ]
    for (name, (values, stored)) in zip(
      ["intensity", "Intensity", "scalar_Intensity", "intensity"], cases)
    {
      let cloud = PointCloud(
        positions: positions, colors: nil,
        attributes: [
          PointAttribute(name: "confidence", values: .uint8([2, 1, 0])),
          PointAttribute(name: name, values: values),
        ])
      let bytes = try EncodedCloudFile.encode(
        cloud, as: LASRecordEncoder.self, provenance: Self.provenance,
        options: CloudWriteOptions(attributes: .all))
      // Only confidence follows as an extra byte.
      #expect(Self.le(bytes, 105, UInt16.self) == 37, "\(values)")
      let start = Int(Self.le(bytes, 96, UInt32.self))
      let written = (0..<3).map { Self.le(bytes, start + 37 * $0 + 12, UInt16.self) }
      #expect(written == stored, "\(values)")
      let document = try Self.read(bytes)
      #expect(document.cloud.attribute(named: "intensity")?.values == .uint16(stored))
    }
  }

  @Test func noPointMovesMoreThanATenthOfAMillimetre() throws {
    var cloud = SyntheticCloud.scene(count: 20_000, normals: true)
    cloud.positions = cloud.positions.map { Point3($0.x + 1234.5678, $0.y - 87.654, $0.z + 0.3) }
    cloud.attributes = [
      PointAttribute(name: "frame", values: .uint32((0..<UInt32(cloud.count)).map { $0 / 100 }))
    ]
    let bytes = try EncodedCloudFile.encode(
      cloud, as: LASRecordEncoder.self, provenance: Self.provenance,
      options: CloudWriteOptions(attributes: .all))
    let back = try Self.read(bytes).cloud
    let worst =
      zip(cloud.positions, back.positions).map { a, b in
        max(
          abs(Double(a.x) - Double(b.x)), abs(Double(a.y) - Double(b.y)),
          abs(Double(a.z) - Double(b.z)))
      }.max() ?? 0
    // 0.05 mm of rounding plus the float spacing at 1234 m (0.12 mm / 2).
    #expect(worst <= 0.0001 + 0.0000611, "worst \(worst) m")
    #expect(back.colors == cloud.colors)
    #expect(back.normals == cloud.normals)
    #expect(back.attribute(named: "frame") == cloud.attribute(named: "frame"))
  }

  /// A LAS 1.2 file laid out by hand: header 227 bytes, no VLRs, `points` records.
  static func las12(format: UInt8, recordLength: Int, records: [[UInt8]], flags: UInt8 = 0)
    -> [UInt8]
  {
    var h = [UInt8](repeating: 0, count: 227)
    func put<T: FixedWidthInteger>(_ value: T, _ at: Int) {
      withUnsafeBytes(of: value.littleEndian) { for (k, b) in $0.enumerated() { h[at + k] = b } }
    }
    h.replaceSubrange(0..<4, with: Array("LASF".utf8))
    h[24] = 1
    h[25] = 2
    put(UInt16(227), 94)
    put(UInt32(227), 96)
    h[104] = format | flags
    put(UInt16(recordLength), 105)
    put(UInt32(records.count), 107)
    for (axis, scale) in [0.01, 0.01, 0.001].enumerated() { put(scale.bitPattern, 131 + 8 * axis) }
    for (axis, offset) in [100.0, 200.0, 0].enumerated() { put(offset.bitPattern, 155 + 8 * axis) }
    return h + records.flatMap { $0 }
  }

  static func record(_ x: Int32, _ y: Int32, _ z: Int32, length: Int, rgbAt: Int?, _ rgb: [UInt16])
    -> [UInt8]
  {
    var r = [UInt8](repeating: 0, count: length)
    func put<T: FixedWidthInteger>(_ value: T, _ at: Int) {
      withUnsafeBytes(of: value.littleEndian) { for (k, b) in $0.enumerated() { r[at + k] = b } }
    }
    put(x, 0)
    put(y, 4)
    put(z, 8)
    if let rgbAt { for (k, c) in rgb.enumerated() { put(c, rgbAt + 2 * k) } }
    return r
  }

  @Test func olderPointFormatsReadWithTheirColours() throws {
    // Format 2 (26 bytes, RGB at 20) with 8-bit values in the 16-bit fields.
    let format2 = Self.las12(
      format: 2, recordLength: 26,
      records: [
        Self.record(150, -250, 1234, length: 26, rgbAt: 20, [200, 100, 50]),
        Self.record(0, 0, 0, length: 26, rgbAt: 20, [0, 255, 1]),
      ])
    let two = try Self.read(format2).cloud
    #expect(two.positions[0] == Point3(101.5, 197.5, 1.234))
    #expect(two.colors == [RGB8(200, 100, 50), RGB8(0, 255, 1)])
    // Format 3 (34 bytes, RGB at 28) with 16-bit colour.
    let format3 = Self.las12(
      format: 3, recordLength: 34,
      records: [Self.record(1, 2, 3, length: 34, rgbAt: 28, [51400, 65535, 256])])
    #expect(try Self.read(format3).cloud.colors == [RGB8(200, 255, 1)])
    // Format 1 (28 bytes) has no colour; a longer record than the format's is fine.
    let format1 = Self.las12(
      format: 1, recordLength: 30, records: [Self.record(-100, 0, 0, length: 30, rgbAt: nil, [])])
    let one = try Self.read(format1).cloud
    #expect(one.positions == [Point3(99, 200, 0)] && one.colors == nil)
  }

  @Test func brokenFilesAreRefusedWithTheReason() throws {
    let record = Self.record(1, 2, 3, length: 26, rgbAt: 20, [1, 2, 3])
    let laz = Self.las12(format: 2, recordLength: 26, records: [record], flags: 0x80)
    #expect(
      throws: LASErrorReason.laz(
        "its point format byte says compressed, but it has no laszip record")
    ) { try Self.read(laz) }
    // A file that stops part-way reads its complete records and says what is missing,
    // as PDAL and laspy read it.
    let cut = Array(Self.las12(format: 2, recordLength: 26, records: [record, record]).dropLast(5))
    let partial = try Self.read(cut)
    #expect(partial.cloud.count == 1 && partial.header.points == 1)
    #expect(
      partial.notes == [
        "the file holds 1 of the 2 points its header promises: it stops 26 bytes short of them"
      ])
    // A VLR count that overruns the points: the VLRs that fit, the points from their offset.
    var overrun = Self.las12(format: 2, recordLength: 26, records: [record])
    overrun.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(2).littleEndian, toByteOffset: 100, as: UInt32.self)
    }
    let fits = try Self.read(overrun)
    #expect(fits.cloud.positions == [Point3(100.01, 200.02, 0.003)])
    #expect(
      fits.notes == [
        "the header lists 2 variable-length records, 0 fit before byte 227 (the points); the "
          + "rest are not read"
      ])
    let empty = try Self.read(
      Array(Self.las12(format: 2, recordLength: 26, records: [record]).prefix(227)))
    #expect(empty.cloud.count == 0)
    #expect(empty.notes.first?.hasPrefix("the file holds 0 of the 1 points") == true)
    #expect(
      LASErrorReason.truncated(what: "points", offset: 227, neededBytes: 52, fileBytes: 274)
        .description
        == "LAS points at byte 227 needs 52 bytes; the file (274 bytes) is 5 bytes short")
    let short = Self.las12(format: 2, recordLength: 12, records: [])
    #expect(throws: LASErrorReason.recordLength(format: 2, length: 12, minimum: 26)) {
      try Self.read(short)
    }
    #expect(throws: LASErrorReason.unsupportedPointFormat(11)) {
      try Self.read(Self.las12(format: 11, recordLength: 80, records: []))
    }
    #expect(throws: LASErrorReason.notLAS) { try Self.read(Array("LASX".utf8)) }
  }

  @Test func pointsFartherThan214KilometresFromTheFirstAreRefused() throws {
    let cloud = PointCloud(positions: [Point3(0, 0, 0), Point3(300_000, 0, 0)])
    #expect(
      throws: LASErrorReason.coordinateOutOfRange(point: 1, axis: "x", value: 300_000)
    ) {
      try EncodedCloudFile.encode(cloud, as: LASRecordEncoder.self, provenance: Self.provenance)
    }
  }
}
