import CGL
import CGLFW
import CImGuiBridge
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// The viewer window: the frame loop that turns events into commands, applies them to
/// the state, feeds loaded frames to the GPU mirror, draws, and lays the panels over.
///
/// The loop's turn is in `ViewerApp+Turn.swift`, input in `ViewerApp+Input.swift`, the
/// title and status lines in `ViewerApp+Status.swift`, the background work the panels
/// start in `ViewerApp+Background.swift`.
public final class ViewerApp {
  // MARK: - The window, for its whole life

  let window: GLFWWindow
  let backend: GLBackend
  let renderer: SceneRenderer
  let rendererSwitch: RendererSwitch
  let opener: any ViewerDocumentOpener
  let alignment: (any FrameAlignmentProvider)?
  let options: ViewerOptions
  let started = Date()
  /// The panels, each keeping only its own fields; they read the session and return
  /// what the user asked for.
  var panels: ViewerPanels
  /// Which passes of the scene are drawn; the scene is drawn only when it changed.
  var passes = DrawingPasses<SceneSignature>()
  /// Panel frames still to draw after the last input (Dear ImGui settles over a few).
  var panelFramesLeft = 0
  var lastPanelSignature: PanelSignature?
  var lastTime = 0.0
  var title = ""
  var reportedSceneTarget: String?
  /// The Record section's video, recorded or drawn.
  let recorder = WindowRecorder()

  // MARK: - The open document: replaced or reset by `open`

  var session: ViewerSession
  var input = WindowInput()
  let work: DocumentWork
  /// When loaded frames last joined the content. While a recording loads they join at
  /// most every `loadingJoinSeconds` (the first at once), so that redrawing the growing
  /// cloud leaves the cores to the load; input is still answered at once.
  var lastJoin = -Double.infinity
  static let loadingJoinSeconds = 0.25
  /// The level-of-detail points the scene's signature counts.
  var treePoints = ShownTreePoints()

  /// Opens the window (and `options.path`, if given) and runs until it is closed.
  ///
  /// - Throws: `ViewerError` or `RenderError` when the window or GL cannot start; a
  ///   file that cannot be opened is shown in the window instead.
  ///
  /// - Parameter alignment: where each frame's alignment error comes from (the
  ///   timeline's curve, the error colour mode, the picking panel); nil: none is shown.
  public static func run(
    options: ViewerOptions, opener: any ViewerDocumentOpener,
    alignment: (any FrameAlignmentProvider)? = nil
  ) throws {
    let app = try ViewerApp(options: options, opener: opener, alignment: alignment)
    try app.loop()
  }

  private init(
    options: ViewerOptions, opener: any ViewerDocumentOpener,
    alignment: (any FrameAlignmentProvider)?
  ) throws {
    StartupTrace.mark("window starting")
    window = try GLFWWindow(
      width: options.widthPixels, height: options.heightPixels, title: "CloudScrub")
    backend = try GLBackend()
    renderer = SceneRenderer(backend: backend)
    renderer.nodeCache.limitBytes = options.gpuCacheBytes
    rendererSwitch = RendererSwitch(choice: options.renderer, backend: backend)
    work = DocumentWork(backend: backend)
    self.opener = opener
    self.alignment = alignment
    self.options = options
    panels = ViewerPanels(cleaning: options.cleaning)
    let size = window.framebufferSize
    session = ViewerSession(
      width: size.width, height: size.height, levelOfDetail: options.levelOfDetail,
      measuresAlignment: alignment != nil, cleaning: options.cleaning)
    guard csui_init(window.handle) else {
      throw ViewerError("Dear ImGui could not start on this window")
    }
    StartupTrace.mark("window, GL and ImGui ready")
    if let path = options.path { open(path) }
    StartupTrace.mark("document opened")
  }

  deinit {
    session.document?.load.cancel()
    session.content.stopLevelOfDetail()
    csui_shutdown()
  }

  /// Opens `path` in place of what is open: the load and level of detail of the
  /// document before stop, its GPU copies and background results go, and its session
  /// and input start anew; the cleaning settings carry over as the new edits' start.
  func open(_ path: String) {
    if recorder.progress != nil { recorder.cancel() }
    if recorder.kind == .view { finishRecording() }
    session.document?.load.cancel()
    session.content.stopLevelOfDetail()
    renderer.mirror.reset()
    renderer.nodeCache.reset()
    work.documentChanged()
    panels.poses = RefinementPanel()
    passes.invalidate()
    input = WindowInput()
    treePoints = ShownTreePoints()
    lastJoin = -.infinity
    let size = window.framebufferSize
    session = ViewerSession(
      width: size.width, height: size.height, levelOfDetail: options.levelOfDetail,
      measuresAlignment: alignment != nil, cleaning: session.state.edits.history.current.cleaning)
    do {
      session.document = try opener.open(path)
      session.state.apply(.documentOpened(path: path))
    } catch {
      session.message = .error("\(error)")
    }
  }

  /// The frame loop. Each turn takes the events and loaded frames, applies them, and
  /// draws only what changed: the next pass of the scene while it refines, the panels
  /// over the last scene picture after input, nothing at all when the window is idle
  /// (it then sleeps in `glfwWaitEventsTimeout`).
  private func loop() throws {
    lastTime = glfwGetTime()
    while !window.shouldClose {
      let joinDue =
        glfwGetTime() - lastJoin >= Self.loadingJoinSeconds || session.content.frameCount == 0
      let events = window.pollEvents(waitingUpTo: waitSeconds(joinDue: joinDue))
      for event in events { handle(event) }
      if !events.isEmpty { panelFramesLeft = 3 }
      let now = glfwGetTime()
      advance(to: now, joinDue: joinDue)
      syncUploads()
      let turn = plan(now: now)
      drawVideoFrame()
      guard turn.drawsAnything || csui_wants_keyboard() else {
        updateTitle()
        continue
      }
      panelFramesLeft = max(0, panelFramesLeft - 1)
      lastPanelSignature = turn.panelSignature
      drawScene(turn)
      recordView()
      let actions = drawPanels()
      window.swapBuffers()
      // The title follows the picture: a script that reads a new title (the window
      // tests) then finds the picture of that state on the screen, not the one before.
      updateTitle()
      StartupTrace.mark("frame drawn, \(treePoints.points) points in the tree's count")
      perform(actions)
      if options.exitAfterFirstFrame, exitsAfterFirstFrame(turn.step) { return }
    }
  }

  /// How long the loop may sleep waiting for events: not at all while something moves
  /// or the picture refines, briefly while frames load or background work runs.
  private func waitSeconds(joinDue: Bool) -> Double {
    let moving =
      session.state.playback.isPlaying || input.isDragging || recorder.progress != nil
    // The level of detail grows on its own worker: the loop only looks in on it.
    let growing = !session.content.levelOfDetailIsComplete
    let loading = session.isLoading
    if moving || passes.hasPassesLeft || (loading && joinDue) { return 0 }
    if loading { return Self.loadingJoinSeconds / 5 }
    return growing || work.isWorking ? 0.02 : 0.5
  }

  /// `--exit-after-first-frame`: whether points (or an error) are on screen, saying
  /// how long that took.
  private func exitsAfterFirstFrame(_ step: DrawingPasses<SceneSignature>.Step) -> Bool {
    var shown =
      session.content.hasLevelOfDetail ? treePoints.points : session.content.store.count
    // The pass just drawn counts too: the tree may have grown its first points
    // between the signature and the plan.
    if case .drawNodes(_, _, let points) = step { shown = max(shown, points) }
    guard shown > 0 || session.message != nil else { return false }
    glFinish()
    let seconds = Date().timeIntervalSince(started)
    print("first frame on screen after \(String(format: "%.3f", seconds)) s (\(shown) points)")
    return true
  }
}
