import Testing

@testable import CloudScrubCore

/// A cloud with intensity and no colour opens grey by intensity, and says so.
@Suite struct IntensityGreysTests {
  /// 101 points with intensities 0, 1, … 100 (16-bit, as LAS stores them).
  static func cloud(intensities: [UInt16], name: String = "intensity") -> PointCloud {
    var cloud = PointCloud(
      positions: intensities.indices.map { Point3(Float($0), 0, 0) }, colors: nil)
    cloud.attributes = [PointAttribute(name: name, values: .uint16(intensities))]
    return cloud
  }

  @Test func greysSpanTheFirstToTheNinetyNinthPercentile() throws {
    let cloud = Self.cloud(intensities: (0...100).map { UInt16($0) })
    let greys = try #require(IntensityGreys.colors(of: cloud))
    // Percentiles by nearest rank below: 1 and 99. 50 → (50 − 1) × 255 / 98 = 127.5.
    #expect(greys[50] == RGB8(128, 128, 128))
    #expect(greys[1] == RGB8(0, 0, 0) && greys[0] == RGB8(0, 0, 0))
    #expect(greys[99] == RGB8(255, 255, 255) && greys[100] == RGB8(255, 255, 255))
    #expect(greys[25] == RGB8(62, 62, 62))  // 24 × 255 / 98 = 62.4
  }

  @Test func noUsableIntensityGivesNoGreys() {
    #expect(
      IntensityGreys.colors(of: Self.cloud(intensities: Array(repeating: 7, count: 50))) == nil)
    #expect(IntensityGreys.colors(of: Self.cloud(intensities: [1, 2, 3], name: "gps_time")) == nil)
  }

  @Test func theFirstLookSaysTheGreysAreIntensity() {
    let cloud = Self.cloud(intensities: (0...100).map { UInt16($0) }, name: "Scalar_Intensity")
    var content = ViewerContent()
    var state = ViewerState()
    for command in content.absorb(CloudTimeline.frames(of: cloud)) { state.apply(command) }
    #expect(state.display.colorMode == .rgb)
    #expect(
      state.display.lookNote == "grey by intensity: the points have no colour, only intensity")
    #expect(content.store.colors[50] == RGB8(128, 128, 128))
    state.apply(.display(.setColorMode(.height)))
    #expect(state.display.lookNote == nil)
    // With colour, intensity is left alone.
    var coloured = cloud
    coloured.colors = Array(repeating: RGB8(10, 20, 30), count: cloud.count)
    var other = ViewerContent()
    var plain = ViewerState()
    for command in other.absorb(CloudTimeline.frames(of: coloured)) { plain.apply(command) }
    #expect(plain.display.lookNote == nil && other.store.colors[50] == RGB8(10, 20, 30))
  }
}
