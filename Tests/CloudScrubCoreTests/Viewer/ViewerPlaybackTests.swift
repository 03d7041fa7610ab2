import Testing

@testable import CloudScrubCore

@Suite struct ViewerPlaybackTests {
  /// Four frames holding 3, 4, 5 and 8 points.
  private let frameRanges = [0, 3, 7, 12, 20]

  private func playback(frames: Int, framesPerSecond: Double, start: Double = 0) -> Playback {
    Playback(frameTimestampsSeconds: (0..<frames).map { start + Double($0) / framesPerSecond })
  }

  private func applying(_ commands: [PlaybackCommand], to start: Playback) -> Playback {
    var p = start
    for c in commands { p.apply(c) }
    return p
  }

  // MARK: - Draw ranges

  @Test func scrubToFrame2DrawsFirstThreeFrames() {
    let p = applying([.seek(frame: 2)], to: playback(frames: 4, framesPerSecond: 10))
    #expect(p.visibleFrames == 0...2)
    #expect(p.drawRange(frameRanges: frameRanges) == 0..<12)
  }

  @Test func currentFrameOnlyDrawsJustThePlayheadFrame() {
    let p = applying(
      [.seek(frame: 2), .setMode(.currentFrameOnly)], to: playback(frames: 4, framesPerSecond: 10))
    #expect(p.visibleFrames == 2...2)
    #expect(p.drawRange(frameRanges: frameRanges) == 7..<12)
  }

  @Test func lastTwoFramesDrawThePlayheadAndTheFrameBefore() {
    var p = applying(
      [.seek(frame: 2), .setLastFramesCount(2), .setMode(.lastFrames)],
      to: playback(frames: 4, framesPerSecond: 10))
    #expect(p.drawRange(frameRanges: frameRanges) == 3..<12)
    // At the first frame there is no frame before.
    p.apply(.jumpToStart)
    #expect(p.drawRange(frameRanges: frameRanges) == 0..<3)
  }

  @Test func nothingLoadedDrawsNothing() {
    let p = Playback()
    #expect(p.visibleFrames == nil)
    #expect(p.drawRange(frameRanges: [0]) == 0..<0)
    #expect(p.drawRange(frameRanges: []) == 0..<0)
  }

  @Test func framesWithoutPointsYetAreLeftOut() {
    // Six frames announced, points for only four.
    var p = applying([.jumpToEnd], to: playback(frames: 6, framesPerSecond: 10))
    #expect(p.currentFrame == 5)
    #expect(p.drawRange(frameRanges: frameRanges) == 0..<20)
    p.apply(.setMode(.currentFrameOnly))
    #expect(p.drawRange(frameRanges: frameRanges).isEmpty)
    #expect(p.drawRange(frameRanges: []) == 0..<0)
  }

  // MARK: - Playing

  @Test func playingOneSecondAt60FpsAdvances60Frames() {
    // Timestamps far from zero, as device clocks are.
    var p = applying([.play], to: playback(frames: 120, framesPerSecond: 60, start: 81_234.5))
    for step in 1...60 {
      p.apply(.advance(seconds: 1.0 / 60))
      #expect(p.currentFrame == step)
    }
    #expect(p.currentFrame == 60)
    #expect(p.isPlaying)
  }

  @Test func playing30FpsRecordingAt60HzAdvances30Frames() {
    var p = applying([.play], to: playback(frames: 100, framesPerSecond: 30))
    for _ in 0..<60 { p.apply(.advance(seconds: 1.0 / 60)) }
    #expect(p.currentFrame == 30)
  }

  @Test func playingFollowsUnevenTimestamps() {
    // Frames at 0, 0.1, 0.5, 0.6 s: the third one comes after a 0.4 s gap.
    var p = applying([.play], to: Playback(frameTimestampsSeconds: [0, 0.1, 0.5, 0.6]))
    p.apply(.advance(seconds: 0.3))
    #expect(p.currentFrame == 1)
    p.apply(.advance(seconds: 0.2))
    #expect(p.currentFrame == 2)
  }

  @Test func playingStopsAtTheLastFrame() {
    var p = applying([.play], to: playback(frames: 10, framesPerSecond: 60))
    for _ in 0..<60 { p.apply(.advance(seconds: 1.0 / 60)) }
    #expect(p.currentFrame == 9)
    #expect(!p.isPlaying)
    // Play again from the end starts over.
    p.apply(.togglePlay)
    #expect(p.isPlaying && p.currentFrame == 0)
  }

  @Test func loopingWrapsToTheFirstFrame() {
    // Ten frames at 60 fps last 10/60 s; twelve steps end two frames into the loop.
    var p = applying([.setLoops(true), .play], to: playback(frames: 10, framesPerSecond: 60))
    for _ in 0..<9 { p.apply(.advance(seconds: 1.0 / 60)) }
    #expect(p.currentFrame == 9)
    p.apply(.advance(seconds: 1.0 / 60))
    #expect(p.currentFrame == 0)
    for _ in 0..<2 { p.apply(.advance(seconds: 1.0 / 60)) }
    #expect(p.currentFrame == 2)
    #expect(p.isPlaying)
  }

  @Test func pausedPlaybackIgnoresTime() {
    var p = playback(frames: 10, framesPerSecond: 60)
    p.apply(.advance(seconds: 1))
    #expect(p.currentFrame == 0)
    p.apply(.play)
    p.apply(.pause)
    p.apply(.advance(seconds: 1))
    #expect(p.currentFrame == 0 && !p.isPlaying)
  }

  @Test func unusableTimestampsFallBackToTheFrameRate() {
    var p = Playback(
      frameTimestampsSeconds: Array(repeating: 0, count: 10), fallbackFramesPerSecond: 10)
    p.apply(.play)
    p.apply(.advance(seconds: 0.25))
    #expect(p.currentFrame == 2)
  }

  // MARK: - Seeking and stepping

  @Test func stepClampsAtBothEnds() {
    var p = playback(frames: 5, framesPerSecond: 30)
    p.apply(.step(-1))
    #expect(p.currentFrame == 0)
    p.apply(.step(3))
    #expect(p.currentFrame == 3)
    p.apply(.step(10))
    #expect(p.currentFrame == 4)
    p.apply(.seek(frame: -7))
    #expect(p.currentFrame == 0)
  }

  @Test func seekFractionPicksTheNearestFrame() {
    var p = playback(frames: 11, framesPerSecond: 30)
    p.apply(.seekFraction(0.5))
    #expect(p.currentFrame == 5)
    p.apply(.seekFraction(0.26))
    #expect(p.currentFrame == 3)
    p.apply(.seekFraction(2))
    #expect(p.currentFrame == 10)
    p.apply(.seekFraction(-1))
    #expect(p.currentFrame == 0)
    #expect(p.playheadFraction == 0)
  }

  @Test func seekingRestartsTheClockFromThatFrame() {
    var p = applying([.play], to: playback(frames: 60, framesPerSecond: 60))
    p.apply(.advance(seconds: 0.9 / 60))
    p.apply(.seek(frame: 10))
    // Without the reset the 0.9 frame already played would carry over to frame 11.
    p.apply(.advance(seconds: 0.2 / 60))
    #expect(p.currentFrame == 10)
    p.apply(.advance(seconds: 0.8 / 60))
    #expect(p.currentFrame == 11)
  }

  // MARK: - Loading

  @Test func playheadFollowsNewFramesWhileAtTheEnd() {
    var p = Playback()
    #expect(p.followsNewestFrame)
    p.apply(.framesLoaded(timestampsSeconds: [0, 0.1, 0.2]))
    #expect(p.currentFrame == 2)
    p.apply(.step(-1))
    #expect(p.currentFrame == 1 && !p.followsNewestFrame)
    p.apply(.framesLoaded(timestampsSeconds: [0.3]))
    #expect(p.currentFrame == 1)
    #expect(p.loadedFrameCount == 4)
    p.apply(.jumpToEnd)
    #expect(p.currentFrame == 3 && p.followsNewestFrame)
    p.apply(.framesLoaded(timestampsSeconds: [0.4, 0.5]))
    #expect(p.currentFrame == 5)
    #expect(p.frameTimestampsSeconds == [0, 0.1, 0.2, 0.3, 0.4, 0.5])
  }

  @Test func playingThroughNewlyLoadedFrames() {
    // Playing stops at the end of what is loaded; more frames let it go on.
    var p = applying([.play], to: playback(frames: 3, framesPerSecond: 10))
    p.apply(.advance(seconds: 0.5))
    #expect(p.currentFrame == 2 && !p.isPlaying)
    p.apply(.framesLoaded(timestampsSeconds: [0.3, 0.4]))
    #expect(p.currentFrame == 4)
  }
}
