/// Every change to the viewer's state.
public enum ViewerCommand: Equatable, Sendable {
  case playback(PlaybackCommand)
  case camera(CameraCommand)
  case display(DisplayCommand)
  /// The loader's whole scene so far, replacing the previous one.
  case sceneGrew(ViewerScene)
  /// Newly loaded frames and bounds, appended to the scene (see `ViewerScene.append`).
  case sceneAppended(ViewerScene)
  /// The world's up axis, as the recording tells it (before its first frame).
  case worldUpKnown(WorldUp)
  /// An edit of the cleaning settings or the applied refinement, undo and redo, and
  /// which poses show. The scene shows the poses the edits say
  /// (`ViewerScene.showPoseCorrections`).
  case edit(EditCommand)
  /// A document opened at `path`: the file names start beside it, and the edits start
  /// again (the cleaning settings kept, no refinement, nothing to undo).
  case documentOpened(path: String)
  /// A file name the user typed.
  case fileNames(FileNamesCommand)
  /// The model's fusion began or ended, or a mesh file opened. A mesh arriving while
  /// only points show makes the scene show the mesh.
  case model(ModelCommand)
}
