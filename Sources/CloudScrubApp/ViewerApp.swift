import CGL
import CGLFW
import CImGuiBridge
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// The viewer window: the frame loop that turns events into commands, applies them to
/// the state, feeds loaded frames to the GPU mirror, draws, and lays the panels over.
public final class ViewerApp {
  private let window: GLFWWindow
  private let backend: GLBackend
  private let renderer: SceneRenderer
  private let rendererSwitch: RendererSwitch
  let opener: any ViewerDocumentOpener
  private let alignment: (any FrameAlignmentProvider)?
  /// Tells a click that picks a point from a drag that orbits.
  private var clicks = ClickDetector()
  var session: ViewerSession
  private var mapper = InputMapper()
  private var pending: [ViewerCommand] = []
  private var panels = ViewerPanels()
  private var previews: PreviewTextures
  var cleaning = CleaningPanel()
  /// The pose refinement's background pass; what it applied is the state's
  /// (`ViewerEdits`).
  let refiner = BackgroundRefinement()
  var poses = RefinementPanel()
  private let cleaningPreview: CleaningPreview
  private let wholeFrame: WholeFrame
  let exports = BackgroundExport()
  /// A crop-box face being dragged in the scene: the face, where the drag started, the
  /// box then and the box the drag has made of it so far.
  private var cropDrag:
    (face: CropBoxHandles.Face, start: SIMD2<Float>, box: CropBox, moved: CropBox)?
  private var lastTime = 0.0
  /// When loaded frames last joined the content. While a recording loads they join at
  /// most every `loadingJoinSeconds` (the first at once), so that redrawing the growing
  /// cloud leaves the cores to the load; input is still answered at once.
  private var lastJoin = -Double.infinity
  static let loadingJoinSeconds = 0.25
  /// Which passes of the scene are drawn; the scene is drawn only when it changed.
  private var refinement = SceneRefinement<SceneSignature>()
  /// Panel frames still to draw after the last input (Dear ImGui settles over a few).
  var panelFramesLeft = 0
  private var lastPanelSignature: PanelSignature?
  private let exitAfterFirstFrame: Bool
  private let levelOfDetail: Bool
  private let started = Date()
  private var title = ""
  private var reportedSceneTarget: String?
  /// The level-of-detail points the scene's signature counts.
  private var treePoints = ShownTreePoints()

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
    cleaningPreview = CleaningPreview(backend: backend)
    wholeFrame = WholeFrame(backend: backend)
    self.opener = opener
    self.alignment = alignment
    cleaning = CleaningPanel(initial: options.cleaning)
    exitAfterFirstFrame = options.exitAfterFirstFrame
    let size = window.framebufferSize
    levelOfDetail = options.levelOfDetail
    session = ViewerSession(
      width: size.width, height: size.height, levelOfDetail: options.levelOfDetail,
      measuresAlignment: alignment != nil, cleaning: options.cleaning)
    previews = PreviewTextures()
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

  private func open(_ path: String) {
    session.document?.load.cancel()
    session.content.stopLevelOfDetail()
    renderer.mirror.reset()
    renderer.nodeCache.reset()
    cleaningPreview.clear()
    previews.clear()
    wholeFrame.clear()
    refinement.invalidate()
    refiner.invalidate()
    poses = RefinementPanel()
    let size = window.framebufferSize
    // The cleaning settings carry over to the new document; its edits start there.
    session = ViewerSession(
      width: size.width, height: size.height, levelOfDetail: levelOfDetail,
      measuresAlignment: alignment != nil, cleaning: session.state.edits.history.current.cleaning)
    mapper = InputMapper()
    do {
      let document = try opener.open(path)
      session.document = document
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
      let moving = session.state.playback.isPlaying || mapper.isDragging || cropDrag != nil
      let waiting =
        previews.isWorking || cleaningPreview.isRunning || wholeFrame.isWorking
        || exports.isRunning || refiner.isRunning
      // The level of detail grows on its own worker: the loop only looks in on it.
      let growing = !session.content.levelOfDetailIsComplete
      let joinDue =
        glfwGetTime() - lastJoin >= Self.loadingJoinSeconds || session.content.frameCount == 0
      let loading = session.isLoading
      let wait =
        moving || refinement.isRefining || (loading && joinDue)
        ? 0 : loading ? Self.loadingJoinSeconds / 5 : growing || waiting ? 0.02 : 0.5
      let events = window.pollEvents(waitingUpTo: wait)
      for event in events { handle(event) }
      if !events.isEmpty { panelFramesLeft = 3 }
      let now = glfwGetTime()
      let dt = now - lastTime
      lastTime = now

      if joinDue || !loading {
        pending += session.takeLoadedFrames()
        lastJoin = now
      }
      pending += takeRefinement()
      updateAlignmentErrors()
      let scene = sceneRectangle()
      if scene.width != session.state.viewportWidth || scene.height != session.state.viewportHeight
      {
        pending.append(.camera(.setViewport(width: scene.width, height: scene.height)))
      }
      if session.state.playback.isPlaying { pending.append(.playback(.advance(seconds: dt))) }
      applyPending()

      do {
        // With a level of detail, the node cache uploads what passes need instead.
        if !session.content.hasLevelOfDetail {
          try renderer.sync(with: session.content.store)
        } else if renderer.mirror.uploadedPoints > 0 {
          renderer.mirror.reset()
        }
      } catch {
        session.message = .error("\(error)")
      }
      let newImages = previews.update(for: session)
      let shownRefinement = session.state.edits.shownRefinement
      let preview = cleaningPreview.update(
        enabled: cleaning.previewEnabled, session: session, options: session.state.edits.cleaning,
        refinedPoses: shownRefinement?.trajectory.poses)
      let lines = cropLines() + MeasureTool.lines(session.selection, scene: session.state.scene)
      let replacement = wholeFrame.update(for: session)
      if let failure = wholeFrame.takeFailure() { session.message = .error(failure) }
      let signature = SceneSignature(
        view: SceneSignature.View(session.state),
        points: session.content.hasLevelOfDetail
          ? treePoints.shown(session.content, now: now) : session.content.store.count,
        preview: preview == nil ? nil : cleaningPreview.revision, lines: lines,
        wholeFrame: replacement == nil ? nil : wholeFrame.shownFrame,
        frameErrors: session.state.display.colorMode == .alignmentError
          ? session.alignmentErrors : nil,
        corrections: shownRefinement?.matrices)
      let panelSignature = PanelSignature(
        loading: session.isLoading, message: session.message.map { "\($0)" },
        summary: cleaningPreview.summary,
        refining: refinement.isRefining, export: exportLine(), poses: posesLine())
      let frameRanges = session.content.store.frameRanges
      let step: SceneRefinement<SceneSignature>.Step
      if session.content.hasLevelOfDetail {
        let state = session.state
        let corrections = shownRefinement?.corrections
        step =
          session.content.withLevelOfDetail { octree in
            let margin = LODPlan.marginMeters(for: corrections, in: octree)
            return refinement.step(for: signature) { budget in
              LODPlan(octree: octree, state: state, budgetPoints: budget, marginMeters: margin)
            }
          } ?? .idle
      } else {
        step = refinement.step(for: signature) { budget in
          DrawPlan(state: session.state, frameRanges: frameRanges, budgetPoints: budget)
        }
      }
      guard
        step != .idle || panelFramesLeft > 0 || newImages || panelSignature != lastPanelSignature
          || csui_wants_keyboard()
      else {
        updateTitle()
        continue
      }
      panelFramesLeft = max(0, panelFramesLeft - 1)
      lastPanelSignature = panelSignature

      backend.outputFramebuffer = 0
      backend.outputOrigin = SIMD2(scene.x, window.framebufferSize.height - scene.y - scene.height)
      glViewport(
        0, 0, GLsizei(window.framebufferSize.width), GLsizei(window.framebufferSize.height))
      glClearColor(0.06, 0.06, 0.07, 1)
      glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
      switch step {
      case .draw(let pass, let continuing, let points):
        let started = glfwGetTime()
        renderer.draw(
          state: session.state, store: session.content.store, pass: pass, continuing: continuing,
          preview: preview, extraLines: lines, replacement: continuing ? nil : replacement,
          frameErrors: session.alignmentErrors, corrections: signature.corrections)
        glFinish()
        refinement.record(points: points, seconds: glfwGetTime() - started)
      case .drawNodes(let pass, let continuing, let points):
        let started = glfwGetTime()
        let state = session.state
        let errors = session.alignmentErrors
        do {
          try session.content.withLevelOfDetail { octree in
            try renderer.draw(
              state: state, octree: octree, nodes: pass, continuing: continuing,
              preview: preview, extraLines: lines, replacement: continuing ? nil : replacement,
              frameErrors: errors, corrections: signature.corrections)
          }
        } catch {
          session.message = .error("\(error)")
        }
        glFinish()
        refinement.record(points: points, seconds: glfwGetTime() - started)
      case .idle:
        renderer.recomposite()
      }
      reportSceneTarget()

      csui_new_frame()
      poses.cancelling = refiner.isCancelling
      poses.queued = refiner.isQueued
      let scale = window.pixelScale
      panels.exportStatus = exports.status
      let actions = panels.draw(
        session: session, previews: previews, cleaning: &cleaning,
        cleaningSummary: cleaningPreview.summary,
        drawing: drawingLine(), renderer: rendererSwitch.status,
        width: Float(window.framebufferSize.width) / scale,
        height: Float(window.framebufferSize.height) / scale,
        poses: &poses, poseRefining: refiner.isRunning ? refiner.fractionDone : nil)
      csui_render()
      window.swapBuffers()
      // The title follows the picture: a script that reads a new title (the window
      // tests) then finds the picture of that state on the screen, not the one before.
      updateTitle()
      StartupTrace.mark("frame drawn, \(treePoints.points) points in the tree's count")
      perform(actions)
      var shown =
        session.content.hasLevelOfDetail
        ? treePoints.points : session.content.store.count
      // The pass just drawn counts too: the tree may have grown its first points
      // between the signature and the plan.
      if case .drawNodes(_, _, let points) = step { shown = max(shown, points) }
      if exitAfterFirstFrame, shown > 0 || session.message != nil {
        glFinish()
        let seconds = Date().timeIntervalSince(started)
        print(
          "first frame on screen after \(String(format: "%.3f", seconds)) s (\(shown) points)"
        )
        return
      }
    }
  }

  /// A scene framebuffer that cannot be made leaves the 3D view empty: say why, once
  /// for each new reason, in the panel's message and on standard error.
  private func reportSceneTarget() {
    let failure = backend.sceneTargetError.map { "cannot draw the 3D view: \($0)" }
    guard failure != reportedSceneTarget else { return }
    reportedSceneTarget = failure
    guard let failure else { return }
    session.message = .error(failure)
    FileHandle.standardError.write(Data("cloudscrub: \(failure)\n".utf8))
  }

  /// What the panel says of the drawing: the budget, the points drawn, and how far the
  /// picture has refined.
  private func drawingLine() -> String {
    let (drawn, total) = refinement.progress
    let budget = Self.rounded(refinement.budgetPoints)
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
  /// K/N", with " — playing" while playback runs and " — loading" while frames are
  /// still coming.
  private func updateTitle() {
    var text = "CloudScrub"
    if let document = session.document {
      text += " — " + URL(fileURLWithPath: document.path).lastPathComponent
      let playback = session.state.playback
      let frames = session.content.frameIndices
      if frames.indices.contains(playback.currentFrame) {
        text += " — frame \(frames[playback.currentFrame])/\(frames.count)"
      }
      if playback.isPlaying { text += " — playing" }
      if session.isLoading { text += " — loading" }
      text += posesLine().isEmpty ? "" : " — " + posesLine()
    }
    if case .error = session.message { text += " — error" }
    if text != title {
      title = text
      window.setTitle(text)
    }
  }

  /// The part of the window the 3D view gets (top-left origin, framebuffer pixels):
  /// between the side panels and above the timeline.
  private func sceneRectangle() -> (x: Int, y: Int, width: Int, height: Int) {
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

  /// Applies the commands gathered this turn. When they change the poses shown (a
  /// refinement applied, B, undo or redo), the picked points follow them, and the
  /// panels draw again.
  private func applyPending() {
    let shownBefore = session.state.scene.poseCorrections
    for command in pending { session.state.apply(command) }
    pending = []
    guard session.state.scene.poseCorrections != shownBefore else { return }
    session.selection.apply(
      session.selection.following(
        session.content.store, corrections: session.state.edits.shownRefinement?.matrices))
    panelFramesLeft = 3
  }

  private func handle(_ event: WindowEvent) {
    let scene = sceneRectangle()
    let origin = SIMD2(Float(scene.x), Float(scene.y))
    switch event {
    case .key(let key, let shift):
      guard !csui_wants_keyboard() else { return }
      pending += mapper.keyPressed(key, shift: shift)
    case .mouseDown(let button, let at, let shift):
      guard !csui_wants_mouse() else { return }
      if button == .left, let box = session.state.edits.cleaning.crop,
        let face = cropHandles(box)?.face(at: at - origin)
      {
        cropDrag = (face, at, box, box)
        return
      }
      if button == .left { clicks.down(at: at - origin) }
      mapper.mouseDown(button, at: at, shift: shift)
    case .mouseUp(let button):
      if button == .left, let drag = cropDrag {
        pending.append(.edit(.dragCrop(drag.moved, finished: true)))
        cropDrag = nil
      }
      if button == .left, let click = clicks.up() { pick(at: click) }
      mapper.mouseUp(button)
    case .cursor(let at):
      if let drag = cropDrag, let handles = cropHandles(drag.box) {
        let moved = handles.dragging(drag.face, by: at - drag.start)
        cropDrag?.moved = moved
        pending.append(.edit(.dragCrop(moved, finished: false)))
        return
      }
      clicks.moved(to: at - origin)
      pending += mapper.mouseMoved(to: at)
    case .undo:
      pending.append(.edit(.undo))
    case .redo:
      pending.append(.edit(.redo))
    case .scroll(let steps, let at):
      guard !csui_wants_mouse() else { return }
      pending += mapper.scrolled(
        steps: steps, at: at - origin, width: scene.width, height: scene.height)
    case .drop(let paths):
      if let first = paths.first { open(first) }
    }
  }

  /// Asks the provider for the alignment errors of what is loaded; a change redraws
  /// the curve and, in the error colour mode, the points.
  private func updateAlignmentErrors() {
    guard let document = session.document else { return }
    defer {
      // A frame the pass cannot read was already named by the load when it failed.
      if let failure = alignment?.takeFailure(), session.message == nil {
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

  /// Picks the shown point under a click at `cursor` (3D-view pixels, top-left origin)
  /// for the picking panel, or the next end of a measurement.
  private func pick(at cursor: SIMD2<Float>) {
    let state = session.state
    // A press on a panel the frame before had not yet seen hovered reaches the scene
    // too; one outside the 3D view picks nothing and keeps what was picked.
    guard cursor.x >= 0, cursor.y >= 0, cursor.x < Float(state.viewportWidth),
      cursor.y < Float(state.viewportHeight)
    else { return }
    let store = session.content.store
    let request = PickRequest(
      state: session.state, frameRanges: store.frameRanges, cursorPixels: cursor,
      radiusPixels: max(6, session.state.display.pointSizePixels),
      crop: session.state.edits.cleaning.crop)
    // With refined poses shown, the click meets the points where they are drawn.
    let picked =
      session.state.edits.shownRefinement.map {
        PointPicker.pick(request, in: store, corrections: $0.matrices)
      }
      ?? PointPicker.pick(request, in: store)
    session.selection.apply(.picked(picked))
    panelFramesLeft = 3
  }

  /// The crop box's handles as the camera sees them now.
  private func cropHandles(_ box: CropBox) -> CropBoxHandles? {
    let state = session.state
    return CropBoxHandles(
      box: box, viewProjection: state.projectionMatrix * state.viewMatrix,
      viewportWidth: state.viewportWidth,
      viewportHeight: state.viewportHeight)
  }

  /// The crop box's edges and handles, when cropping is on.
  private func cropLines() -> [LineVertex] {
    guard let box = session.state.edits.cleaning.crop else { return [] }
    let size = max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z)
    return OverlayGeometry.box(box, handleSizeMeters: size * 0.03)
  }

  private func perform(_ actions: [PanelAction]) {
    for action in actions {
      switch action {
      case .command(let command):
        pending.append(command)
      case .open(let path):
        open(path)
      case .export(let path):
        export(to: path)
      case .cancelExport:
        exports.cancel()
      case .selection(let command):
        session.selection.apply(command)
      case .refinement(let action):
        perform(action)
      case .setRenderer(let choice):
        rendererSwitch.choose(choice)
        // Another renderer draws at another speed: learn its budget from the start.
        refinement.invalidate()
        refinement.budget = PointBudget()
      }
    }
  }
}
