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

  /// The greys the levels of `cloud` give as colours.
  static func greys(of cloud: PointCloud) -> [RGB8]? {
    IntensityGreys.levels(of: cloud).map(IntensityGreys.colors(ofLevels:))
  }

  @Test func greysSpanTheFirstToTheNinetyNinthPercentile() throws {
    let cloud = Self.cloud(intensities: (0...100).map { UInt16($0) })
    let greys = try #require(Self.greys(of: cloud))
    // Percentiles by nearest rank below: 1 and 99. 50 → (50 − 1) × 255 / 98 = 127.5.
    #expect(greys[50] == RGB8(128, 128, 128))
    #expect(greys[1] == RGB8(0, 0, 0) && greys[0] == RGB8(0, 0, 0))
    #expect(greys[99] == RGB8(255, 255, 255) && greys[100] == RGB8(255, 255, 255))
    #expect(greys[25] == RGB8(62, 62, 62))  // 24 × 255 / 98 = 62.4
  }

  @Test func noUsableIntensityGivesNoGreys() {
    #expect(
      Self.greys(of: Self.cloud(intensities: Array(repeating: 7, count: 50))) == nil)
    #expect(Self.greys(of: Self.cloud(intensities: [1, 2, 3], name: "gps_time")) == nil)
  }

  @Test func theFirstLookSaysTheGreysAreIntensity() {
    let cloud = Self.cloud(intensities: (0...100).map { UInt16($0) }, name: "Scalar_Intensity")
    var content = ViewerContent()
    var state = ViewerState()
    for command in content.absorb(CloudTimeline.frames(of: cloud)) { state.apply(command) }
    #expect(state.display.colorMode == .intensity)
    #expect(
      state.display.lookNote == "grey by intensity: the points have no colour, only intensity")
    // The greys are the colours too, so the colour mode shows them as well.
    #expect(content.store.colors[50] == RGB8(128, 128, 128))
    #expect(content.store.intensity[50] == 128 && content.store.intensity[25] == 62)
    state.apply(.display(.setColorMode(.height)))
    #expect(state.display.lookNote == nil)
  }

  /// A cloud with colour and intensity opens in colour; its intensity is kept beside it
  /// for the intensity mode.
  @Test func withColourTheIntensityIsKeptBesideIt() {
    var cloud = Self.cloud(intensities: (0...100).map { UInt16($0) })
    cloud.colors = Array(repeating: RGB8(10, 20, 30), count: cloud.count)
    var content = ViewerContent()
    var state = ViewerState()
    for command in content.absorb(CloudTimeline.frames(of: cloud)) { state.apply(command) }
    #expect(state.display.lookNote == nil && state.display.colorMode == .rgb)
    #expect(content.store.colors[50] == RGB8(10, 20, 30))
    #expect(content.store.intensity.count == 101)
    #expect(content.store.intensity[0] == 0 && content.store.intensity[50] == 128)
    #expect(content.store.intensity[99] == 255)
    // A cloud without intensity keeps none.
    var bare = ViewerContent()
    _ = bare.absorb(CloudTimeline.frames(of: PointCloud(positions: [Point3(1, 2, 3)])))
    #expect(bare.store.count == 1 && !bare.store.hasIntensity)
  }

  /// A cloud with a frame attribute splits into frames that keep their points' levels.
  @Test func framesKeepTheirPointsLevels() {
    var cloud = Self.cloud(intensities: (0...100).map { UInt16($0) })
    cloud.attributes.append(
      PointAttribute(name: "frame", values: .uint32((0...100).map { UInt32($0 % 2) })))
    let frames = CloudTimeline.frames(of: cloud)
    #expect(frames.count == 2)
    // Frame 1 holds the odd points: intensity 25 is not there, 49 and 51 are.
    #expect(frames[1].points.intensity[24] == 125)  // point 49: 48 × 255 / 98 = 124.9
    #expect(frames[0].points.intensity.count == 51 && frames[1].points.intensity.count == 50)
  }
}
