/// The user's edits of what the viewer shows and exports, the cleaning settings and the
/// applied pose refinement, in one undo history: undo takes back the latest edit
/// whichever kind it was. With them, which poses show: the refined ones or the
/// recorded ones (B), a way of looking at the edit rather than a step of its own.
///
/// Part of `ViewerState`, changed only by `EditCommand`s; the state shows the scene with
/// `shownRefinement`'s corrections whenever it changes.
public struct ViewerEdits: Equatable, Sendable {
  /// One step of the history: everything an undo puts back.
  public struct Step: Equatable, Sendable {
    public var cleaning: CleaningOptions
    /// The applied refinement, nil: the recorded poses.
    public var refinement: PoseRefinement?

    /// A step with these settings and this refinement (none by default).
    public init(cleaning: CleaningOptions = CleaningOptions(), refinement: PoseRefinement? = nil) {
      self.cleaning = cleaning
      self.refinement = refinement
    }
  }

  /// The edits so far, with their past and (after undoing) their future.
  public private(set) var history: UndoHistory<Step>
  /// A crop box being dragged (a widget or a handle in the scene): cleaned with and
  /// drawn while the drag lasts, one undo step when it ends.
  public private(set) var draftCrop: CropBox?
  /// Whether the applied refinement shows (in the scene, the error curve, the preview
  /// and the export) rather than the recorded poses. Applying a refinement shows it.
  public private(set) var showsRefinedPoses = true

  /// Edits that start from `cleaning` (the command line's settings), with nothing
  /// applied and nothing to undo.
  public init(cleaning: CleaningOptions = CleaningOptions()) {
    history = UndoHistory(Step(cleaning: cleaning))
  }

  /// The cleaning settings in effect: the history's, with a crop box being dragged.
  public var cleaning: CleaningOptions {
    var current = history.current.cleaning
    if let draftCrop { current.crop = draftCrop }
    return current
  }

  /// The refinement applied, whether or not it shows.
  public var appliedRefinement: PoseRefinement? { history.current.refinement }

  /// The refinement the viewer draws and exports with: nil while none is applied or the
  /// recorded poses show.
  public var shownRefinement: PoseRefinement? {
    showsRefinedPoses ? history.current.refinement : nil
  }

  /// Whether the next undo takes back (or brings back) a refinement rather than a
  /// cleaning change.
  public var undoChangesRefinement: Bool {
    history.previous.map { $0.refinement != history.current.refinement } ?? false
  }

  /// Whether the next redo applies (or takes away) a refinement again.
  public var redoChangesRefinement: Bool {
    history.next.map { $0.refinement != history.current.refinement } ?? false
  }

  /// Applies one command; the only way the edits change.
  public mutating func apply(_ command: EditCommand) {
    switch command {
    case .setCleaning(let options, let finished):
      var step = history.current
      step.cleaning = options
      history.edit(step, finished: finished)
    case .dragCrop(let box, let finished):
      guard finished else {
        draftCrop = box
        return
      }
      draftCrop = nil
      var step = history.current
      step.cleaning.crop = box
      history.set(step)
    case .applyRefinement(let refinement):
      // A slider held meanwhile keeps its drag as a step of its own.
      if history.isEditing { history.set(history.current) }
      var step = history.current
      step.refinement = refinement
      history.set(step)
      showsRefinedPoses = true
    case .showRefinedPoses(let shows):
      if appliedRefinement != nil { showsRefinedPoses = shows }
    case .toggleRefinedPoses:
      if appliedRefinement != nil { showsRefinedPoses.toggle() }
    case .undo: history.undo()
    case .redo: history.redo()
    }
  }

  /// Starts again for another document: the cleaning settings stay, the refinement (of
  /// the other document's poses) goes, and nothing is left to undo.
  mutating func startAgain() {
    self = ViewerEdits(cleaning: history.current.cleaning)
  }
}

/// Every change to the user's edits (`ViewerEdits`).
public enum EditCommand: Equatable, Sendable {
  /// The cleaning settings after a change in the panel. `finished: false` while a
  /// slider is held: the values follow it, and the whole drag is one undo step, ended
  /// by the next command with `finished: true`.
  case setCleaning(CleaningOptions, finished: Bool)
  /// A drag moved the crop box; `finished` ends the drag, one undo step.
  case dragCrop(CropBox, finished: Bool)
  /// A finished refinement: one undo step, and it shows.
  case applyRefinement(PoseRefinement)
  /// Shows the refined poses or the recorded ones (nothing while none is applied).
  case showRefinedPoses(Bool)
  /// Switches between the refined and the recorded poses (the B key).
  case toggleRefinedPoses
  /// Takes back the latest edit, cleaning or refinement (Ctrl+Z).
  case undo
  /// Makes the edit taken back again (Ctrl+Shift+Z, Ctrl+Y).
  case redo
}
