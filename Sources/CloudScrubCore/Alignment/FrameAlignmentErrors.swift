/// How well each frame's points agree with the cloud that the frames before it built,
/// one value a frame in timeline order.
///
/// The alignment pass (Core/Alignment) fills it while or after a recording loads; the
/// timeline draws it as a curve, the "alignment error" colour mode paints each frame's
/// points by it, and `info` prints its worst stretches. A frame that was not measured
/// (the first frame, too few points, tracking not yet started) holds `nil`.
public struct FrameAlignmentErrors: Sendable, Equatable {
  /// Each frame's alignment error against the model of the frames before it, in
  /// metres: how far registering the frame to that model moves its points (RMS; the
  /// definition and why are in `FrameAligner`).
  public var residualsMeters: [Float?]

  /// Errors for `frameCount` frames, none measured yet.
  public init(frameCount: Int) {
    residualsMeters = Array(repeating: nil, count: max(0, frameCount))
  }

  /// Errors from measured values, one a frame.
  public init(residualsMeters: [Float?]) {
    self.residualsMeters = residualsMeters
  }

  /// The number of frames the errors cover.
  public var frameCount: Int { residualsMeters.count }

  /// The largest measured residual, in metres; nil when no frame was measured.
  public var worstMeters: Float? {
    residualsMeters.lazy.compactMap { $0 }.max()
  }

  /// The residual of frame `index`, nil when it is out of range or was not measured.
  public func residualMeters(at index: Int) -> Float? {
    guard residualsMeters.indices.contains(index) else { return nil }
    return residualsMeters[index]
  }
}
