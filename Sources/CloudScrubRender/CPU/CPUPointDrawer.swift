import CloudScrubCore

/// Draws the points with the CPU rasterizer (`CPUPointRasterizer`), straight from the
/// CPU store: nothing is uploaded, and a GPU copy an earlier drawer made is freed, so the
/// points are never held twice. Each frame's picture (colour and depth) becomes the
/// scene target's before the overlays, which draw over it depth-tested, and the
/// composite.
public final class CPUPointDrawer: StorePointDrawer {
  private var rasterizer: CPUPointRasterizer?
  /// Whether the frame has a rasterizer the size of the scene target to draw into.
  private var drawing = false
  /// Whether the rasterizer drew since the scene target last received its picture.
  private var pending = false
  /// The resolved picture, kept from frame to frame so that it is not reallocated.
  private var colorRGBA: [UInt32] = []
  private var depth: [Float] = []

  public init() {}

  /// Clears the rasterizer to the setup's background, at the scene target's size; with
  /// no scene target the frame's draws are skipped, as the backend's are.
  public func beginFrame(_ setup: FrameSetup, on backend: any RenderBackend) {
    pending = false
    guard let size = backend.sceneSizePixels else {
      drawing = false
      return
    }
    let raster = madeRasterizer()
    raster.begin(widthPixels: size.x, heightPixels: size.y, background: setup.background)
    drawing = true
  }

  /// Keeps what the rasterizer holds (the whole picture goes to the scene target again
  /// at the end); draws are skipped when it was not started at the scene target's size
  /// (the renderer was switched since the picture began).
  public func resumeFrame(on backend: any RenderBackend) {
    guard let size = backend.sceneSizePixels, let rasterizer else {
      drawing = false
      return
    }
    drawing = rasterizer.widthPixels == size.x && rasterizer.heightPixels == size.y
    // The scene target gets the picture again even when the pass adds no point: what
    // the last pass drew over it (the overlays) must not stay.
    pending = drawing
  }

  public func draw(
    _ store: PointStore, mirror: PointBufferMirror, range: Range<Int>, uniforms: PointUniforms,
    on backend: any RenderBackend
  ) {
    rasterize(store, range: range, uniforms: uniforms)
  }

  public func draw(
    node: Int, of octree: PointOctree, cache: LODNodeCache, range: Range<Int>,
    uniforms: PointUniforms, on backend: any RenderBackend
  ) {
    rasterize(octree.nodes[node].points, range: range, uniforms: uniforms)
  }

  /// Hands the picture to the backend once per frame, and only when points were drawn
  /// (an empty frame keeps the backend's cleared target).
  public func finishPoints(on backend: any RenderBackend) {
    guard pending, drawing, let rasterizer else { return }
    pending = false
    let pixels = rasterizer.widthPixels * rasterizer.heightPixels
    if colorRGBA.count != pixels {
      colorRGBA = Array(repeating: 0, count: pixels)
      depth = Array(repeating: 1, count: pixels)
    }
    colorRGBA.withUnsafeMutableBufferPointer { color in
      depth.withUnsafeMutableBufferPointer { depth in
        guard let color = color.baseAddress, let depth = depth.baseAddress else { return }
        rasterizer.resolve(colorRGBA: color, depth: depth)
      }
    }
    backend.drawScenePicture(
      CPUSceneImage(
        widthPixels: rasterizer.widthPixels, heightPixels: rasterizer.heightPixels,
        colorRGBA: colorRGBA, depth: depth))
  }

  public func draw(_ mesh: SceneMesh, uniforms: PointUniforms, on backend: any RenderBackend) {
    guard drawing, !mesh.mesh.triangles.isEmpty, let rasterizer else { return }
    rasterizer.draw(mesh.mesh, uniforms: uniforms)
    pending = true
  }

  private func rasterize(_ store: PointStore, range: Range<Int>, uniforms: PointUniforms) {
    let wanted = range.clamped(to: 0..<store.count)
    guard drawing, !wanted.isEmpty, let rasterizer else { return }
    rasterizer.draw(store, range: wanted, uniforms: uniforms)
    pending = true
  }

  private func madeRasterizer() -> CPUPointRasterizer {
    if let rasterizer { return rasterizer }
    let made = CPUPointRasterizer()
    rasterizer = made
    return made
  }
}
