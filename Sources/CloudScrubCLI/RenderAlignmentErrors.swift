import CloudScrubCore
import CloudScrubSession
import Foundation

/// `render --color error`: each drawn frame's alignment error, measured by the same
/// pass as `info --alignment` (`DriftAlignment`, measuring only, under the poses in use,
/// `--poses` included), in the order of the frames drawn.
enum RenderAlignmentErrors {
  /// The errors of `content`'s frames (`ViewerContent.frameIndices`, the recording's
  /// frames the load selected) of the recording at `path`; says the colour scale on
  /// standard error, as the window's legend does.
  ///
  /// - Throws: `UsageError` for a point cloud (it has no frames to measure),
  ///   `FrameLoadError` for a frame that cannot be read.
  static func measure(_ path: String, choices: LoadChoices, content: ViewerContent) throws
    -> FrameAlignmentErrors
  {
    let (recordingPath, source) = try CommandInput.recording(
      path, poses: choices.posesPath,
      needs: "--color error needs a recording (a point cloud has no frames)")
    let progress = Terminal.progress("measuring the alignment error of \(recordingPath)")
    let result = try DriftAlignment.run(source, refine: false, progress: progress.handler)
    progress?.finish()
    let errors = mapped(result.errors, to: content.frameIndices)
    Terminal.error(legend(errors))
    return errors
  }

  /// `errors` (one a recording frame) for the frames `frameIndices` picks, in its order.
  static func mapped(_ errors: FrameAlignmentErrors, to frameIndices: [Int])
    -> FrameAlignmentErrors
  {
    FrameAlignmentErrors(residualsMeters: frameIndices.map { errors.residualMeters(at: $0) })
  }

  /// The colour scale: blue is 0, red the scale (the window's), grey not measured.
  static func legend(_ errors: FrameAlignmentErrors) -> String {
    let worst = errors.worstMeters.map { String(format: ", worst %.1f mm", $0 * 1000) } ?? ""
    return String(
      format: "alignment error colours: blue 0 mm to red %.1f mm", errors.scaleMeters * 1000)
      + worst + "; grey: not measured"
  }
}
