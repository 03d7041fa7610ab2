import CloudScrubCore
import CloudScrubSession

/// Shows an export's stages on a terminal: "loading PATH NN%" while frames stream,
/// "cleaning NN%" while the cleaning steps run, then "writing OUT NN%". Silent when
/// standard error is not a terminal.
final class TerminalExportMonitor: ExportMonitor, @unchecked Sendable {
  private var line: ProgressLine?
  private var shownLabel: String?

  func stageStarted(_ stage: ExportStage) {
    switch stage {
    case .cleaning(_, let index, let count):
      showLine("cleaning")
      line?.update(Double(index) / Double(max(count, 1)))
    case .writing(let path):
      showLine("writing \(path)")
    }
  }

  func progressed(_ fraction: Double) { line?.update(fraction) }

  /// Shows `label NN%`.
  func show(_ label: String, _ fraction: Double) {
    showLine(label)
    line?.update(fraction)
  }

  var isCancelled: Bool { false }

  /// Ends the line on screen.
  func finish() {
    line?.finish()
    line = nil
    shownLabel = nil
  }

  /// A new line for `label` unless it is the one shown.
  private func showLine(_ label: String) {
    guard label != shownLabel else { return }
    line?.finish()
    line = Terminal.progress(label)
    shownLabel = label
  }
}
