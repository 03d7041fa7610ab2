import CloudScrubCore
import CloudScrubRender

/// Everything the scene picture depends on: when it is unchanged, the scene is not drawn.
struct SceneSignature: Equatable {
  /// The state as the picture sees it: the timeline, the view and the scene, not the
  /// file names (typing one does not draw the scene again).
  var view: View
  var points: Int
  /// The cleaning preview's revision, nil when no preview shows.
  var preview: Int?
  var lines: [LineVertex]
  /// The frame whose every point is drawn in place of the store's, if any.
  var wholeFrame: Int?
  /// The alignment errors, while the points are coloured by them.
  var frameErrors: FrameAlignmentErrors?
  /// The pose corrections drawn, nil: the recording's poses.
  var corrections: [Matrix4]?
  /// The scene's mesh (`ShownModel.identity`), nil: none.
  var mesh: ObjectIdentifier?

  /// The parts of `ViewerState` that the scene is drawn from.
  struct View: Equatable {
    var playback: Playback
    var camera: OrbitCamera
    var viewMode: ViewMode
    var display: DisplaySettings
    var scene: ViewerScene
    var viewportWidth: Int
    var viewportHeight: Int

    init(_ state: ViewerState) {
      playback = state.playback
      camera = state.camera
      viewMode = state.viewMode
      display = state.display
      scene = state.scene
      viewportWidth = state.viewportWidth
      viewportHeight = state.viewportHeight
    }
  }
}

/// What the panels show besides the state, so that a change redraws them.
struct PanelSignature: Equatable {
  var loading: Bool
  /// The load's status, whose progress the panel shows ("reading 40%").
  var load: LoadStatus? = nil
  var message: String?
  var summary: String
  /// Whether drawing passes are left for the picture.
  var drawing: Bool
  /// The background export's stage and whole percent, while one runs.
  var export: String? = nil
  /// The pose refinement's progress and what is applied and shown.
  var poses: String
  /// The fusion under way, whether the mesh is stale, and whether it is being written.
  var model: ModelPanel.Job? = nil
  var modelStale = false
  var savingModel = false
  /// The alignment pass's whole percent, while it runs.
  var measuring: Int? = nil
  /// The video being recorded or drawn.
  var record: RecordPanel.Job? = nil
}
