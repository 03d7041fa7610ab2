import CloudScrubCore
import CloudScrubRender
import CloudScrubSession

/// The window's background jobs: the open document's frame images, cleaning preview,
/// whole frame under the playhead, pose refinement and model fusion, each a
/// `BackgroundWork` whose result the frame loop takes, and the export; and the scene's
/// mesh. Opening another document resets the
/// document's jobs in one call (`documentChanged`); an export still running goes on
/// writing the file it was asked for.
final class DocumentWork {
  let previews = PreviewTextures()
  let cleaningPreview: CleaningPreview
  let wholeFrame: WholeFrame
  /// The pose refinement's background pass; what it applied is the state's
  /// (`ViewerEdits`).
  let refiner = BackgroundRefinement()
  let exports = BackgroundExport()
  /// The model's fusion and its export.
  let fusion = BackgroundFusion()
  /// The scene's mesh (fused, or a mesh file's), nil while there is none.
  var model: ShownModel?

  /// Needs the window's GL context current (the previews keep textures).
  init(backend: GLBackend) {
    cleaningPreview = CleaningPreview(backend: backend)
    wholeFrame = WholeFrame(backend: backend)
  }

  /// Whether a job runs whose result the loop waits to take in.
  var isWorking: Bool {
    previews.isWorking || cleaningPreview.isRunning || wholeFrame.isWorking
      || exports.isRunning || refiner.isRunning || fusion.isRunning || fusion.isSaving
  }

  /// Drops every result of the document before and stops its refinement.
  func documentChanged() {
    cleaningPreview.clear()
    previews.clear()
    wholeFrame.clear()
    refiner.invalidate()
    fusion.invalidate()
    model = nil
  }
}
