import CloudScrubCore
import CloudScrubSession

/// What the window has open: the document, the points loaded so far, the viewer state,
/// and the last message for the user. No GL and no GLFW.
struct ViewerSession {
  enum Message: Equatable {
    case info(String)
    case error(String)
  }

  /// The open document; opening one starts empty content in its world's up axis.
  var document: ViewerDocument? {
    didSet {
      content = ViewerContent(
        worldUp: document?.worldUp ?? .y, levelOfDetail: levelOfDetail)
      untrackedFrames = document?.recording.map(Self.untrackedFrames) ?? 0
    }
  }
  /// How many leading frames of the recording were recorded before tracking started
  /// (`TrackingStart`): marked on the timeline, and the user may hide them.
  private(set) var untrackedFrames = 0
  var content: ViewerContent
  var state: ViewerState
  var message: Message?
  /// Whether the message line shows an error.
  var showsError: Bool {
    guard case .error = message else { return false }
    return true
  }
  /// The picked point and the measurement under way.
  var selection = PointSelection()
  /// Each loaded frame's alignment error, as the provider last told it; nil when none is
  /// known.
  var alignmentErrors: FrameAlignmentErrors?
  /// The fraction of frames the alignment pass under way has measured, as the provider
  /// last told it; nil when none runs.
  var alignmentProgress: Double?
  /// Whether the window has a source of alignment errors (`view --alignment on`).
  let measuresAlignment: Bool
  /// Whether the content keeps a spatial level of detail, which the window then draws.
  let levelOfDetail: Bool

  /// A session with nothing open whose edits start from `cleaning`.
  init(
    width: Int, height: Int, levelOfDetail: Bool, measuresAlignment: Bool,
    cleaning: CleaningOptions = CleaningOptions()
  ) {
    state = ViewerState(
      edits: ViewerEdits(cleaning: cleaning), viewportWidth: width, viewportHeight: height)
    self.levelOfDetail = levelOfDetail
    self.measuresAlignment = measuresAlignment
    content = ViewerContent(levelOfDetail: levelOfDetail)
  }

  /// Whether the timeline holds the alignment-error curve: for a recording, whenever
  /// errors are measured, from the moment it opens, so that the layout never moves when
  /// the errors arrive.
  var showsErrorCurve: Bool { measuresAlignment && document?.recording != nil }

  var isLoading: Bool { document?.load.hasFramesToCome ?? false }

  private static func untrackedFrames(_ recording: any RecordingSource) -> Int {
    do {
      return try TrackingStart.untrackedFrameCount(of: recording)
    } catch {
      // A frame whose pose cannot be read fails the load itself, which says so.
      return 0
    }
  }

  /// Moves delivered frames into the content and returns the commands that tell the
  /// state about them. A failed load becomes the session's error message.
  mutating func takeLoadedFrames() -> [ViewerCommand] {
    guard let load = document?.load else { return [] }
    // A level of detail with a full queue takes nothing more yet (its load waits).
    guard content.acceptsMoreFrames else { return [] }
    // The first frame goes on screen alone, so the picture appears at once however
    // many frames the loader finished while the window was opening.
    let commands = content.absorb(load.take(maxFrames: content.frameCount == 0 ? 1 : .max))
    if case .failed(let reason) = load.status, message == nil { message = .error(reason) }
    return commands
  }
}
