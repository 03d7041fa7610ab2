import Testing

@testable import CloudScrubCore

/// A leading run of frames at exactly the origin, before tracking started.
@Suite struct TrackingStartTests {
  let moved = SIMD3<Double>(0.01, 0, 0)

  @Test func leadingRunOfZeroTranslationsIsCounted() {
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, .zero, .zero, moved]) == 3)
    // -0.0 is exactly zero too; a tiny translation is not.
    let negativeZero = SIMD3<Double>(-0.0, 0, -0.0)
    let tiny = SIMD3<Double>(1.8626451e-9, 0, 0)
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, negativeZero, tiny]) == 2)
  }

  @Test func oneFrameAtTheOriginOrAllAtTheOriginIsNoRun() {
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, moved, moved]) == 0)
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, .zero, .zero]) == 0)
    #expect(TrackingStart.untrackedFrameCount(translations: [moved, .zero, .zero, moved]) == 0)
    #expect(TrackingStart.untrackedFrameCount(translations: []) == 0)
  }
}

/// Hiding the leading frames on the timeline (the window's control for untracked ones).
@Suite struct HiddenLeadingFramesTests {
  func playback(frames: Int) -> Playback {
    var playback = Playback()
    playback.apply(.framesLoaded(timestampsSeconds: (0..<frames).map { Double($0) / 30 }))
    return playback
  }

  @Test func hiddenFramesAreNeverDrawnInAnyMode() {
    var playback = playback(frames: 10)
    playback.apply(.seek(frame: 6))
    playback.apply(.hideLeadingFrames(4))
    #expect(playback.visibleFrames == 4...6)
    // Frames of 2 points each: frame i holds points 2i and 2i + 1.
    let ranges = (0...10).map { 2 * $0 }
    #expect(playback.drawRange(frameRanges: ranges) == 8..<14)
    playback.apply(.setLastFramesCount(5))
    playback.apply(.setMode(.lastFrames))
    #expect(playback.visibleFrames == 4...6)
    playback.apply(.setMode(.currentFrameOnly))
    #expect(playback.visibleFrames == 6...6)
    playback.apply(.setMode(.upToPlayhead))
    playback.apply(.hideLeadingFrames(0))
    #expect(playback.visibleFrames == 0...6)
  }

  @Test func hidingMovesAPlayheadOutOfTheHiddenFramesAndAHiddenPlayheadDrawsNothing() {
    var playback = playback(frames: 10)
    playback.apply(.seek(frame: 1))
    playback.apply(.hideLeadingFrames(3))
    #expect(playback.currentFrame == 3 && playback.visibleFrames == 3...3)
    playback.apply(.jumpToStart)
    #expect(playback.visibleFrames == nil)
    #expect(playback.drawRange(frameRanges: Array(0...10)) == 0..<0)
  }
}
