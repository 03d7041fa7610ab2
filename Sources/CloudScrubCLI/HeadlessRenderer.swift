import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// Renders one picture with no window: an EGL context, the OpenGL backend drawing into
/// an offscreen framebuffer (its points drawn by OpenGL or by the CPU rasterizer, as
/// `--renderer` chooses), and the same `SceneRenderer` the window uses.
///
/// With `--budget N` the points go through a level of detail, as in the window: the
/// store is sorted into a `PointOctree` (as the window sorts it, a share at a time) and
/// the `LODPlan` of the view is drawn pass by pass, N points each, over the picture so
/// far, until every point in view is drawn; the GPU holds the passes' nodes in the
/// `LODNodeCache` (at most `--gpu-cache`).
enum HeadlessRenderer {
  /// What drawing a picture took.
  struct Picture {
    var image: RGBImage
    /// Passes drawn (1 without a budget).
    var passes = 1
    /// Points the level of detail's node cache uploaded, and the nodes it evicted (0
    /// without a budget, or when the CPU draws).
    var uploadedPoints = 0
    var evictions = 0
    /// Points the plan drew over all passes (the store's count without a budget).
    var drawnPoints = 0
  }

  /// - Parameters:
  ///   - commands: the commands that loading produced (scene and timestamps).
  ///   - frameErrors: each loaded frame's alignment error, for `--color error`.
  /// - Throws: `RenderError` when no OpenGL context can be made, a shader fails, or the
  ///   scene framebuffer cannot be made at the requested size.
  ///   - mesh: a mesh to draw with the points (as `request.surface` says).
  static func render(
    content: ViewerContent, commands: [ViewerCommand], request: RenderRequest,
    frameErrors: FrameAlignmentErrors? = nil, mesh: TriangleMesh? = nil
  ) throws -> RGBImage {
    try draw(
      content: content, commands: commands, request: request, frameErrors: frameErrors,
      mesh: mesh
    ).image
  }

  /// Whether `command` picks the points' look (`--color`, `--edl`), so that no note on
  /// the look the viewer chose applies.
  static func picksLook(_ command: ViewerCommand) -> Bool {
    switch command {
    case .display(.setColorMode), .display(.setEyeDomeLighting): return true
    default: return false
    }
  }

  /// `render`, with what it took.
  static func draw(
    content: ViewerContent, commands: [ViewerCommand], request: RenderRequest,
    frameErrors: FrameAlignmentErrors? = nil, mesh: TriangleMesh? = nil
  ) throws -> Picture {
    let state = try Self.state(
      content: content, commands: commands, request: request, hasMesh: mesh != nil)
    let surface = try Surface(width: request.width, height: request.height, request: request)
    let renderer = surface.renderer
    let sceneMesh = mesh.map { SceneMesh($0, backend: surface.backend) }
    var picture = Picture(image: RGBImage(width: 0, height: 0, pixels: []))
    if let budget = request.budgetPoints {
      // Pass after pass, each over the last, as the window refines a picture.
      // In the window's shares, so that a PLY cloud (one frame) goes in as an even
      // sample first and spreads over many nodes, as it does in the window.
      var octree = PointOctree()
      let share = ViewerContent.levelOfDetailPointsPerTurn
      var complete = false
      while !complete { complete = octree.sync(with: content.store, maxPoints: share) }
      let plan = LODPlan(octree: octree, state: state, budgetPoints: budget)
      for pass in 0..<plan.passCount {
        try renderer.draw(
          state: state, octree: octree, nodes: plan.items(ofPass: pass), continuing: pass > 0,
          frameErrors: frameErrors, mesh: sceneMesh)
      }
      picture.passes = plan.passCount
      picture.drawnPoints = plan.totalPoints
      picture.uploadedPoints = renderer.nodeCache.uploadedPoints
      picture.evictions = renderer.nodeCache.evictions
    } else {
      try renderer.sync(with: content.store)
      renderer.draw(
        state: state, store: content.store, frameErrors: frameErrors, mesh: sceneMesh)
      picture.drawnPoints = content.store.count
    }
    picture.image = try surface.readPicture()
    withExtendedLifetime((surface, sceneMesh)) {}
    return picture
  }

  /// The state `request` draws: the load's commands, the mesh shown, the playhead at
  /// the end, the request's own commands and its camera.
  ///
  /// - Parameter viewport: the 3D view's size, when not the request's picture size.
  static func state(
    content: ViewerContent, commands: [ViewerCommand], request: RenderRequest, hasMesh: Bool,
    viewport: (width: Int, height: Int)? = nil
  ) throws -> ViewerState {
    var state = ViewerState(
      viewportWidth: viewport?.width ?? request.width,
      viewportHeight: viewport?.height ?? request.height)
    for command in commands { state.apply(command) }
    if hasMesh { state.apply(.display(.setSurface(request.surface ?? .mesh))) }
    if let note = state.display.lookNote, !request.commands.contains(where: Self.picksLook) {
      Terminal.error("note: \(note)")
    }
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
    return state
  }

  /// An offscreen picture of one size and what draws into it: an EGL context, the
  /// OpenGL backend with the point drawer `--renderer` picks, the scene renderer.
  final class Surface {
    let context: EGLHeadlessContext
    let backend: GLBackend
    let target: OffscreenTarget
    let renderer: SceneRenderer

    init(width: Int, height: Int, request: RenderRequest) throws {
      context = try EGLHeadlessContext()
      backend = try GLBackend()
      backend.pointDrawer = request.renderer.resolved(glRenderer: GLBackend.rendererString)
        .makeDrawer()
      target = try OffscreenTarget(width: width, height: height)
      backend.outputFramebuffer = target.framebuffer
      renderer = SceneRenderer(backend: backend)
      renderer.nodeCache.limitBytes = request.gpuCacheBytes
    }

    /// The picture drawn last.
    ///
    /// - Throws: `RenderError` when the scene framebuffer could not be made (nothing was
    ///   drawn) or overlay points could not be uploaded.
    func readPicture() throws -> RGBImage {
      if let failure = backend.sceneTargetError { throw failure }
      if let failure = renderer.takeOverlayFailure() { throw RenderError(failure) }
      return target.readPixels()
    }
  }
}
