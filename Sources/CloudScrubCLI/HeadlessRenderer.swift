import CloudScrubCore
import CloudScrubRender
import Foundation

/// Renders one picture with no window: an EGL context, the OpenGL backend drawing into
/// an offscreen framebuffer (its points drawn by OpenGL or by the CPU rasterizer, as
/// `--renderer` chooses), and the same `SceneRenderer` the window uses.
enum HeadlessRenderer {
  /// - Parameters:
  ///   - commands: the commands that loading produced (scene and timestamps).
  ///   - frameErrors: each loaded frame's alignment error, for `--color error`.
  /// - Throws: `RenderError` when no OpenGL context can be made, a shader fails, or the
  ///   scene framebuffer cannot be made at the requested size.
  static func render(
    content: ViewerContent, commands: [ViewerCommand], request: RenderRequest,
    frameErrors: FrameAlignmentErrors? = nil
  ) throws -> RGBImage {
    var state = ViewerState(viewportWidth: request.width, viewportHeight: request.height)
    for command in commands { state.apply(command) }
    state.apply(.playback(.jumpToEnd))
    for command in request.commands { state.apply(command) }
    switch request.camera {
    case .fit:
      break
    case .orbit(let azimuth, let elevation, let distance):
      let degrees = Float.pi / 180
      let orbit = CameraCommand.orbit(
        azimuthRadians: azimuth * degrees, elevationRadians: elevation * degrees,
        distanceMeters: distance > 0 ? distance : nil)
      state.apply(.camera(orbit))
    case .capture(let frame):
      guard let position = content.frameIndices.firstIndex(of: frame) else {
        throw UsageError("--camera capture:\(frame): frame \(frame) is not among the frames drawn")
      }
      state.apply(.playback(.seek(frame: position)))
      state.apply(.camera(.lookThroughCaptureCamera))
    }
    let context = try EGLHeadlessContext()
    let backend = try GLBackend()
    backend.pointRenderer = request.renderer.resolved(glRenderer: GLBackend.rendererString)
    let target = try OffscreenTarget(width: request.width, height: request.height)
    backend.outputFramebuffer = target.framebuffer
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: content.store)
    if let budget = request.budgetPoints {
      // Pass after pass, each over the last, as the window refines a picture.
      let plan = DrawPlan(
        state: state, frameRanges: content.store.frameRanges, budgetPoints: budget)
      for pass in 0..<max(1, plan.passCount) {
        renderer.draw(
          state: state, store: content.store, pass: plan.ranges(ofPass: pass), continuing: pass > 0,
          frameErrors: frameErrors)
      }
    } else {
      renderer.draw(state: state, store: content.store, frameErrors: frameErrors)
    }
    // A scene framebuffer that could not be made drew nothing: no picture to write.
    if let failure = backend.sceneTargetError { throw failure }
    let image = target.readPixels()
    withExtendedLifetime(context) {}
    return image
  }
}
