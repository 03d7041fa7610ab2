import Testing

@testable import CloudScrubCore

@Suite struct ViewerDisplaySettingsTests {
  @Test func defaultsShowEverythingInColour() {
    let d = DisplaySettings()
    #expect(d.colorMode == .rgb && d.pointSizePixels == 2 && d.roundPoints && !d.eyeDomeLighting)
    #expect(d.minConfidence == .low && d.backgroundGray == 0.1)
    #expect(d.showGrid && d.showAxes && d.showTrajectory && d.showFrustum)
  }

  @Test func cyclingColourModesWrapsAfterIntensity() {
    var d = DisplaySettings()
    var seen: [PointColorMode] = []
    for _ in 0..<7 {
      d.apply(.cycleColorMode)
      seen.append(d.colorMode)
    }
    #expect(seen == [.height, .depth, .confidence, .frame, .alignmentError, .intensity, .rgb])
  }

  @Test func pointSizeStaysBetweenOneAndThirtyTwoPixels() {
    var d = DisplaySettings()
    d.apply(.changePointSize(by: 3))
    #expect(d.pointSizePixels == 5)
    d.apply(.changePointSize(by: -10))
    #expect(d.pointSizePixels == 1)
    d.apply(.setPointSize(100))
    #expect(d.pointSizePixels == 32)
    d.apply(.setPointSize(.nan))
    #expect(d.pointSizePixels == 2)
  }

  @Test func togglesFlipTheirSettingOnly() {
    var d = DisplaySettings()
    d.apply(.toggleGrid)
    d.apply(.toggleEyeDomeLighting)
    d.apply(.setMinConfidence(.high))
    d.apply(.setRoundPoints(false))
    #expect(!d.showGrid && d.eyeDomeLighting && d.minConfidence == .high && !d.roundPoints)
    #expect(d.showAxes && d.showTrajectory && d.showFrustum)
    d.apply(.toggleAxes)
    d.apply(.toggleTrajectory)
    d.apply(.toggleFrustum)
    #expect(!d.showAxes && !d.showTrajectory && !d.showFrustum)
  }
}
