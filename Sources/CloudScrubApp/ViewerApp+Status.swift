import CloudScrubCore
import Foundation

// What the window says of itself: the title, the drawing line, the 3D view's place,
// and the messages from the scene target and the alignment errors.
extension ViewerApp {
  /// A scene framebuffer that cannot be made leaves the 3D view empty: say why, once
  /// for each new reason, in the panel's message and on standard error. Overlay points
  /// drawn only in part say so in the message.
  func reportSceneTarget() {
    if let overlay = renderer.takeOverlayFailure(), session.message == nil {
      session.message = .error(overlay)
    }
    let failure = backend.sceneTargetError.map { "cannot draw the 3D view: \($0)" }
    guard failure != reportedSceneTarget else { return }
    reportedSceneTarget = failure
    guard let failure else { return }
    session.message = .error(failure)
    FileHandle.standardError.write(Data("cloudscrub: \(failure)\n".utf8))
  }

  /// What the panel says of the drawing: the budget, the points drawn, how far the
  /// picture has refined, and why the points look as they do when the viewer chose it.
  func drawingLine() -> String {
    let line = refinementLine()
    guard let note = session.state.display.lookNote else { return line }
    return line + "; " + note
  }

  private func refinementLine() -> String {
    let (drawn, total) = passes.progress
    let budget = Self.rounded(passes.budgetPoints)
    var sorting = ""
    let content = session.content
    if content.hasLevelOfDetail, !content.levelOfDetailIsComplete {
      sorting =
        "; level of detail \(Self.rounded(content.levelOfDetailCount)) of "
        + "\(Self.rounded(content.store.count))"
    }
    guard total > 0 else { return "point budget \(budget) a pass" + sorting }
    let percent = Int((100 * Double(drawn) / Double(total)).rounded(.down))
    return
      "drawn \(ViewerPanels.grouped(drawn)) of \(ViewerPanels.grouped(total)) points (\(percent)%), "
      + "point budget \(budget) a pass" + sorting
  }

  /// A count to two significant figures ("3.2 M"), steady while the measured speed
  /// wobbles.
  static func rounded(_ count: Int) -> String {
    let value = Double(count)
    let (scaled, unit) =
      value >= 1e6 ? (value / 1e6, " M") : value >= 1e3 ? (value / 1e3, " k") : (value, "")
    return String(format: scaled >= 10 ? "%.0f" : "%.1f", scaled) + unit
  }

  /// The title says what is open and where the playhead is, so that scripts driving
  /// the window (the end-to-end test) can read the state: "CloudScrub — NAME — frame
  /// K/N", with " — measuring" while the alignment pass runs, " — sorting" while the
  /// level of detail grows, " — drawing" while the picture still has passes to draw,
  /// " — playing" while playback runs and " — loading" while
  /// frames are still coming, then the poses', the model's and the video's words
  /// (" — mesh", " — recording").
  func updateTitle() {
    var text = "CloudScrub"
    if let document = session.document {
      text += " — " + URL(fileURLWithPath: document.path).lastPathComponent
      let playback = session.state.playback
      let frames = session.content.frameIndices
      if frames.indices.contains(playback.currentFrame) {
        text += " — frame \(frames[playback.currentFrame])/\(frames.count)"
      }
      // The passes that go on after loading, so that a script knows when the window
      // rests (before "loading", which scripts read at the end).
      if session.alignmentProgress != nil { text += " — measuring" }
      if session.content.hasLevelOfDetail, !session.content.levelOfDetailIsComplete {
        text += " — sorting"
      }
      if passes.hasPassesLeft { text += " — drawing" }
      if playback.isPlaying { text += " — playing" }
      if session.isLoading { text += " — loading" }
      text += posesLine().isEmpty ? "" : " — " + posesLine()
      text += modelLine().isEmpty ? "" : " — " + modelLine()
      text += recordLine().isEmpty ? "" : " — " + recordLine()
    }
    if case .error = session.message { text += " — error" }
    if text != title {
      title = text
      window.setTitle(text)
    }
  }

  /// The part of the window the 3D view gets (top-left origin, framebuffer pixels):
  /// between the side panels and above the timeline.
  func sceneRectangle() -> (x: Int, y: Int, width: Int, height: Int) {
    let size = window.framebufferSize
    let scale = window.pixelScale
    let layout = ViewerPanels.sceneArea(
      width: Float(size.width) / scale, height: Float(size.height) / scale,
      hasFramePanel: session.document?.recording != nil,
      hasErrorCurve: session.showsErrorCurve)
    return (
      Int(layout.x * scale), Int(layout.y * scale), max(1, Int(layout.width * scale)),
      max(1, Int(layout.height * scale))
    )
  }

  /// Asks the provider for the alignment errors of what is loaded; a change redraws
  /// the curve and, in the error colour mode, the points.
  func updateAlignmentErrors() {
    guard let document = session.document else { return }
    session.alignmentProgress = alignment?.progress
    defer {
      // The failure takes the message line from any news; an error already there is
      // the load's, which named the frame the pass could not read either.
      if let failure = alignment?.takeFailure(), !session.showsError {
        session.message = .error(failure)
      }
    }
    // While refined poses show, the curve is theirs.
    guard
      let errors = session.state.edits.shownRefinement?.errors
        ?? alignment?.errors(for: document, content: session.content)
    else {
      if session.alignmentErrors != nil { session.alignmentErrors = nil }
      return
    }
    if errors != session.alignmentErrors { session.alignmentErrors = errors }
  }
}
