/// Which loaded frames the viewer draws, relative to the playhead.
public enum TimelineMode: Equatable, Sendable {
  /// Every frame from the first up to and including the playhead: the cloud
  /// accumulates as the recording plays.
  case upToPlayhead
  /// Only the playhead's frame.
  case currentFrameOnly
  /// The playhead's frame and the ones before it, `Playback.lastFramesCount` in all.
  case lastFrames
}

/// Everything that changes playback: user input, the clock, and the loader.
public enum PlaybackCommand: Equatable, Sendable {
  case play
  case pause
  case togglePlay
  /// Moves the playhead by this many frames, stopping at the first and last.
  case step(Int)
  /// Moves the playhead to this frame, clamped to the loaded ones.
  case seek(frame: Int)
  /// Moves the playhead to a fraction 0…1 of the loaded frames (a timeline drag).
  case seekFraction(Double)
  case jumpToStart
  /// Moves to the newest frame and follows new frames as they load.
  case jumpToEnd
  case setMode(TimelineMode)
  /// How many frames the last-N mode shows (at least 1; the panel's slider).
  case setLastFramesCount(Int)
  /// The next timeline mode after the current one: up to the playhead, this frame only,
  /// the last `Playback.lastFramesCount` frames, and round again (the M key). It reads
  /// the mode from the state, so a mode chosen in the panel is where the cycle goes on
  /// from.
  case cycleMode
  /// Whether playing past the last frame wraps to the first.
  case setLoops(Bool)
  /// Advances the clock while playing (wall time since the last frame drawn).
  case advance(seconds: Double)
  /// Timestamps of newly loaded frames, appended in order as loading proceeds.
  case framesLoaded(timestampsSeconds: [Double])
  /// Leaves the first this many loaded frames out of what is drawn (0: none), such as
  /// the frames recorded before tracking started (`TrackingStart`).
  case hideLeadingFrames(Int)
}
