import Testing

@testable import CloudScrubCore

/// Points with no colour open by height with eye-dome lighting, saying why; coloured
/// points keep their colours; the user's own choice ends the note.
@Suite struct FirstLookTests {
  static func cloud(colored: Bool) -> PointCloud {
    let positions = (0..<100).map { Point3(Float($0), Float($0 % 7), 0) }
    let colors = colored ? positions.map { RGB8(UInt8($0.x), 20, 30) } : nil
    return PointCloud(positions: positions, colors: colors)
  }

  static func opened(_ cloud: PointCloud) -> ViewerState {
    var content = ViewerContent()
    var state = ViewerState()
    for command in content.absorb(StreamingLoad(cloud: cloud).take()) { state.apply(command) }
    return state
  }

  @Test func pointsWithNoColourOpenByHeightWithEyeDomeLighting() {
    var state = Self.opened(Self.cloud(colored: false))
    #expect(state.display.colorMode == .height)
    #expect(state.display.eyeDomeLighting)
    #expect(state.display.lookNote?.contains("no colour") == true)
    state.apply(.display(.setColorMode(.depth)))
    #expect(state.display.lookNote == nil)
    #expect(state.display.eyeDomeLighting)
  }

  @Test func colouredPointsKeepTheirColours() {
    let state = Self.opened(Self.cloud(colored: true))
    #expect(state.display.colorMode == .rgb)
    #expect(!state.display.eyeDomeLighting)
    #expect(state.display.lookNote == nil)
  }

  @Test func theLookIsChosenOnceByTheFirstFrameWithPoints() {
    func frame(_ index: Int, colored: Bool) -> LoadedFrame {
      var taken = StreamingLoad(cloud: Self.cloud(colored: colored)).take()[0]
      taken.frameIndex = index
      return taken
    }
    var content = ViewerContent()
    #expect(!content.absorb([frame(0, colored: true)]).contains(.display(.showWithoutColor)))
    #expect(!content.absorb([frame(1, colored: false)]).contains(.display(.showWithoutColor)))
    // The user's later `E` toggles as it always did.
    var state = ViewerState()
    state.apply(.display(.showWithoutColor))
    state.apply(.display(.toggleEyeDomeLighting))
    #expect(!state.display.eyeDomeLighting && state.display.lookNote == nil)
  }
}
