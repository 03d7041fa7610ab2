import Foundation

/// What the timeline's pose controls show for the refinement's state: the progress bar
/// and its label while a pass runs, and the one button beside it (or in its place).
/// `RefinementPanel.drawControls` draws exactly this, so tests drive the states
/// (running, cancelling, cancelling with a pass queued) without a window.
struct RefinementControls: Equatable {
  /// The button and the action it asks for.
  enum Button: Equatable {
    /// "Refine poses": `.start`.
    case refine
    /// "Cancel": `.cancel`.
    case cancel

    var title: String {
      switch self {
      case .refine: "Refine poses"
      case .cancel: "Cancel"
      }
    }

    var action: RefinementAction {
      switch self {
      case .refine: .start
      case .cancel: .cancel
      }
    }
  }

  /// The progress bar's fraction, nil when no pass runs.
  var progressFraction: Double?
  /// The progress bar's label, nil when no pass runs.
  var progressLabel: String?
  /// The button, nil when there is none (no recording loaded, and nothing runs).
  var button: Button?

  /// - Parameters:
  ///   - canRefine: a recording is open and has finished loading.
  ///   - running: the fraction done of the pass under way, nil when none runs.
  ///   - cancelling: the pass under way was cancelled and is winding down.
  ///   - queued: a new pass waits for the cancelled one to end.
  init(canRefine: Bool, running: Double?, cancelling: Bool, queued: Bool) {
    guard let running else {
      button = canRefine ? .refine : nil
      return
    }
    progressFraction = running
    if cancelling {
      // A new pass may be asked for now: it starts once the cancelled one has ended;
      // once one is queued, Cancel drops it (and the cancel stands).
      progressLabel = queued ? "cancelling, then again" : "cancelling…"
      button = queued ? .cancel : (canRefine ? .refine : nil)
    } else {
      progressLabel = "refining \(Int((running * 100).rounded(.down)))%"
      button = .cancel
    }
  }

  /// The title's and panel's word on the poses (`ViewerApp.posesLine`): the pass's
  /// state, or which poses show once a refinement is applied; empty when neither.
  static func statusLine(
    running: Double?, cancelling: Bool, queued: Bool, applied: Bool, showsRefined: Bool
  ) -> String {
    if queued { return "cancelling the refinement, then refining again" }
    if cancelling { return "cancelling the refinement" }
    if let running { return "refining \(Int((running * 100).rounded(.down)))%" }
    guard applied else { return "" }
    return showsRefined ? "refined poses" : "recorded poses"
  }
}
