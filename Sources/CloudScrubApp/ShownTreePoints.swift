import CloudScrubCore

/// How many of the level of detail's points the scene's signature counts while it grows
/// on its worker: the tree's count, taken at most every `intervalSeconds` (and at once
/// for the first points and the last), so that a tree growing by steps restarts the
/// picture a few times a second instead of every frame-loop turn.
struct ShownTreePoints {
  static let intervalSeconds = 0.25
  /// The count the signature uses.
  private(set) var points = 0
  private var takenAt = -Double.infinity

  /// The count to use at `now` (seconds on the loop's clock).
  mutating func shown(_ content: ViewerContent, now: Double) -> Int {
    let current = content.levelOfDetailCount
    guard current != points else { return points }
    if points == 0 || current < points || now - takenAt >= Self.intervalSeconds
      || content.levelOfDetailIsComplete
    {
      points = current
      takenAt = now
    }
    return points
  }
}
