import CImGuiBridge
import CloudScrubCore
import Foundation

/// What the poses section asks of the frame loop.
enum RefinementAction: Equatable {
  /// Refine the open recording's poses in the background.
  case start
  case cancel
  /// Write the applied refinement's trajectory (TUM) to the path.
  case savePoses(String)
}

/// The window's pose refinement: the applied refinement in an undo history (applying
/// one is a step, undo takes it back), whether the scene shows it ("after") or the
/// recording's poses ("before", key B), and the path "Save poses…" writes to.
struct RefinementPanel {
  private(set) var history = UndoHistory<PoseRefinement?>(nil)
  /// Whether the scene, the error curve and the export use the applied refinement.
  var showsRefined = true
  /// Set by the frame loop each turn: the pass under way was cancelled and is winding
  /// down, and whether a new pass waits for it.
  var cancelling = false
  var queued = false
  /// The trajectory path's field, showing `ViewerState.fileNames.posesPath`.
  private var pathField = TextField()

  /// The refinement applied (whether or not it is shown).
  var applied: PoseRefinement? { history.current }

  /// The refinement the scene draws with: nil while none is applied or "before" shows.
  var shown: PoseRefinement? { showsRefined ? history.current : nil }

  /// Applies a finished refinement (one undo step) and shows it.
  mutating func apply(_ refinement: PoseRefinement) {
    history.set(refinement)
    showsRefined = true
  }

  mutating func undo() { history.undo() }
  mutating func redo() { history.redo() }

  /// Switches between the recording's and the refined poses (nothing to switch while
  /// none is applied).
  mutating func toggleShown() {
    if applied != nil { showsRefined.toggle() }
  }

  /// The controls on the timeline's first row (after `csui_same_line`): "Refine
  /// poses", or the pass's progress with "Cancel" (`RefinementControls`); then, once one is applied, the
  /// before/after checkbox and undo and redo.
  ///
  /// - Parameters:
  ///   - canRefine: a recording is open and has finished loading.
  ///   - running: the fraction done of the pass under way, nil when none runs.
  mutating func drawControls(canRefine: Bool, running: Double?) -> [RefinementAction] {
    var actions: [RefinementAction] = []
    let controls = RefinementControls(
      canRefine: canRefine, running: running, cancelling: cancelling, queued: queued)
    if let fraction = controls.progressFraction {
      csui_progress(Float(fraction), 160, controls.progressLabel ?? "")
      if controls.button != nil { csui_same_line() }
    }
    if let button = controls.button, csui_button(button.title) { actions.append(button.action) }
    if applied != nil {
      csui_same_line()
      var after = showsRefined
      if csui_checkbox("refined poses (B)", &after) { showsRefined = after }
    }
    if history.canUndo {
      csui_same_line()
      if csui_button("Undo refinement") { undo() }
    }
    if history.canRedo {
      csui_same_line()
      if csui_button("Redo refinement") { redo() }
    }
    return actions
  }

  /// The poses section of the left panel: how far the cameras moved, and "Save
  /// poses" with its path (`posesPath`, the state's).
  mutating func drawSave(posesPath: String) -> [PanelAction] {
    guard let applied else {
      csui_text_wrapped("Refine poses (on the timeline) to save them.")
      return []
    }
    csui_text(
      String(format: "cameras moved up to %.1f mm", applied.largestCameraShiftMeters * 1000))
    var actions: [PanelAction] = []
    var path = posesPath
    csui_set_next_item_width(-1)
    if let typed = pathField.draw("##poses", showing: posesPath) {
      actions.append(.command(.fileNames(.setPosesPath(typed))))
      path = typed
    }
    if csui_button("Save poses (TUM)") { actions.append(.refinement(.savePoses(path))) }
    return actions
  }
}
