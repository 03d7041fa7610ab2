import CloudScrubCore
import CloudScrubSession
import Foundation

// The window's work in the background: the export and the pose refinement, started by
// the panels and taken in by the frame loop.
extension ViewerApp {
  /// Starts exporting what is shown in the background; a second export while one runs
  /// is refused with a message.
  func export(to path: String) {
    guard let document = session.document, let visible = session.state.playback.visibleFrames else {
      session.message = .error("nothing to export yet")
      return
    }
    let request = WindowExportRequest(
      document: document, content: session.content, visibleFrames: visible,
      minConfidence: session.state.display.minConfidence, cleaning: session.state.edits.cleaning,
      outputPath: path, refinedPoses: session.state.edits.shownRefinement?.trajectory.poses)
    guard work.exports.start(request, opener: opener) else {
      session.message = .error("an export is running; wait for it or cancel it first")
      return
    }
    session.message = .info("exporting to \(path)")
  }

  /// Takes a finished export's result into the message line.
  func takeExport() {
    guard let result = work.exports.take() else { return }
    switch result {
    case .success(let line): session.message = .info(line)
    case .failure(let error as CleaningCancelled):
      session.message = .info("export cancelled (\(error.step)); nothing written")
    case .failure(let error): session.message = .error("\(error)")
    }
    panelFramesLeft = 3
  }

  /// The export's progress as the panel shows it, nil when no export runs.
  func exportLine() -> String? {
    guard let status = work.exports.status else { return nil }
    let progress = status.progress
    return "\(progress.stage?.label ?? "")\(Int(progress.fraction * 100))\(progress.cancelled)"
  }

  // MARK: - Pose refinement

  /// The title's and panel's word on the poses: the pass's progress, or which poses
  /// show once a refinement is applied; empty when neither.
  func posesLine() -> String {
    let edits = session.state.edits
    return RefinementControls.statusLine(
      running: work.refiner.isRunning ? work.refiner.fractionDone : nil,
      cancelling: work.refiner.isCancelling,
      queued: work.refiner.isQueued, applied: edits.appliedRefinement != nil,
      showsRefined: edits.showsRefinedPoses)
  }

  /// The command that applies a finished refinement (one undo step), or none, with the
  /// message that says why.
  func takeRefinement() -> [ViewerCommand] {
    guard let outcome = work.refiner.take() else { return [] }
    var commands: [ViewerCommand] = []
    switch outcome {
    case .refined(let refinement):
      commands.append(.edit(.applyRefinement(refinement)))
      session.message = .info(
        String(
          format: "refined the poses: cameras moved up to %.1f mm",
          refinement.largestCameraShiftMeters * 1000))
    case .failed(let reason):
      session.message = .error("refinement failed: \(reason)")
    case .cancelled:
      session.message = .info(
        work.refiner.isRunning ? "refinement cancelled; refining again" : "refinement cancelled")
    }
    panelFramesLeft = 3
    return commands
  }

  func perform(_ action: RefinementAction) {
    switch action {
    case .start:
      guard let source = session.document?.recording else { return }
      switch work.refiner.start(source, frames: session.content.frameIndices) {
      case .started: break
      case .queued:
        session.message = .info("the refinement starts once the cancelled one has stopped")
      case .refused:
        session.message = .error("a refinement is running; wait for it or cancel it first")
      }
    case .cancel:
      work.refiner.cancel()
    case .savePoses(let path):
      guard let refinement = session.state.edits.appliedRefinement, let document = session.document
      else { return }
      do {
        try TUMTrajectory.write(
          refinement.trajectory, to: path,
          comments: ["refined by CloudScrub's window from \(document.path)"],
          protecting: [document.path])
        session.message = .info("wrote \(refinement.trajectory.count) poses to \(path)")
      } catch {
        session.message = .error("\(error)")
      }
    }
  }
}
