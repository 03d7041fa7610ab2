import CGL
import CloudScrubCore
import CloudScrubRender
import Foundation

// The Record section's work: recording the 3D view, drawing a turntable or the
// timeline a frame a turn, and finishing the file.
extension ViewerApp {
  func perform(_ action: RecordAction) {
    let inputs = session.document.map { [$0.path] } ?? []
    do {
      switch action {
      case .recordView(let path):
        guard !recorder.isRecording else { return }
        let scene = sceneRectangle()
        try recorder.startView(
          path: path, width: scene.width, height: scene.height, now: recordingClock(),
          inputs: inputs)
        session.message = .info("recording the view to \(path)")
      case .stopView:
        finishRecording()
      case .draw(let kind, let path):
        guard !recorder.isRecording else { return }
        try recorder.startDrawn(kind, path: path, current: session.state, inputs: inputs)
        session.message = .info("drawing the video to \(path)")
      case .cancel:
        recorder.cancel()
        session.message = .info("video cancelled; nothing written")
      }
    } catch {
      session.message = .error("\(error)")
    }
    panelFramesLeft = 3
  }

  /// V: starts or stops recording the view.
  func toggleViewRecording() {
    if recorder.kind == .view {
      perform(.stopView)
    } else if !recorder.isRecording {
      perform(.recordView(session.state.fileNames.videoPath))
    }
  }

  /// A drawn video's next frame, once a turn; the file is finished after the last.
  func drawVideoFrame() {
    guard recorder.progress != nil else { return }
    do {
      if try recorder.drawNext(
        store: session.content.store, frameErrors: session.alignmentErrors,
        corrections: session.state.edits.shownRefinement?.matrices, mesh: work.model?.scene)
      {
        finishRecording()
      }
    } catch {
      recorder.cancel()
      session.message = .error("the video stopped: \(error)")
    }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
    panelFramesLeft = max(panelFramesLeft, 1)
  }

  /// After a drawn turn: the view's picture into the recording of the view.
  func recordView() {
    guard recorder.kind == .view else { return }
    let scene = sceneRectangle()
    let size = window.framebufferSize
    do {
      try recorder.captureView(
        x: scene.x, y: size.height - scene.y - scene.height, width: scene.width,
        height: scene.height, now: recordingClock())
    } catch {
      finishRecording(note: "\(error)")
    }
  }

  /// Completes the video in hand and says so.
  func finishRecording(note: String? = nil) {
    do {
      let line = try recorder.finish(now: recordingClock())
      session.message = .info(note.map { line + " (\($0))" } ?? line)
    } catch {
      session.message = .error("the video could not be written: \(error)")
    }
    panelFramesLeft = 3
  }

  /// The Record section's view of what runs.
  func recordJob() -> RecordPanel.Job? {
    guard let kind = recorder.kind else { return nil }
    if let progress = recorder.progress {
      return .drawn(kind: kind, done: progress.done, total: progress.total)
    }
    return .view(seconds: Double(recorder.framesWritten) / Double(WindowRecorder.framesPerSecond))
  }

  /// The title's word on a video: "recording", or "video N/M" while one is drawn.
  func recordLine() -> String {
    guard recorder.isRecording else { return "" }
    guard let progress = recorder.progress else { return "recording" }
    return "video \(progress.done)/\(progress.total)"
  }

  /// Seconds since the window started: the clock a recording of the view keeps.
  private func recordingClock() -> Double { Date().timeIntervalSince(started) }
}
