import Testing

@testable import CloudScrubCore

@Suite struct InputMapperTests {
  @Test func keysBecomePlaybackCommands() {
    var mapper = InputMapper()
    #expect(mapper.keyPressed(.space) == [.playback(.togglePlay)])
    #expect(mapper.keyPressed(.right) == [.playback(.step(1))])
    #expect(mapper.keyPressed(.left, shift: true) == [.playback(.step(-10))])
    #expect(mapper.keyPressed(.home) == [.playback(.jumpToStart)])
    #expect(mapper.keyPressed(.end) == [.playback(.jumpToEnd)])
  }

  @Test func mCyclesTheThreeTimelineModesFromTheStatesMode() {
    var mapper = InputMapper()
    var playback = Playback()
    let press = { (key: Character) in
      for case .playback(let command) in mapper.keyPressed(.letter(key)) { playback.apply(command) }
    }
    press("m")
    #expect(playback.mode == .currentFrameOnly)
    press("M")
    #expect(playback.mode == .lastFrames)
    press("m")
    #expect(playback.mode == .upToPlayhead)
    // A mode chosen elsewhere (the panel) is where M goes on from.
    playback.apply(.setMode(.lastFrames))
    press("m")
    #expect(playback.mode == .upToPlayhead)
    playback.apply(.setMode(.currentFrameOnly))
    press("m")
    #expect(playback.mode == .lastFrames)
  }

  @Test func mReachesTheLastNModeWithTheCountSetInTheState() {
    var mapper = InputMapper()
    var state = ViewerState()
    state.apply(.playback(.framesLoaded(timestampsSeconds: (0..<20).map { Double($0) / 10 })))
    state.apply(.playback(.setLastFramesCount(7)))
    #expect(mapper.keyPressed(.letter("m")) == [.playback(.cycleMode)])
    while state.playback.mode != .lastFrames {
      for command in mapper.keyPressed(.letter("m")) { state.apply(command) }
    }
    #expect(state.playback.currentFrame == 19)
    #expect(state.playback.visibleFrames == 13...19)
    // One count: a new N changes the frames shown at once, and M keeps it.
    state.apply(.playback(.setLastFramesCount(3)))
    #expect(state.playback.visibleFrames == 17...19)
    for _ in 0..<3 {
      for command in mapper.keyPressed(.letter("m")) { state.apply(command) }
    }
    #expect(state.playback.mode == .lastFrames)
    #expect(state.playback.visibleFrames == 17...19)
    state.apply(.playback(.setLastFramesCount(0)))
    #expect(state.playback.lastFramesCount == 1)
    #expect(state.playback.visibleFrames == 19...19)
  }

  @Test func digitsChooseColourModesInOrder() {
    var mapper = InputMapper()
    #expect(mapper.keyPressed(.digit(1)) == [.display(.setColorMode(.rgb))])
    #expect(mapper.keyPressed(.digit(4)) == [.display(.setColorMode(.confidence))])
    #expect(mapper.keyPressed(.digit(5)) == [.display(.setColorMode(.frame))])
    #expect(mapper.keyPressed(.digit(6)) == [.display(.setColorMode(.alignmentError))])
    #expect(mapper.keyPressed(.digit(7)) == [.display(.setColorMode(.intensity))])
    #expect(mapper.keyPressed(.digit(8)).isEmpty)
  }

  @Test func cameraKeys() {
    var mapper = InputMapper()
    #expect(mapper.keyPressed(.letter("f")) == [.camera(.fit)])
    #expect(mapper.keyPressed(.letter("r")) == [.camera(.reset)])
    #expect(mapper.keyPressed(.letter("c")) == [.camera(.lookThroughCaptureCamera)])
    #expect(mapper.keyPressed(.letter("q")).isEmpty)
  }

  @Test func leftDragRotatesByTheCursorsTravel() {
    var mapper = InputMapper()
    #expect(mapper.mouseMoved(to: SIMD2(10, 10)).isEmpty)
    mapper.mouseDown(.left, at: SIMD2(100, 50))
    #expect(mapper.isDragging)
    #expect(mapper.mouseMoved(to: SIMD2(130, 45)) == [.camera(.rotate(pixels: SIMD2(30, -5)))])
    #expect(mapper.mouseMoved(to: SIMD2(131, 45)) == [.camera(.rotate(pixels: SIMD2(1, 0)))])
    mapper.mouseUp(.left)
    #expect(!mapper.isDragging)
    #expect(mapper.mouseMoved(to: SIMD2(200, 200)).isEmpty)
  }

  @Test func rightMiddleAndShiftLeftDragsPan() {
    for (button, shift) in [(ViewerMouseButton.right, false), (.middle, false), (.left, true)] {
      var mapper = InputMapper()
      mapper.mouseDown(button, at: SIMD2(0, 0), shift: shift)
      #expect(mapper.mouseMoved(to: SIMD2(4, 8)) == [.camera(.pan(pixels: SIMD2(4, 8)))])
      // Another button going down during the drag does not change it.
      mapper.mouseDown(.left, at: SIMD2(4, 8))
      #expect(mapper.mouseMoved(to: SIMD2(5, 8)) == [.camera(.pan(pixels: SIMD2(1, 0)))])
    }
  }

  @Test func wheelZoomsTowardTheCursorInNormalisedCoordinates() {
    let mapper = InputMapper()
    // The top-left corner of a 200×100 view is NDC (−1, 1); its centre is (0, 0).
    #expect(
      mapper.scrolled(steps: 1, at: SIMD2(0, 0), width: 200, height: 100) == [
        .camera(.zoom(steps: 1, cursorNDC: SIMD2(-1, 1)))
      ])
    #expect(
      mapper.scrolled(steps: -2, at: SIMD2(100, 50), width: 200, height: 100) == [
        .camera(.zoom(steps: -2, cursorNDC: SIMD2(0, 0)))
      ])
    #expect(mapper.scrolled(steps: 0, at: SIMD2(1, 1), width: 200, height: 100).isEmpty)
  }
}
