import CImGuiBridge
import CloudScrubCore
import CloudScrubRender

// Keys, the pointer and the panels' actions, turned into commands for the state.
extension ViewerApp {
  func handle(_ event: WindowEvent) {
    let scene = sceneRectangle()
    let origin = SIMD2(Float(scene.x), Float(scene.y))
    switch event {
    case .key(let key, let shift):
      guard !csui_wants_keyboard() else { return }
      if key == .letter("v") || key == .letter("V") { return toggleViewRecording() }
      input.pending += input.mapper.keyPressed(key, shift: shift)
    case .mouseDown(let button, let at, let shift):
      guard !csui_wants_mouse(), Self.isInside(scene, at) else { return }
      if button == .left, let box = session.state.edits.cleaning.crop,
        let face = cropHandles(box)?.face(at: at - origin)
      {
        input.cropDrag = WindowInput.CropDrag(face: face, start: at, box: box, moved: box)
        return
      }
      if button == .left { input.clicks.down(at: at - origin) }
      input.mapper.mouseDown(button, at: at, shift: shift)
    case .mouseUp(let button):
      if button == .left, let drag = input.cropDrag {
        input.pending.append(.edit(.dragCrop(drag.moved, finished: true)))
        input.cropDrag = nil
      }
      if button == .left, let click = input.clicks.up() { pick(at: click) }
      input.mapper.mouseUp(button)
    case .cursor(let at):
      if let drag = input.cropDrag, let handles = cropHandles(drag.box) {
        let moved = handles.dragging(drag.face, by: at - drag.start)
        input.cropDrag?.moved = moved
        input.pending.append(.edit(.dragCrop(moved, finished: false)))
        return
      }
      input.clicks.moved(to: at - origin)
      input.pending += input.mapper.mouseMoved(to: at)
    case .undo:
      input.pending.append(.edit(.undo))
    case .redo:
      input.pending.append(.edit(.redo))
    case .scroll(let steps, let at):
      guard !csui_wants_mouse(), Self.isInside(scene, at) else { return }
      input.pending += input.mapper.scrolled(
        steps: steps, at: at - origin, width: scene.width, height: scene.height)
    case .drop(let paths):
      if let first = paths.first { open(first) }
    }
  }

  /// Whether window pixel `at` lies in the 3D view. The panels' hover state is the last
  /// drawn frame's, so a press or a wheel turn that arrives before a frame has seen the
  /// pointer over a panel would otherwise orbit or zoom the scene as well.
  static func isInside(_ scene: (x: Int, y: Int, width: Int, height: Int), _ at: SIMD2<Float>)
    -> Bool
  {
    at.x >= Float(scene.x) && at.y >= Float(scene.y) && at.x < Float(scene.x + scene.width)
      && at.y < Float(scene.y + scene.height)
  }

  /// Picks the shown point under a click at `cursor` (3D-view pixels, top-left origin)
  /// for the picking panel, or the next end of a measurement.
  func pick(at cursor: SIMD2<Float>) {
    let state = session.state
    // A click outside the 3D view picks nothing and keeps what was picked.
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
  func cropHandles(_ box: CropBox) -> CropBoxHandles? {
    let state = session.state
    return CropBoxHandles(
      box: box, viewProjection: state.projectionMatrix * state.viewMatrix,
      viewportWidth: state.viewportWidth,
      viewportHeight: state.viewportHeight)
  }

  /// The crop box's edges and handles, when cropping is on.
  func cropLines() -> [LineVertex] {
    guard let box = session.state.edits.cleaning.crop else { return [] }
    let size = max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z)
    return OverlayGeometry.box(box, handleSizeMeters: size * 0.03)
  }

  func perform(_ actions: [PanelAction]) {
    for action in actions {
      switch action {
      case .command(let command):
        input.pending.append(command)
      case .open(let path):
        open(path)
      case .export(let path):
        export(to: path)
      case .cancelExport:
        work.exports.cancel()
      case .selection(let command):
        session.selection.apply(command)
      case .refinement(let action):
        perform(action)
      case .model(let action):
        perform(action)
      case .record(let action):
        perform(action)
      case .setRenderer(let choice):
        rendererSwitch.choose(choice)
        // Another renderer draws at another speed: learn its budget from the start.
        passes.invalidate()
        passes.budget = PointBudget()
      }
    }
  }
}
