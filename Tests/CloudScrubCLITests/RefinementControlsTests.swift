import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubApp

/// The refine button's states, driven through a real `BackgroundRefinement` held in
/// its first read by a gate (`RefinementQueueTests.GatedRecording`): the controls the
/// timeline draws (`RefinementControls`, as the frame loop computes them from the
/// refiner each turn) and the title's word, while the pass runs, after Cancel
/// ("cancelling…", and "Refine poses" offered again), after Refine poses is pressed
/// then ("cancelling, then again", and Cancel offered), after that Cancel, and once
/// the pass ends. No sleeps: every change of state comes from a call the test makes,
/// and the end from the pass's own signal.
@Suite struct RefinementControlsTests {
  /// The controls and the title's word for `refiner`'s state, as `ViewerApp` builds
  /// them each turn.
  static func shown(_ refiner: BackgroundRefinement) -> (RefinementControls, String) {
    let running = refiner.isRunning ? refiner.fractionDone : nil
    let controls = RefinementControls(
      canRefine: true, running: running, cancelling: refiner.isCancelling,
      queued: refiner.isQueued)
    let line = RefinementControls.statusLine(
      running: running, cancelling: refiner.isCancelling, queued: refiner.isQueued,
      applied: false, showsRefined: true)
    return (controls, line)
  }

  /// Presses the controls' button: what `ViewerApp.perform` does with its action.
  static func press(
    _ controls: RefinementControls, _ refiner: BackgroundRefinement, source: any RecordingSource
  ) -> BackgroundRefinement.Start? {
    switch controls.button?.action {
    case .start?: return refiner.start(source, frames: Array(0..<source.frameCount))
    case .cancel?:
      refiner.cancel()
      return nil
    default: return nil
    }
  }

  @Test func cancellingThenQueuedThenCancelledAgain() throws {
    let source = RefinementQueueTests.GatedRecording()
    let refiner = BackgroundRefinement()

    var (controls, line) = Self.shown(refiner)
    #expect(
      controls
        == RefinementControls(canRefine: true, running: nil, cancelling: false, queued: false))
    #expect(controls.button == .refine && controls.progressLabel == nil && line.isEmpty)
    #expect(Self.press(controls, refiner, source: source) == .started)

    // Running, held at its first read: 0 % and Cancel.
    (controls, line) = Self.shown(refiner)
    #expect(controls.progressFraction == 0 && controls.progressLabel == "refining 0%")
    #expect(controls.button == .cancel && line == "refining 0%")
    _ = Self.press(controls, refiner, source: source)

    // Cancelled, still winding down: "cancelling…", and Refine poses may be asked again.
    (controls, line) = Self.shown(refiner)
    #expect(controls.progressLabel == "cancelling…" && controls.button == .refine)
    #expect(line == "cancelling the refinement")
    #expect(Self.press(controls, refiner, source: source) == .queued)

    // A pass queued behind it: the label says so and the button is Cancel.
    (controls, line) = Self.shown(refiner)
    #expect(controls.progressLabel == "cancelling, then again" && controls.button == .cancel)
    #expect(line == "cancelling the refinement, then refining again")
    _ = Self.press(controls, refiner, source: source)

    // That Cancel dropped the queued pass; the first one is still cancelling.
    (controls, line) = Self.shown(refiner)
    #expect(controls.progressLabel == "cancelling…" && controls.button == .refine)
    #expect(line == "cancelling the refinement")

    source.openGate()
    guard case .cancelled? = RefinementQueueTests.nextOutcome(refiner) else {
      Issue.record("the pass did not end cancelled")
      return
    }
    (controls, line) = Self.shown(refiner)
    #expect(controls.button == .refine && controls.progressFraction == nil && line.isEmpty)
  }

  @Test func aQueuedPassRunsOnceTheCancelledOneEnds() throws {
    let source = RefinementQueueTests.GatedRecording()
    // The queued pass reads a recording of its own, held until the test has looked.
    let next = RefinementQueueTests.GatedRecording()
    let refiner = BackgroundRefinement()
    #expect(Self.press(Self.shown(refiner).0, refiner, source: source) == .started)
    _ = Self.press(Self.shown(refiner).0, refiner, source: source)  // Cancel
    #expect(Self.press(Self.shown(refiner).0, refiner, source: next) == .queued)
    #expect(Self.shown(refiner).0.progressLabel == "cancelling, then again")
    source.openGate()
    guard case .cancelled? = RefinementQueueTests.nextOutcome(refiner) else {
      Issue.record("the first pass did not end cancelled")
      return
    }
    // Taking the cancelled outcome started the queued pass: running, not cancelling.
    let (controls, line) = Self.shown(refiner)
    #expect(controls.button == .cancel && controls.progressLabel == "refining 0%")
    #expect(line == "refining 0%")
    next.openGate()
    guard case .refined? = RefinementQueueTests.nextOutcome(refiner) else {
      Issue.record("the queued pass did not refine")
      return
    }
    #expect(Self.shown(refiner).0.button == .refine)
  }

  @Test func withoutALoadedRecordingThereIsNoButtonUnlessOneIsToCancel() {
    #expect(
      RefinementControls(canRefine: false, running: nil, cancelling: false, queued: false).button
        == nil)
    #expect(
      RefinementControls(canRefine: false, running: 0.5, cancelling: false, queued: false).button
        == .cancel)
    #expect(
      RefinementControls(canRefine: false, running: 0.5, cancelling: true, queued: false).button
        == nil)
    #expect(
      RefinementControls(canRefine: false, running: 0.25, cancelling: false, queued: false)
        .progressLabel == "refining 25%")
    #expect(
      RefinementControls.statusLine(
        running: nil, cancelling: false, queued: false, applied: true, showsRefined: false)
        == "recorded poses")
  }
}
