// MARK: - Commands

extension Playback {
  /// Applies one command; the only way playback state changes.
  public mutating func apply(_ command: PlaybackCommand) {
    switch command {
    case .play: play()
    case .pause: isPlaying = false
    case .togglePlay: if isPlaying { isPlaying = false } else { play() }
    case .step(let frames): seek(toFrame: currentFrame + frames)
    case .seek(let frame): seek(toFrame: frame)
    case .seekFraction(let fraction):
      guard let last = lastFrame, fraction.isFinite else { return }
      seek(toFrame: Int((min(max(fraction, 0), 1) * Double(last)).rounded()))
    case .jumpToStart: seek(toFrame: 0)
    case .jumpToEnd:
      seek(toFrame: lastFrame ?? 0)
      followsNewestFrame = true
    case .setMode(let newMode): mode = newMode
    case .setLastFramesCount(let count): lastFramesCount = max(1, count)
    case .cycleMode:
      switch mode {
      case .upToPlayhead: mode = .currentFrameOnly
      case .currentFrameOnly: mode = .lastFrames
      case .lastFrames: mode = .upToPlayhead
      }
    case .setLoops(let newLoops): loops = newLoops
    case .advance(let seconds): advance(bySeconds: seconds)
    case .framesLoaded(let timestamps): framesLoaded(timestamps)
    case .hideLeadingFrames(let count):
      hiddenLeadingFrames = max(0, count)
      if currentFrame < hiddenLeadingFrames, hiddenLeadingFrames < loadedFrameCount {
        seek(toFrame: hiddenLeadingFrames)
      }
    }
  }

  /// Plays on at the recording's own rate for `dt` seconds of wall time.
  ///
  /// Does nothing while paused. Without looping, reaching the last frame stops
  /// playing there; with looping, the last frame shows for one mean frame interval
  /// and playing wraps to the first.
  public mutating func advance(bySeconds dt: Double) {
    guard isPlaying, let last = lastFrame, dt.isFinite, dt > 0 else { return }
    elapsedSeconds += dt
    var target = timeSeconds(ofFrame: anchorFrame) + elapsedSeconds
    if loops {
      let endSeconds = timeSeconds(ofFrame: last) + meanFrameIntervalSeconds
      if target + 1e-9 * max(1, abs(target)) >= endSeconds {
        let startSeconds = timeSeconds(ofFrame: 0)
        let periodSeconds = endSeconds - startSeconds
        let overflow = max(0, target - endSeconds)
        anchorFrame = 0
        elapsedSeconds =
          periodSeconds > 0 ? overflow.truncatingRemainder(dividingBy: periodSeconds) : 0
        target = startSeconds + elapsedSeconds
      }
    }
    currentFrame = lastFrame(atOrBefore: target, from: anchorFrame)
    followsNewestFrame = currentFrame == last
    if currentFrame == last && !loops {
      isPlaying = false
    }
  }

  // MARK: - Helpers

  private mutating func play() {
    guard let last = lastFrame else { return }
    // Pressing play on the last frame of a finished recording plays it again.
    if currentFrame == last && !loops && last > 0 {
      seek(toFrame: 0)
    }
    isPlaying = true
    anchorFrame = currentFrame
    elapsedSeconds = 0
  }

  /// Moves the playhead and restarts the playing clock from that frame's timestamp.
  private mutating func seek(toFrame frame: Int) {
    guard let last = lastFrame else { return }
    currentFrame = min(max(frame, 0), last)
    anchorFrame = currentFrame
    elapsedSeconds = 0
    followsNewestFrame = currentFrame == last
  }

  private mutating func framesLoaded(_ timestamps: [Double]) {
    guard !timestamps.isEmpty else { return }
    let follow = followsNewestFrame
    appendTimestamps(timestamps)
    if follow, let last = lastFrame {
      currentFrame = last
      anchorFrame = last
      elapsedSeconds = 0
    }
  }
}
