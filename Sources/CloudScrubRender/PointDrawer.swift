import CloudScrubCore

/// What fills a backend's scene target with points each frame: OpenGL drawing the GPU
/// copy of the points (`GPUPointDrawer`), or the CPU rasterizer drawing straight from
/// the CPU store (`CPUPointDrawer`). Overlays, eye-dome lighting and the composite are
/// the backend's either way.
///
/// A drawer is picked once, when the renderer is (`PointRenderer.makeDrawer()`), and
/// set as the backend's `pointDrawer`; the scene renderer and the overlay points ask it
/// what to keep on the GPU and how to draw, instead of asking who draws.
public protocol PointDrawer: AnyObject {
  /// Makes `mirror` what this drawer needs of `store`: every point uploaded when it
  /// draws from the GPU copy, no chunk at all (what was uploaded freed) when it draws
  /// from the store.
  ///
  /// - Throws: `RenderError` when the GPU cannot hold more points.
  func sync(_ mirror: PointBufferMirror, with store: PointStore) throws
  /// Makes `cache` what this drawer needs for a level-of-detail pass: the pass's nodes
  /// resident on the GPU, or no node at all.
  ///
  /// - Throws: `RenderError` when the GPU cannot hold a node.
  func prepare(_ cache: LODNodeCache, for pass: [LODDrawItem], of octree: PointOctree) throws
  /// Starts the points of a new picture, after `backend.beginFrame(setup)`.
  func beginFrame(_ setup: FrameSetup, on backend: any RenderBackend)
  /// Goes on with the points of the last picture, after `backend.resumeFrame()`.
  func resumeFrame(on backend: any RenderBackend)
  /// Draws points `range` of `store`, whose GPU copy is `mirror`.
  func draw(
    _ store: PointStore, mirror: PointBufferMirror, range: Range<Int>, uniforms: PointUniforms,
    on backend: any RenderBackend)
  /// Draws points `range` of level-of-detail node `node`, whose GPU copy (when there is
  /// one) is in `cache`.
  func draw(
    node: Int, of octree: PointOctree, cache: LODNodeCache, range: Range<Int>,
    uniforms: PointUniforms, on backend: any RenderBackend)
  /// Puts what was drawn since the frame began or resumed into the scene target, before
  /// the overlays draw over it.
  func finishPoints(on backend: any RenderBackend)
  /// Makes `mesh`'s GPU copy what this drawer needs: uploaded when it draws from the
  /// GPU, none when it draws from the CPU.
  ///
  /// - Throws: `RenderError` when the GPU cannot hold the mesh.
  func prepare(_ mesh: SceneMesh) throws
  /// Draws `mesh`'s triangles (shaded as `MeshShading` says) into the picture, depth-tested
  /// with the points.
  func draw(_ mesh: SceneMesh, uniforms: PointUniforms, on backend: any RenderBackend)
}

/// A drawer that draws straight from the CPU store and so keeps nothing on the GPU:
/// what was uploaded is freed (`CPUPointDrawer`, and the tests' recording drawer).
public protocol StorePointDrawer: PointDrawer {}

extension StorePointDrawer {
  /// Frees what the GPU holds of `store`.
  public func sync(_ mirror: PointBufferMirror, with store: PointStore) throws {
    if mirror.uploadedPoints > 0 { mirror.reset() }
  }

  /// Frees every node the GPU holds.
  public func prepare(_ cache: LODNodeCache, for pass: [LODDrawItem], of octree: PointOctree)
    throws
  {
    if !cache.residentNodes.isEmpty { cache.reset() }
  }

  /// Frees the mesh's GPU copy.
  public func prepare(_ mesh: SceneMesh) throws { mesh.release() }
}

/// Draws the points with the backend's own point draws, from the GPU copy: the store is
/// uploaded once (`PointBufferMirror`), level-of-detail nodes as passes need them
/// (`LODNodeCache`), and each draw is the mirror's draw calls.
public final class GPUPointDrawer: PointDrawer {
  public init() {}

  public func sync(_ mirror: PointBufferMirror, with store: PointStore) throws {
    try mirror.sync(with: store)
  }

  public func prepare(_ cache: LODNodeCache, for pass: [LODDrawItem], of octree: PointOctree)
    throws
  {
    try cache.prepare(pass, of: octree)
  }

  /// The backend's scene target is all there is to start.
  public func beginFrame(_ setup: FrameSetup, on backend: any RenderBackend) {}

  public func resumeFrame(on backend: any RenderBackend) {}

  /// Draws what the mirror has uploaded of `range`.
  public func draw(
    _ store: PointStore, mirror: PointBufferMirror, range: Range<Int>, uniforms: PointUniforms,
    on backend: any RenderBackend
  ) {
    for call in mirror.drawCalls(for: range) {
      backend.drawPoints(
        chunk: call.chunk, range: call.range, baseIndex: call.baseIndex, uniforms: uniforms)
    }
  }

  public func draw(
    node: Int, of octree: PointOctree, cache: LODNodeCache, range: Range<Int>,
    uniforms: PointUniforms, on backend: any RenderBackend
  ) {
    for call in cache.drawCalls(node: node, range: range) {
      backend.drawPoints(
        chunk: call.chunk, range: call.range, baseIndex: call.baseIndex, uniforms: uniforms)
    }
  }

  /// The points are already in the scene target.
  public func finishPoints(on backend: any RenderBackend) {}

  public func prepare(_ mesh: SceneMesh) throws { try mesh.upload() }

  /// Draws the mesh's GPU copy (none yet: nothing).
  public func draw(_ mesh: SceneMesh, uniforms: PointUniforms, on backend: any RenderBackend) {
    if let buffer = mesh.buffer { backend.drawMesh(buffer, uniforms: uniforms) }
  }
}
