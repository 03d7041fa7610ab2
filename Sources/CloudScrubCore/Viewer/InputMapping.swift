/// The keys the viewer binds, named for what they are rather than a window library's
/// codes (the window translates its codes into these).
public enum ViewerKey: Equatable, Sendable {
  case space, left, right, home, end
  case letter(Character)
  case digit(Int)
  case plus, minus
}

/// Which mouse button.
public enum ViewerMouseButton: Equatable, Sendable {
  case left, right, middle
}

/// Turns keys, drags and wheel turns into viewer commands. Holds only what a drag
/// needs (which button is down and where the cursor was), so the mapping is tested
/// without a window.
///
/// Bindings: space play/pause; ←/→ step (shift: 10 frames); Home/End; M cycles the
/// timeline mode; F fits; R resets; C looks through the capture camera; 1–7 colour
/// modes; +/− point size; E eye-dome lighting; G grid; A axes; T trajectory; K frustum;
/// B the refined or the recorded poses, once a refinement is applied.
/// Left-drag orbits, right- or middle-drag (or shift + left) pans, the wheel zooms
/// toward the cursor.
public struct InputMapper: Sendable {
  private var dragButton: ViewerMouseButton?
  private var panWithLeft = false
  private var lastCursor: SIMD2<Float>?

  public init() {}

  /// Commands for a key press (repeats count as presses).
  public mutating func keyPressed(_ key: ViewerKey, shift: Bool = false) -> [ViewerCommand] {
    switch key {
    case .space: return [.playback(.togglePlay)]
    case .left: return [.playback(.step(shift ? -10 : -1))]
    case .right: return [.playback(.step(shift ? 10 : 1))]
    case .home: return [.playback(.jumpToStart)]
    case .end: return [.playback(.jumpToEnd)]
    case .plus: return [.display(.changePointSize(by: 1))]
    case .minus: return [.display(.changePointSize(by: -1))]
    case .digit(let n):
      let modes = PointColorMode.allCases
      guard (1...modes.count).contains(n) else { return [] }
      return [.display(.setColorMode(modes[n - 1]))]
    case .letter(let c):
      switch c.lowercased() {
      case "f": return [.camera(.fit)]
      case "r": return [.camera(.reset)]
      case "c": return [.camera(.lookThroughCaptureCamera)]
      case "e": return [.display(.toggleEyeDomeLighting)]
      case "g": return [.display(.toggleGrid)]
      case "a": return [.display(.toggleAxes)]
      case "t": return [.display(.toggleTrajectory)]
      case "k": return [.display(.toggleFrustum)]
      case "m": return [.playback(.cycleMode)]
      case "b": return [.edit(.toggleRefinedPoses)]
      case "s": return [.display(.cycleSurface)]
      default: return []
      }
    }
  }

  /// A button went down over the 3D view at `cursor` (window pixels).
  public mutating func mouseDown(
    _ button: ViewerMouseButton, at cursor: SIMD2<Float>, shift: Bool = false
  ) {
    guard dragButton == nil else { return }
    dragButton = button
    panWithLeft = shift && button == .left
    lastCursor = cursor
  }

  /// The button is released; the drag ends.
  public mutating func mouseUp(_ button: ViewerMouseButton) {
    if button == dragButton {
      dragButton = nil
      lastCursor = nil
    }
  }

  /// The cursor moved: while a button is held, the drag since the last move.
  public mutating func mouseMoved(to cursor: SIMD2<Float>) -> [ViewerCommand] {
    guard let button = dragButton, let last = lastCursor else { return [] }
    lastCursor = cursor
    let delta = cursor - last
    guard delta != .zero else { return [] }
    if button == .left && !panWithLeft { return [.camera(.rotate(pixels: delta))] }
    return [.camera(.pan(pixels: delta))]
  }

  /// Whether a drag is under way (the window then keeps the cursor's events).
  public var isDragging: Bool { dragButton != nil }

  /// A wheel turn of `steps` (positive away from the user: zoom in) with the cursor at
  /// `cursor` in a viewport of `width` × `height` pixels.
  public func scrolled(steps: Float, at cursor: SIMD2<Float>, width: Int, height: Int)
    -> [ViewerCommand]
  {
    guard steps != 0, width > 0, height > 0 else { return [] }
    let ndc = SIMD2(cursor.x / Float(width) * 2 - 1, 1 - cursor.y / Float(height) * 2)
    return [.camera(.zoom(steps: steps, cursorNDC: ndc))]
  }
}
