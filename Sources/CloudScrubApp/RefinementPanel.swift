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
  var posesPath = "poses.txt"
  private var pathBuffer = [CChar](repeating: 0, count: 1024)

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

  /// The poses section: refine with progress and cancel, before/after, undo, save.
  ///
  /// - Parameters:
  ///   - canRefine: a recording is open and has finished loading.
  ///   - running: the fraction done of the pass under way, nil when none runs.
  mutating func draw(canRefine: Bool, running: Double?) -> [RefinementAction] {
    var actions: [RefinementAction] = []
    if let running {
      csui_progress(Float(running), -1, "refining \(Int((running * 100).rounded(.down)))%")
      if csui_button("Cancel refinement") { actions.append(.cancel) }
    } else if canRefine {
      if csui_button("Refine poses") { actions.append(.start) }
    } else {
      csui_text("refining needs a loaded recording")
    }
    if let applied {
      var after = showsRefined
      if csui_checkbox("refined poses (B)", &after) { showsRefined = after }
      csui_text(
        String(format: "cameras moved up to %.1f mm", applied.largestCameraShiftMeters * 1000))
    }
    if history.canUndo {
      if csui_button("Undo refinement") { undo() }
      if history.canRedo { csui_same_line() }
    }
    if history.canRedo, csui_button("Redo refinement") { redo() }
    if applied != nil {
      if pathBuffer[0] == 0 { ViewerPanels.fill(&pathBuffer, with: posesPath) }
      csui_set_next_item_width(-1)
      _ = csui_input_text("##poses", &pathBuffer, pathBuffer.count)
      if csui_button("Save poses (TUM)") {
        let path = String(
          decoding: pathBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        actions.append(.savePoses(path))
      }
    }
    return actions
  }

  /// The default trajectory path beside `input`: `NAME-poses.txt`.
  static func defaultPosesPath(for input: String) -> String {
    let url = URL(fileURLWithPath: input)
    let base = url.deletingPathExtension().lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent("\(base)-poses.txt").path
  }
}
