import CGL
import CGLFW
import CImGuiBridge
import CloudScrubCore
import CloudScrubRender

/// What one frame-loop turn draws: the scene's step, what the scene shows besides the
/// points, and what the panels show.
struct ViewerTurn {
  var step: DrawingPasses<SceneSignature>.Step
  var signature: SceneSignature
  /// The cleaning preview's points, shown in place of the store's.
  var preview: OverlayPoints?
  var lines: [LineVertex]
  /// The whole frame under the playhead, drawn in place of its sampled points.
  var replacement: OverlayPoints?
  var panelSignature: PanelSignature
  /// Whether new frame images arrived for the panels.
  var newImages: Bool
  /// Whether the turn draws at all (the panels may settle over a few frames).
  var drawsAnything: Bool
}

// The steps of a frame-loop turn, in the order `loop()` runs them.
extension ViewerApp {
  /// Takes in what arrived since the last turn (loaded frames, a finished refinement,
  /// alignment errors, the window's size, time), and applies it to the state.
  func advance(to now: Double, joinDue: Bool) {
    let dt = now - lastTime
    lastTime = now
    if joinDue || !session.isLoading {
      input.pending += session.takeLoadedFrames()
      lastJoin = now
    }
    input.pending += takeRefinement()
    input.pending += takeFusion()
    input.pending += takeOpenedMesh()
    takeExport()
    updateAlignmentErrors()
    let scene = sceneRectangle()
    if scene.width != session.state.viewportWidth || scene.height != session.state.viewportHeight {
      input.pending.append(.camera(.setViewport(width: scene.width, height: scene.height)))
    }
    if session.state.playback.isPlaying {
      input.pending.append(.playback(.advance(seconds: dt)))
    }
    applyPending()
  }

  /// Applies the commands gathered this turn. When they change the poses shown (a
  /// refinement applied, B, undo or redo), the picked points follow them, and the
  /// panels draw again.
  func applyPending() {
    let shownBefore = session.state.scene.poseCorrections
    for command in input.pending { session.state.apply(command) }
    input.pending = []
    guard session.state.scene.poseCorrections != shownBefore else { return }
    session.selection.apply(
      session.selection.following(
        session.content.store, corrections: session.state.edits.shownRefinement?.matrices))
    panelFramesLeft = 3
  }

  /// Brings the GPU copy of the store up to date; with a level of detail the node
  /// cache uploads what passes need instead.
  func syncUploads() {
    do {
      if !session.content.hasLevelOfDetail {
        try renderer.sync(with: session.content.store)
      } else if renderer.mirror.uploadedPoints > 0 {
        renderer.mirror.reset()
      }
    } catch {
      session.message = .error("\(error)")
    }
  }

  /// What this turn draws: the background results taken in, the scene's signature and
  /// the drawing passes' step for it.
  func plan(now: Double) -> ViewerTurn {
    let newImages = work.previews.update(for: session)
    let shownRefinement = session.state.edits.shownRefinement
    let preview = work.cleaningPreview.update(
      enabled: panels.cleaning.previewEnabled, session: session,
      options: session.state.edits.cleaning,
      refinedPoses: shownRefinement?.trajectory.poses)
    let lines = cropLines() + MeasureTool.lines(session.selection, scene: session.state.scene)
    let replacement = work.wholeFrame.update(for: session)
    if let failure = work.wholeFrame.takeFailure() { session.message = .error(failure) }
    let signature = SceneSignature(
      view: SceneSignature.View(session.state),
      points: session.content.hasLevelOfDetail
        ? treePoints.shown(session.content, now: now) : session.content.store.count,
      preview: preview == nil ? nil : work.cleaningPreview.revision, lines: lines,
      wholeFrame: replacement == nil ? nil : work.wholeFrame.shownFrame,
      frameErrors: session.state.display.colorMode == .alignmentError
        ? session.alignmentErrors : nil,
      corrections: shownRefinement?.matrices, mesh: work.model?.identity)
    let fusionJob = fusionJob()
    let panelSignature = PanelSignature(
      loading: session.isLoading, load: session.document?.load.status,
      message: session.message.map { "\($0)" },
      summary: work.cleaningPreview.summary,
      drawing: passes.hasPassesLeft, export: exportLine(), poses: posesLine(),
      model: fusionJob, modelStale: session.state.modelIsStale,
      savingModel: work.fusion.isSaving,
      measuring: session.alignmentProgress.map { Int($0 * 100) }, record: recordJob())
    let step = sceneStep(for: signature, corrections: shownRefinement?.corrections)
    return ViewerTurn(
      step: step, signature: signature, preview: preview, lines: lines,
      replacement: replacement, panelSignature: panelSignature, newImages: newImages,
      drawsAnything: step != .idle || panelFramesLeft > 0 || newImages
        || panelSignature != lastPanelSignature)
  }

  /// The scene's next pass for `signature`: planned by level of detail, or by frames.
  private func sceneStep(for signature: SceneSignature, corrections: FramePoseCorrections?)
    -> DrawingPasses<SceneSignature>.Step
  {
    let state = session.state
    guard session.content.hasLevelOfDetail else {
      let frameRanges = session.content.store.frameRanges
      return passes.step(for: signature) { budget in
        DrawPlan(state: state, frameRanges: frameRanges, budgetPoints: budget)
      }
    }
    return session.content.withLevelOfDetail { octree in
      let margin = LODPlan.marginMeters(for: corrections, in: octree)
      return passes.step(for: signature) { budget in
        LODPlan(octree: octree, state: state, budgetPoints: budget, marginMeters: margin)
      }
    } ?? .idle
  }

  /// Draws the turn's pass of the scene into the 3D view (or composites the last
  /// picture again), timing it for the point budget.
  func drawScene(_ turn: ViewerTurn) {
    let scene = sceneRectangle()
    let size = window.framebufferSize
    backend.outputFramebuffer = 0
    backend.outputOrigin = SIMD2(scene.x, size.height - scene.y - scene.height)
    glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
    glClearColor(0.06, 0.06, 0.07, 1)
    glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    let state = session.state
    let errors = session.alignmentErrors
    let corrections = turn.signature.corrections
    switch turn.step {
    case .draw(let pass, let continuing, let points):
      let started = glfwGetTime()
      renderer.draw(
        state: state, store: session.content.store, pass: pass, continuing: continuing,
        preview: turn.preview, extraLines: turn.lines,
        replacement: continuing ? nil : turn.replacement, frameErrors: errors,
        corrections: corrections, mesh: work.model?.scene)
      glFinish()
      passes.record(points: points, seconds: glfwGetTime() - started)
    case .drawNodes(let pass, let continuing, let points):
      let started = glfwGetTime()
      do {
        try session.content.withLevelOfDetail { octree in
          try renderer.draw(
            state: state, octree: octree, nodes: pass, continuing: continuing,
            preview: turn.preview, extraLines: turn.lines,
            replacement: continuing ? nil : turn.replacement, frameErrors: errors,
            corrections: corrections, mesh: work.model?.scene)
        }
      } catch {
        session.message = .error("\(error)")
      }
      glFinish()
      passes.record(points: points, seconds: glfwGetTime() - started)
    case .idle:
      renderer.recomposite()
    }
    reportSceneTarget()
  }

  /// Lays the panels over the picture and returns what the user did in them.
  func drawPanels() -> [PanelAction] {
    csui_new_frame()
    panels.poses.cancelling = work.refiner.isCancelling
    panels.poses.queued = work.refiner.isQueued
    let scale = window.pixelScale
    panels.exportStatus = work.exports.status
    panels.model.job = fusionJob()
    panels.model.saving = work.fusion.isSaving
    panels.record.job = recordJob()
    let size = window.framebufferSize
    let actions = panels.draw(
      session: session, previews: work.previews,
      cleaningSummary: work.cleaningPreview.summary,
      drawing: drawingLine(), renderer: rendererSwitch.status,
      width: Float(size.width) / scale, height: Float(size.height) / scale,
      poseRefining: work.refiner.isRunning ? work.refiner.fractionDone : nil)
    csui_render()
    return actions
  }
}
