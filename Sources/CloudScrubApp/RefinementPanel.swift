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

/// The window's pose refinement controls. The applied refinement, whether it shows
/// ("after") or the recording's poses do ("before", key B), and its undo are the viewer
/// state's (`ViewerEdits`); the panel draws them and asks for changes by command.
struct RefinementPanel {
  /// Set by the frame loop each turn: the pass under way was cancelled and is winding
  /// down, and whether a new pass waits for it.
  var cancelling = false
  var queued = false
  /// The trajectory path's field, showing `ViewerState.fileNames.posesPath`.
  private var pathField = TextField()

  /// The controls on the timeline's first row (after `csui_same_line`): "Refine
  /// poses", or the pass's progress with "Cancel" (`RefinementControls`); then, once
  /// one is applied, the before/after checkbox, and undo and redo while the next step
  /// either way is a refinement's.
  ///
  /// - Parameters:
  ///   - edits: the state's edits, which say what is applied and shown.
  ///   - canRefine: a recording is open and has finished loading.
  ///   - running: the fraction done of the pass under way, nil when none runs.
  mutating func drawControls(edits: ViewerEdits, canRefine: Bool, running: Double?)
    -> [PanelAction]
  {
    var actions: [PanelAction] = []
    let controls = RefinementControls(
      canRefine: canRefine, running: running, cancelling: cancelling, queued: queued)
    if let fraction = controls.progressFraction {
      csui_progress(Float(fraction), 160, controls.progressLabel ?? "")
      if controls.button != nil { csui_same_line() }
    }
    if let button = controls.button, csui_button(button.title) {
      actions.append(.refinement(button.action))
    }
    if edits.appliedRefinement != nil {
      csui_same_line()
      var after = edits.showsRefinedPoses
      if csui_checkbox("refined poses (B)", &after) {
        actions.append(.command(.edit(.showRefinedPoses(after))))
      }
    }
    if edits.undoChangesRefinement {
      csui_same_line()
      if csui_button("Undo refinement") { actions.append(.command(.edit(.undo))) }
    }
    if edits.redoChangesRefinement {
      csui_same_line()
      if csui_button("Redo refinement") { actions.append(.command(.edit(.redo))) }
    }
    return actions
  }

  /// The poses section of the left panel: how far the applied refinement moved the
  /// cameras, and "Save poses" with its path (`posesPath`, the state's).
  mutating func drawSave(applied: PoseRefinement?, posesPath: String) -> [PanelAction] {
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
