import CloudScrubCore

extension FrameSelection {
  /// This selection starting after the recording's leading untracked frames.
  public func skippingUntracked(of source: any RecordingSource) throws -> FrameSelection {
    let selection = self
    let untracked = try TrackingStart.untrackedFrameCount(of: source)
    guard untracked > 0 else { return selection }
    var skipped = selection
    let first = max(selection.range?.lowerBound ?? 0, untracked)
    let last = selection.range?.upperBound ?? (source.frameCount - 1)
    guard first <= last else {
      let given = selection.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "all"
      throw UsageError(
        "--skip-untracked leaves no frame of --frames \(given): "
          + "frames 0-\(untracked - 1) were recorded before tracking started")
    }
    skipped.range = first...last
    return skipped
  }

  /// Checks that this selection picks at least one of a recording's `frameCount` frames.
  ///
  /// - Throws: `UsageError` naming the `--frames` given and the recording's valid range.
  public func checkSelectsFrames(frameCount: Int, path: String) throws(UsageError) {
    let selection = self
    guard selection.indices(frameCount: frameCount).isEmpty else { return }
    let range = selection.range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "all"
    let valid = frameCount == 0 ? "has no frames" : "has frames 0-\(frameCount - 1)"
    throw UsageError("--frames \(range) selects no frame: the recording \(valid): \(path)")
  }
}
