import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// Normals (`nor:normalX/Y/Z`, the libE57 extension CloudCompare writes) and the
/// project's attributes (`cloudscrub:NAME` in their own types) through the E57 writer
/// and reader, on hand-made values.
@Suite struct E57NormalsAttributesTests {
  /// Four points whose every field is a value worked out by hand: unit normals along
  /// the axes and on the 3-4-5 triangle, each integer type at its ends.
  static let cloud = PointCloud(
    positions: [Point3(1, 2, 3), Point3(-4, 0.5, 0), Point3(0, 0, -2), Point3(7, -1, 0.25)],
    colors: [RGB8(255, 0, 0), RGB8(0, 255, 0), RGB8(0, 0, 255), RGB8(10, 20, 30)],
    normals: [Point3(0, 0, 1), Point3(0.6, 0.8, 0), Point3(-1, 0, 0), Point3(0, -0.6, 0.8)],
    attributes: [
      PointAttribute(name: "confidence", values: .uint8([0, 1, 2, 2])),
      PointAttribute(name: "frame", values: .uint32([0, 7, 4_294_967_295, 12])),
      PointAttribute(name: "offset", values: .int16([-32768, -1, 0, 32767])),
      PointAttribute(name: "tilt", values: .int8([-128, -1, 0, 127])),
      PointAttribute(name: "opacity", values: .float32([0, 0.25, 1, -0.5])),
      PointAttribute(name: "time", values: .float64([1e-300, 2.5, -3, 1e300])),
      PointAttribute(name: "id", values: .int32([Int32.min, -7, 0, Int32.max])),
      PointAttribute(name: "count", values: .uint16([0, 1, 65535, 300])),
    ])

  /// The file's XML section, read through its pages (whose checksums interrupt it in
  /// the file's bytes).
  static func xml(_ url: URL) throws -> String {
    let file = try E57PagedFile(path: url.path)
    let start = try file.logicalOffset(ofPhysical: file.header.xmlPhysicalOffset, what: "XML")
    let bytes = try file.bytes(
      logical: start, count: Int(file.header.xmlLogicalLength), what: "XML")
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func everyFieldReadsBackInItsOwnType() throws {
    let url = try E57WriterTests.folder().appendingPathComponent("fields.e57")
    try E57Writer.write(cloud: Self.cloud, provenance: E57Provenance(), to: url)
    let back = try E57Reader.read(url: url)
    #expect(back == Self.cloud)
  }

  @Test func thePrototypeDeclaresTheNormalsExtensionAndEachTypesRange() throws {
    let url = try E57WriterTests.folder().appendingPathComponent("fields.e57")
    try E57Writer.write(cloud: Self.cloud, provenance: E57Provenance(), to: url)
    let contents = try E57Reader.contents(of: url.path)
    #expect(
      contents.scans.first?.fieldNames == [
        "cartesianX", "cartesianY", "cartesianZ", "colorRed", "colorGreen", "colorBlue",
        "nor:normalX", "nor:normalY", "nor:normalZ", "cloudscrub:confidence", "cloudscrub:frame",
        "cloudscrub:offset", "cloudscrub:tilt", "cloudscrub:opacity", "cloudscrub:time",
        "cloudscrub:id", "cloudscrub:count", "cartesianInvalidState",
      ])
    let text = try Self.xml(url)
    #expect(text.contains(" xmlns:nor=\"http://www.libe57.org/E57_NOR_surface_normals.txt\""))
    #expect(
      text.contains(
        "<nor:normalX type=\"Float\" precision=\"single\" minimum=\"-1\" maximum=\"1\"/>"))
    #expect(
      text.contains("<cloudscrub:frame type=\"Integer\" minimum=\"0\" maximum=\"4294967295\"/>"))
    #expect(
      text.contains("<cloudscrub:offset type=\"Integer\" minimum=\"-32768\" maximum=\"32767\"/>"))
    #expect(text.contains("<cloudscrub:time type=\"Float\"/>"))
  }

  @Test func aCloudWithoutNormalsDeclaresNoNormalsNamespace() throws {
    let url = try E57WriterTests.folder().appendingPathComponent("plain.e57")
    try E57Writer.write(cloud: E57WriterTests.helix, provenance: E57Provenance(), to: url)
    #expect(!(try Self.xml(url)).contains("xmlns:nor"))
    #expect(try E57Reader.read(url: url).normals == nil)
  }

  /// 10 000 points with normals and two attributes: more than two data packets, each
  /// record 15 + 12 + 5 bytes.
  @Test func fieldsSurviveRecordsSplitAcrossPackets() throws {
    var cloud = E57WriterTests.helix
    cloud.normals = cloud.positions.map { p in
      let length = (p.x * p.x + p.y * p.y).squareRoot()
      return Point3(p.x / length, p.y / length, 0)
    }
    cloud.attributes = [
      PointAttribute(name: "confidence", values: .uint8((0..<cloud.count).map { UInt8($0 % 3) })),
      PointAttribute(name: "frame", values: .uint32((0..<cloud.count).map { UInt32($0 / 7) })),
    ]
    let url = try E57WriterTests.folder().appendingPathComponent("helix.e57")
    try E57Writer.write(cloud: cloud, provenance: E57Provenance(), to: url)
    #expect(try E57Reader.read(url: url) == cloud)
  }

  /// One scan per frame: normals turn into each camera's coordinates with the points,
  /// and back into the world on reading.
  @Test func perFrameScansTurnNormalsWithTheirPose() throws {
    let poses = [
      Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(1, 0, 0)),
      Transform3D(axisAngle: SIMD3(Double.pi, 0, 0), translation: SIMD3(0, 2, 0)),
    ]
    var cloud = Self.cloud
    cloud.attributes = [
      PointAttribute(name: "frame", values: .uint32([0, 1, 0, 1])),
      PointAttribute(name: "confidence", values: .uint8([2, 1, 0, 2])),
    ]
    let scans = E57Scan.perFrame(cloud) { poses[$0] }
    // A 90° turn about z takes world (0, 0, 1) to itself and (−1, 0, 0) to (0, 1, 0) in
    // the first camera; a half turn about x takes (0.6, 0.8, 0) to (0.6, −0.8, 0).
    let first = try #require(scans.first?.cloud.normals)
    #expect(abs(first[0].z - 1) < 1e-6 && abs(first[1].y - 1) < 1e-6)
    let second = try #require(scans.last?.cloud.normals)
    #expect(abs(second[0].x - 0.6) < 1e-6 && abs(second[0].y + 0.8) < 1e-6)
    let url = try E57WriterTests.folder().appendingPathComponent("frames.e57")
    try E57Writer.write(scans: scans, provenance: E57Provenance(), to: url)
    let back = try E57Reader.read(url: url)
    // The reader gives frame 0's points first, then frame 1's.
    let order = [0, 2, 1, 3]
    let normals = try #require(back.normals)
    for (k, index) in order.enumerated() {
      let want = try #require(cloud.normals?[index])
      let got = normals[k]
      #expect(abs(got.x - want.x) < 1e-6 && abs(got.y - want.y) < 1e-6)
      #expect(abs(got.z - want.z) < 1e-6)
    }
    #expect(back.attribute(named: "frame")?.values == .uint32([0, 0, 1, 1]))
    #expect(back.attribute(named: "confidence")?.values == .uint8([2, 0, 1, 2]))
  }

  @Test func normalsPastOneAreClampedAndNaNIsStoredAsZero() throws {
    let cloud = PointCloud(
      positions: [Point3(0, 0, 0), Point3(1, 1, 1)],
      normals: [Point3(1.000001, 0, -1.5), Point3(.nan, 0.5, 0)])
    let url = try E57WriterTests.folder().appendingPathComponent("clamped.e57")
    try E57Writer.write(cloud: cloud, provenance: E57Provenance(), to: url)
    #expect(try E57Reader.read(url: url).normals == [Point3(1, 0, -1), Point3(0, 0.5, 0)])
  }

  @Test func anAttributeNameThatIsNoXMLNameIsRefusedNamingIt() throws {
    let url = try E57WriterTests.folder().appendingPathComponent("bad.e57")
    let cloud = PointCloud(
      positions: [Point3(0, 0, 0)],
      attributes: [PointAttribute(name: "two words", values: .uint8([1]))])
    #expect {
      try E57Writer.write(cloud: cloud, provenance: E57Provenance(), to: url)
    } throws: { error in
      "\(error)".contains("attribute 'two words' is not an XML name")
        && "\(error)".hasSuffix(url.path)
    }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    #expect(E57PointFields.isXMLName("f_dc_0") && E57PointFields.isXMLName("_a-b.c"))
    #expect(!E57PointFields.isXMLName("0abc") && !E57PointFields.isXMLName(""))
  }

  /// The export format writes only the selected fields.
  @Test func theExportWritesTheSelectedFieldsOnly() throws {
    let folder = try E57WriterTests.folder()
    let writer = E57FormatWriter()
    let path = folder.appendingPathComponent("selected.e57").path
    try writer.write(
      Self.cloud, provenance: ExportProvenance(source: "test"),
      options: CloudWriteOptions(attributes: .named(["normal", "frame"])), to: path, inputs: [],
      progress: nil)
    let back = try E57Reader.read(url: URL(fileURLWithPath: path))
    #expect(back.normals == Self.cloud.normals)
    #expect(back.attributes.map(\.name) == ["frame"])
    #expect(back.attribute(named: "frame") == Self.cloud.attribute(named: "frame"))
    let none = folder.appendingPathComponent("none.e57").path
    try writer.write(
      Self.cloud, provenance: ExportProvenance(source: "test"), options: CloudWriteOptions(),
      to: none, inputs: [], progress: nil)
    let plain = try E57Reader.read(url: URL(fileURLWithPath: none))
    #expect(plain.normals == nil && plain.attributes.isEmpty)
    #expect(plain.positions == Self.cloud.positions && plain.colors == Self.cloud.colors)
  }
}
