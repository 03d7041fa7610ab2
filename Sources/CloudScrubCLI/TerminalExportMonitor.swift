import CloudScrubCore
import CloudScrubSession

/// Shows an export's stages on a terminal: "cleaning NN%" while the cleaning steps run,
/// then "writing OUT NN%". Silent when standard error is not a terminal.
final class TerminalExportMonitor: ExportMonitor, @unchecked Sendable {
  private var line: ProgressLine?
  private var showingCleaning = false
  private var shownLabel: String?

  func stageStarted(_ stage: ExportStage) {
    switch stage {
    case .cleaning(_, let index, let count):
      if !showingCleaning {
        line?.finish()
        line = Terminal.progress("cleaning")
        showingCleaning = true
        shownLabel = nil
      }
      line?.update(Double(index) / Double(max(count, 1)))
    case .writing(let path):
      line?.finish()
      line = Terminal.progress("writing \(path)")
      showingCleaning = false
      shownLabel = nil
    }
  }

  func progressed(_ fraction: Double) { line?.update(fraction) }

  /// Shows `label NN%`, on a new line when the label is another than the last one's.
  func show(_ label: String, _ fraction: Double) {
    if label != shownLabel {
      line?.finish()
      line = Terminal.progress(label)
      shownLabel = label
      showingCleaning = false
    }
    line?.update(fraction)
  }

  var isCancelled: Bool { false }

  /// Ends the line on screen.
  func finish() {
    line?.finish()
    line = nil
  }
}
