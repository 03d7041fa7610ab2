import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// The reader on hand-made files (`E57TestFiles`): bit-packed Integer and
/// ScaledInteger fields whose records straddle packets, doubles split mid-value,
/// constant fields, colour limits, invalid states, poses and spherical coordinates.
@Suite struct E57ReaderTests {
  static let mixedPrototype = """
    <cartesianX type="ScaledInteger" minimum="-1000" maximum="1000" scale="0.001"/>
    <cartesianY type="Integer" minimum="0" maximum="5"/>
    <cartesianZ type="Float"/>
    <colorRed type="Integer" minimum="0" maximum="1023"/>
    <colorGreen type="Integer" minimum="0" maximum="255"/>
    <colorBlue type="Integer" minimum="7" maximum="7"/>
    <cartesianInvalidState type="Integer" minimum="0" maximum="2"/>
    """

  /// Five records; X (11 bits) and Z (doubles) are split across two packets inside a
  /// record.
  static func mixedFile(pose: String) -> [UInt8] {
    let x = E57TestFiles.pack([-1000, 0, 1000, 123, -7].map { UInt64($0 + 1000) }, bits: 11)
    let y = E57TestFiles.pack([0, 1, 2, 3, 5], bits: 3)
    let z = [0.5, 1.5, 2.5, -3.25, 4].flatMap { E57TestFiles.littleEndian($0.bitPattern) }
    let red = E57TestFiles.pack([0, 512, 1023, 1023, 5], bits: 10)
    let green: [UInt8] = [10, 20, 30, 40, 50]
    let state = E57TestFiles.pack([0, 0, 2, 0, 1], bits: 2)
    #expect(x.count == 7 && y.count == 2 && red.count == 7 && state.count == 2)
    let first = E57TestFiles.dataPacket([
      Array(x[0..<3]), Array(y[0..<1]), Array(z[0..<12]), red, green, [], state,
    ])
    let second = E57TestFiles.dataPacket([
      Array(x[3...]), Array(y[1...]), Array(z[12...]), [], [], [], [],
    ])
    return E57TestFiles.file(sections: [[first, second]]) { offsets in
      E57TestFiles.xml(scans: [
        E57TestFiles.scan(
          offset: offsets[0], count: 5, prototype: mixedPrototype, pose: pose,
          extra: """
            <colorLimits type="Structure"><colorRedMinimum type="Integer"/>
            <colorRedMaximum type="Integer">1023</colorRedMaximum>
            <colorGreenMinimum type="Integer"/><colorGreenMaximum type="Integer">255</colorGreenMaximum>
            <colorBlueMinimum type="Integer"/><colorBlueMaximum type="Integer">255</colorBlueMaximum>
            </colorLimits>
            """)
      ])
    }
  }

  @Test func bitPackedFieldsAcrossPacketsDecodeToTheHandWorkedPoints() throws {
    // 90° about +z: (x, y, z) ↦ (−y, x, z); then + (10, 20, 30).
    let half = (0.5).squareRoot()
    let pose = """
      <pose type="Structure"><rotation type="Structure"><w type="Float">\(half)</w>
      <x type="Float"/><y type="Float"/><z type="Float">\(half)</z></rotation>
      <translation type="Structure"><x type="Float">10</x><y type="Float">20</y>
      <z type="Float">30</z></translation></pose>
      """
    let path = try E57TestFiles.write(Self.mixedFile(pose: pose))
    let contents = try E57Reader.contents(of: path)
    let cloud = contents.cloud
    // Records 2 (state 2) and 4 (state 1) are left out.
    let expected: [(Float, Float, Float)] = [(10, 19, 30.5), (9, 20, 31.5), (7, 20.123, 26.75)]
    #expect(cloud.count == 3)
    for (point, want) in zip(cloud.positions, expected) {
      #expect(abs(point.x - want.0) < 1e-5 && abs(point.y - want.1) < 1e-5)
      #expect(abs(point.z - want.2) < 1e-5)
    }
    // Red 0, 512, 1023 of 0…1023 → 0, 128, 255; green as stored; blue the constant 7.
    #expect(cloud.colors == [RGB8(0, 10, 7), RGB8(128, 20, 7), RGB8(255, 40, 7)])
    #expect(contents.scans.count == 1)
    #expect(contents.scans[0].recordCount == 5)
    #expect(contents.scans[0].pointRange == 0..<3)
    #expect(contents.scans[0].name == "hand-made")
  }

  @Test func sphericalScansAreConvertedToCartesian() throws {
    let prototype = """
      <sphericalRange type="Float"/><sphericalAzimuth type="Float"/>
      <sphericalElevation type="Float" precision="single"/>
      """
    let range = [2.0, 1.0].flatMap { E57TestFiles.littleEndian($0.bitPattern) }
    let azimuth = [Double.pi / 2, 0].flatMap { E57TestFiles.littleEndian($0.bitPattern) }
    let elevation = [Float(0), Float.pi / 2].flatMap { E57TestFiles.littleEndian($0.bitPattern) }
    let packet = E57TestFiles.dataPacket([range, azimuth, elevation])
    let bytes = E57TestFiles.file(sections: [[packet]]) {
      E57TestFiles.xml(scans: [E57TestFiles.scan(offset: $0[0], count: 2, prototype: prototype)])
    }
    let cloud = try E57Reader.read(url: URL(fileURLWithPath: try E57TestFiles.write(bytes)))
    #expect(cloud.count == 2)
    #expect(cloud.colors == nil)
    let a = cloud.positions[0]
    let b = cloud.positions[1]
    #expect(abs(a.x) < 1e-6 && abs(a.y - 2) < 1e-6 && abs(a.z) < 1e-6)
    #expect(abs(b.x) < 1e-6 && abs(b.y) < 1e-6 && abs(b.z - 1) < 1e-6)
  }

  @Test func scansAreMergedInFileOrderEachWithItsPose() throws {
    let prototype = """
      <cartesianX type="Float" precision="single"/><cartesianY type="Float" precision="single"/>
      <cartesianZ type="Float" precision="single"/>
      """
    func packet(_ values: [Float]) -> [UInt8] {
      E57TestFiles.dataPacket(values.map { E57TestFiles.littleEndian($0.bitPattern) })
    }
    let shifted = """
      <pose type="Structure"><translation type="Structure"><x type="Float">5</x></translation></pose>
      """
    let bytes = E57TestFiles.file(sections: [[packet([1, 2, 3])], [packet([1, 2, 3])]]) {
      E57TestFiles.xml(scans: [
        E57TestFiles.scan(offset: $0[0], count: 1, prototype: prototype),
        E57TestFiles.scan(offset: $0[1], count: 1, prototype: prototype, pose: shifted),
      ])
    }
    let contents = try E57Reader.contents(of: try E57TestFiles.write(bytes))
    #expect(contents.cloud.positions == [Point3(1, 2, 3), Point3(6, 2, 3)])
    #expect(contents.scans.map(\.pointRange) == [0..<1, 1..<2])
    #expect(contents.guid == "{test}")
  }

  @Test func floatColoursMapThroughTheirLimitsAndNaNReadsAsZero() throws {
    let prototype = """
      <cartesianX type="Float" precision="single"/><cartesianY type="Float" precision="single"/>
      <cartesianZ type="Float" precision="single"/><colorRed type="Float" precision="single"/>
      <colorGreen type="Float" precision="single"/><colorBlue type="Float" precision="single"/>
      """
    let limits = """
      <colorLimits type="Structure"><colorRedMinimum type="Float"/>
      <colorRedMaximum type="Float">1</colorRedMaximum><colorGreenMinimum type="Float"/>
      <colorGreenMaximum type="Float">1</colorGreenMaximum><colorBlueMinimum type="Float"/>
      <colorBlueMaximum type="Float">1</colorBlueMaximum></colorLimits>
      """
    let streams = [[Float(0)], [0], [0], [0.5], [Float.nan], [2]].map { values in
      values.flatMap { E57TestFiles.littleEndian($0.bitPattern) }
    }
    let bytes = E57TestFiles.file(sections: [[E57TestFiles.dataPacket(streams)]]) {
      E57TestFiles.xml(scans: [
        E57TestFiles.scan(offset: $0[0], count: 1, prototype: prototype, extra: limits)
      ])
    }
    let cloud = try E57Reader.read(url: URL(fileURLWithPath: try E57TestFiles.write(bytes)))
    // 0.5 of 0…1 → 128 (rounded); NaN → 0; 2 clamps to 255.
    #expect(cloud.colors == [RGB8(128, 0, 255)])
  }

  @Test func theSignatureIsRecognisedByContent() {
    #expect(E57Reader.hasSignature(Array("ASTM-E57".utf8) + [1, 0, 0, 0]))
    #expect(!E57Reader.hasSignature(Array("ply\nformat".utf8)))
  }
}
