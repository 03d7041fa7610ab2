import CloudScrubRender

/// The window's choice of who draws the points: what the user asked for (`--renderer`
/// or the panel), what that means on this OpenGL, and the point drawer made for it,
/// which the backend carries to the scene renderer and the overlay points.
final class RendererSwitch {
  /// What the panel shows and offers.
  struct Status: Equatable {
    var choice: PointRendererChoice
    var active: PointRenderer
    var glRenderer: String

    /// The panel's line: "points: CPU rasterizer (auto; OpenGL is llvmpipe …)".
    var line: String {
      let who = active == .cpu ? "CPU rasterizer" : "OpenGL"
      return "points: \(who) (\(choice.rawValue); OpenGL is \(glRenderer))"
    }
  }

  private let backend: GLBackend
  private(set) var status: Status

  /// Needs the window's GL context current (it reads `GL_RENDERER`).
  init(choice: PointRendererChoice, backend: GLBackend) {
    self.backend = backend
    let glRenderer = GLBackend.rendererString
    status = Status(
      choice: choice, active: choice.resolved(glRenderer: glRenderer), glRenderer: glRenderer)
    backend.pointDrawer = status.active.makeDrawer()
  }

  /// Switches renderer: a new point drawer, whose first `SceneRenderer.sync` (and the
  /// overlays' next draw) uploads or frees the GPU copy.
  func choose(_ choice: PointRendererChoice) {
    status.choice = choice
    status.active = choice.resolved(glRenderer: status.glRenderer)
    backend.pointDrawer = status.active.makeDrawer()
  }
}
