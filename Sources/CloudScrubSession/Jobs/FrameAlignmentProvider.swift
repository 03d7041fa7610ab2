import CloudScrubCore

/// Where the window gets each frame's alignment error from (`BackgroundAlignment`, or
/// a test's double), asked each frame-loop turn. Its values draw the timeline's error
/// curve, colour the "alignment error" mode and fill the picking panel's error line.
///
/// The window asks again every turn; a provider answers from what it has measured so
/// far (nil while nothing is) and does its work in a background job, so the answer
/// must be cheap.
public protocol FrameAlignmentProvider: AnyObject {
  /// The errors of `document`'s loaded frames, one a timeline frame (the loaded
  /// frames in order, as `content.frameIndices` lists them); nil while none is known.
  func errors(for document: ViewerDocument, content: ViewerContent) -> FrameAlignmentErrors?

  /// Why the errors could not be measured, handed out once; nil when nothing failed.
  func takeFailure() -> String?

  /// The fraction of frames the pass under way has measured; nil when none runs.
  var progress: Double? { get }
}

extension FrameAlignmentProvider {
  public func takeFailure() -> String? { nil }
  public var progress: Double? { nil }
}
