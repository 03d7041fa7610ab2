import CImGuiBridge
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// What the user asked for in a panel.
enum PanelAction {
  case command(ViewerCommand)
  case open(String)
  case export(String)
  /// Stops the export that runs in the background.
  case cancelExport
  case setRenderer(PointRendererChoice)
  case selection(SelectionCommand)
  case refinement(RefinementAction)
  case model(ModelAction)
  case record(RecordAction)
}

/// The panels laid over the 3D view: controls on the left, the current frame's images
/// on the right, the timeline along the bottom. Reads the session; every change it
/// wants comes back as an action, applied by the frame loop.
struct ViewerPanels {
  static let margin: Float = 8
  static let sideWidth: Float = 290
  static let timelineHeight: Float = 78

  /// The timeline panel's height: taller when it draws the alignment-error curve.
  static func timelineHeight(errorCurve: Bool) -> Float {
    errorCurve ? timelineHeight + ErrorCurve.heightPixels + 22 : timelineHeight
  }

  /// The cleaning section, with its fields and preview switch.
  var cleaning: CleaningPanel
  /// The pose refinement's controls (cancelling, queued); a new document starts them
  /// anew.
  var poses = RefinementPanel()
  /// The export running in the background, shown in the Export panel; set by the frame
  /// loop each turn.
  var exportStatus: BackgroundExport.Status?
  /// The Model section, with the fusion's progress the frame loop sets each turn.
  var model = ModelPanel()
  /// The Record section, with the video under way the frame loop sets each turn.
  var record = RecordPanel()
  /// The export path's field, showing `ViewerState.fileNames.exportPath`.
  private var exportField = TextField()
  private var openField = TextField()

  /// Panels whose cleaning section starts with `cleaning` (`view --voxel …`).
  init(cleaning: CleaningOptions) {
    self.cleaning = CleaningPanel(initial: cleaning)
  }

  /// Where the 3D view goes in a window of `width` × `height` (window coordinates,
  /// top-left origin).
  static func sceneArea(
    width: Float, height: Float, hasFramePanel: Bool, hasErrorCurve: Bool = false
  ) -> (x: Float, y: Float, width: Float, height: Float) {
    let left = sideWidth + 2 * margin
    let right = hasFramePanel ? sideWidth + 2 * margin : margin
    let timeline = timelineHeight(errorCurve: hasErrorCurve)
    return (left, margin, max(1, width - left - right), max(1, height - timeline - 3 * margin))
  }

  mutating func draw(
    session: ViewerSession, previews: PreviewTextures, cleaningSummary: String,
    drawing: String, renderer: RendererSwitch.Status, width: Float, height: Float,
    poseRefining: Double?
  ) -> [PanelAction] {
    var actions: [PanelAction] = []
    let timelineHeight = Self.timelineHeight(errorCurve: session.showsErrorCurve)
    controls(
      session, &actions, cleaningSummary: cleaningSummary, renderer: renderer,
      height: height, timelineHeight: timelineHeight, poseRefining: poseRefining)
    if session.document?.recording != nil {
      frameImages(
        previews, x: width - Self.sideWidth - Self.margin, height: height,
        timelineHeight: timelineHeight)
    }
    timeline(
      session, &actions, drawing: drawing, width: width, height: height,
      timelineHeight: timelineHeight, poseRefining: poseRefining)
    let scene = Self.sceneArea(
      width: width, height: height, hasFramePanel: session.document?.recording != nil,
      hasErrorCurve: session.showsErrorCurve)
    PickingPanel.draw(session, &actions, scene: scene)
    return actions
  }

  // MARK: - Controls

  private mutating func controls(
    _ session: ViewerSession, _ actions: inout [PanelAction], cleaningSummary: String,
    renderer: RendererSwitch.Status, height: Float, timelineHeight: Float,
    poseRefining: Double?
  ) {
    defer { csui_end() }
    guard
      csui_begin(
        "Controls", Self.margin, Self.margin, Self.sideWidth,
        height - timelineHeight - 3 * Self.margin, true)
    else { return }
    let state = session.state
    let display = state.display
    if let document = session.document {
      csui_text(URL(fileURLWithPath: document.path).lastPathComponent)
      csui_text_wrapped(document.summary)
      for note in document.notes + document.load.notes { csui_text_wrapped(note) }
      csui_text(
        "\(Self.grouped(session.content.store.count)) points, \(session.content.frameCount) frames")
      switch document.load.status {
      case .loading(let done, let total):
        // A point-cloud file counts hundredths of the file read; a recording, frames.
        let label =
          document.recording != nil
          ? "loading \(done)/\(total)"
          : done == 0 ? "reading the file" : "reading \(done * 100 / max(total, 1))%"
        csui_progress(total > 0 ? Float(done) / Float(total) : 0, -1, label)
      case .failed:
        csui_text_colored(0.95, 0.4, 0.35, "loading stopped")
      default: break
      }
    } else {
      csui_text("Drop a PLY file or a recording here,")
      csui_text("or type its path:")
    }
    csui_set_next_item_width(-1)
    _ = openField.draw("##open")
    if csui_button("Open") {
      let path = openField.text
      if !path.isEmpty { actions.append(.open(path)) }
    }
    if let message = session.message {
      switch message {
      case .info(let text): csui_text_colored(0.5, 0.9, 0.5, text)
      case .error(let text): csui_text_colored(0.95, 0.4, 0.35, text)
      }
    }

    if csui_collapsing_header("Points", true) {
      // The intensity mode is offered for points that carry intensity (a scan's), on a
      // row of its own.
      let offered = PointColorMode.allCases.filter {
        $0 != .intensity || session.content.store.hasIntensity || display.colorMode == $0
      }
      for (index, mode) in offered.enumerated() {
        if index % 3 != 0 { csui_same_line() }
        if csui_radio(mode.rawValue, display.colorMode == mode) {
          actions.append(.command(.display(.setColorMode(mode))))
        }
      }
      var size = display.pointSizePixels
      if csui_slider_float("size (px)", &size, 1, 12, "%.0f") {
        actions.append(.command(.display(.setPointSize(size))))
      }
      var round = display.roundPoints
      if csui_checkbox("round", &round) {
        actions.append(.command(.display(.setRoundPoints(round))))
      }
      csui_same_line()
      var edl = display.eyeDomeLighting
      if csui_checkbox("eye-dome lighting", &edl) {
        actions.append(.command(.display(.toggleEyeDomeLighting)))
      }
      csui_text("minimum confidence")
      for level in ConfidenceLevel.allCases {
        if level != .low { csui_same_line() }
        if csui_radio("\(level)", display.minConfidence == level) {
          actions.append(.command(.display(.setMinConfidence(level))))
        }
      }
    }
    if csui_collapsing_header("Timeline", true) {
      let mode = state.playback.mode
      if csui_radio("up to playhead", mode == .upToPlayhead) {
        actions.append(.command(.playback(.setMode(.upToPlayhead))))
      }
      if csui_radio("current frame", mode == .currentFrameOnly) {
        actions.append(.command(.playback(.setMode(.currentFrameOnly))))
      }
      if csui_radio("last N frames", mode == .lastFrames) {
        actions.append(.command(.playback(.setMode(.lastFrames))))
      }
      csui_same_line()
      csui_set_next_item_width(-1)
      var lastFrames = Int32(clamping: state.playback.lastFramesCount)
      if csui_slider_int("##last-frames", &lastFrames, 1, 300, "N = %d") {
        actions.append(.command(.playback(.setLastFramesCount(Int(lastFrames)))))
      }
    }
    if csui_collapsing_header("View", true) {
      if csui_button("Fit (F)") { actions.append(.command(.camera(.fit))) }
      csui_same_line()
      if csui_button("Reset (R)") { actions.append(.command(.camera(.reset))) }
      csui_same_line()
      if csui_button("Capture (C)") { actions.append(.command(.camera(.lookThroughCaptureCamera))) }
      var grid = display.showGrid
      if csui_checkbox("grid", &grid) { actions.append(.command(.display(.toggleGrid))) }
      csui_same_line()
      var axes = display.showAxes
      if csui_checkbox("axes", &axes) { actions.append(.command(.display(.toggleAxes))) }
      var trajectory = display.showTrajectory
      if csui_checkbox("trajectory", &trajectory) {
        actions.append(.command(.display(.toggleTrajectory)))
      }
      csui_same_line()
      var frustum = display.showFrustum
      if csui_checkbox("frustum", &frustum) { actions.append(.command(.display(.toggleFrustum))) }
      var measuring = session.selection.mode == .measure
      if csui_checkbox("measure: click two points", &measuring) {
        actions.append(.selection(.setMode(measuring ? .measure : .inspect)))
      }
      csui_text_wrapped(renderer.line)
      for (index, choice) in PointRendererChoice.allCases.enumerated() {
        if index > 0 { csui_same_line() }
        let label = choice == .auto ? "auto" : choice == .gl ? "OpenGL" : "CPU"
        if csui_radio(label, renderer.choice == choice) { actions.append(.setRenderer(choice)) }
      }
    }
    if csui_collapsing_header("Clean", false) {
      actions += cleaning.draw(
        edits: state.edits, sceneBounds: state.scene.bounds, up: session.content.worldUp
      ).map { .command($0) }
      if cleaning.previewEnabled && !cleaningSummary.isEmpty { csui_text(cleaningSummary) }
    }
    if csui_collapsing_header("Export", true) {
      var exportPath = state.fileNames.exportPath
      csui_set_next_item_width(-1)
      if let typed = exportField.draw("##export", showing: exportPath) {
        actions.append(.command(.fileNames(.setExportPath(typed))))
        exportPath = typed
      }
      if let status = exportStatus {
        let progress = status.progress
        let stage = progress.cancelled ? "cancelling" : progress.stage?.label ?? "starting"
        csui_text_wrapped("exporting \(URL(fileURLWithPath: status.outputPath).lastPathComponent)")
        let percent = Int((progress.fraction * 100).rounded(.down))
        csui_progress(Float(progress.fraction), -1, "\(stage) \(percent)%")
        if csui_button("Cancel export") { actions.append(.cancelExport) }
      } else if csui_button("Export shown points (.ply .pcd .las .laz .copc.laz .e57 .xyz .csv)") {
        actions.append(.export(exportPath))
      }
    }
    // After the export, so that the sections above keep their places.
    if session.document?.recording != nil, csui_collapsing_header("Poses", true) {
      actions += poses.drawSave(
        applied: state.edits.appliedRefinement, posesPath: state.fileNames.posesPath)
    }
    let canFuse = session.document?.recording != nil && !session.isLoading
    if canFuse || state.model.shown != nil, csui_collapsing_header("Model", false) {
      actions += model.draw(state: state, canFuse: canFuse)
    }
    if session.document != nil, csui_collapsing_header("Record", false) {
      actions += record.draw(state: state, hasTimeline: session.document?.recording != nil)
    }
  }

  // MARK: - Frame images

  private func frameImages(
    _ previews: PreviewTextures, x: Float, height: Float, timelineHeight: Float
  ) {
    defer { csui_end() }
    guard
      csui_begin(
        "Frame", x, Self.margin, Self.sideWidth, height - timelineHeight - 3 * Self.margin, true)
    else { return }
    let width = csui_available_width()
    // Three images share the panel's height: each gets a third, less its caption,
    // and keeps its aspect (portrait captures are tall).
    let slot = (height - timelineHeight - 3 * Self.margin - 90) / 3
    if let failure = previews.failure { csui_text_colored(0.95, 0.4, 0.35, failure) }
    for (title, texture) in [
      ("colour", previews.color), ("depth", previews.depth), ("confidence", previews.confidence),
    ] {
      csui_text(title)
      if let texture {
        let aspect = Float(texture.width) / Float(max(texture.height, 1))
        let w = min(width, slot * aspect)
        csui_image(texture.id, w, w / aspect)
      } else {
        csui_text("  (none)")
      }
    }
    if let range = previews.depthRangeMeters {
      csui_text(
        String(format: "depth: blue %.2f m to red %.2f m", range.lowerBound, range.upperBound))
    }
  }

  // MARK: - Timeline

  /// The timeline panel: buttons and the playhead's frame, the slider, and a line on how
  /// far the picture has drawn (`drawing`).
  private mutating func timeline(
    _ session: ViewerSession, _ actions: inout [PanelAction], drawing: String, width: Float,
    height: Float, timelineHeight: Float, poseRefining: Double?
  ) {
    defer { csui_end() }
    guard
      csui_begin(
        "Timeline", Self.margin, height - timelineHeight - Self.margin, width - 2 * Self.margin,
        timelineHeight, true)
    else { return }
    let playback = session.state.playback
    let count = playback.loadedFrameCount
    if csui_button(playback.isPlaying ? "Pause" : " Play ") {
      actions.append(.command(.playback(.togglePlay)))
    }
    csui_same_line()
    if csui_button("|<") { actions.append(.command(.playback(.jumpToStart))) }
    csui_same_line()
    if csui_button("<") { actions.append(.command(.playback(.step(-1)))) }
    csui_same_line()
    if csui_button(">") { actions.append(.command(.playback(.step(1)))) }
    csui_same_line()
    if csui_button(">|") { actions.append(.command(.playback(.jumpToEnd))) }
    csui_same_line()
    let time =
      count > 0
      ? playback.frameTimestampsSeconds[playback.currentFrame] - playback.frameTimestampsSeconds[0]
      : 0
    let recordingFrame =
      session.content.frameIndices.indices.contains(playback.currentFrame)
      ? session.content.frameIndices[playback.currentFrame] : 0
    csui_text(
      count > 0
        ? "frame \(recordingFrame) (\(playback.currentFrame + 1) of \(count))   "
          + String(format: "%.2f s", time) + "   " + Self.modeName(playback)
        : "no frames")
    let untracked = session.untrackedFrames
    if untracked > 0 {
      csui_same_line()
      if recordingFrame < untracked {
        csui_text_colored(0.95, 0.7, 0.3, "  before tracking started")
        csui_same_line()
      }
      var hide = playback.hiddenLeadingFrames > 0
      if csui_checkbox("hide the \(untracked) untracked frames (0-\(untracked - 1))", &hide) {
        actions.append(
          // The window loads every frame in order: frame n is timeline position n.
          .command(.playback(.hideLeadingFrames(hide ? untracked : 0))))
      }
    }
    if session.document?.recording != nil {
      csui_same_line()
      csui_text("  ")
      csui_same_line()
      let loaded = session.document.map { !$0.load.hasFramesToCome } ?? false
      actions += poses.drawControls(
        edits: session.state.edits, canRefine: loaded, running: poseRefining)
    }
    if session.showsErrorCurve {
      let errors = session.alignmentErrors ?? FrameAlignmentErrors(frameCount: 0)
      if let frame = ErrorCurve.draw(
        errors, playhead: playback.currentFrame, frameCount: count,
        refinement: session.state.edits.shownRefinement),
        frame != playback.currentFrame
      {
        actions.append(.command(.playback(.seek(frame: frame))))
      }
    }
    var frame = Int32(playback.currentFrame)
    csui_set_next_item_width(-1)
    if csui_slider_int("##timeline", &frame, 0, Int32(max(count - 1, 0)), "") {
      actions.append(.command(.playback(.seek(frame: Int(frame)))))
    }
    csui_text_colored(0.6, 0.6, 0.6, drawing)
    if session.showsErrorCurve {
      csui_text_colored(
        0.6, 0.6, 0.6,
        ErrorCurve.legend(session.alignmentErrors, measuring: session.alignmentProgress)
          + (session.state.edits.shownRefinement.map { "; " + ErrorCurve.refinementLegend($0) }
            ?? ""))
    }
  }

  /// The timeline line's word on the mode, with the last-N mode's count.
  static func modeName(_ playback: Playback) -> String {
    switch playback.mode {
    case .upToPlayhead: return "all up to here"
    case .currentFrameOnly: return "this frame only"
    case .lastFrames: return "last \(playback.lastFramesCount) frames"
    }
  }

  static func grouped(_ n: Int) -> String {
    let digits = String(n)
    var result = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { result += "," }
      result.append(c)
    }
    return result
  }
}
