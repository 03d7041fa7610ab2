import Foundation

extension ExportJob.RecordedFrames {
  /// The frames a window shows, as the window's export and its cleaning preview load
  /// them again: the recording frames from the first to the last of `frameIndices`
  /// (recording indices, in order), every `loadedWith.every`-th as the document was
  /// loaded, with the document's sensor-grid filters (`unprojection`) and at least
  /// `minConfidence`.
  public static func shown(
    _ frameIndices: some Collection<Int>, loadedWith selection: FrameSelection,
    unprojection: UnprojectionOptions, minConfidence: ConfidenceLevel
  ) -> Self {
    var unprojection = unprojection
    if minConfidence.rawValue > unprojection.minConfidence.rawValue {
      unprojection.minConfidence = minConfidence
    }
    let first = frameIndices.first ?? 0
    let last = Array(frameIndices).last ?? first
    return Self(
      selection: FrameSelection(range: first...last, every: selection.every),
      unprojection: unprojection)
  }
}
