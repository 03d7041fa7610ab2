import CloudScrubCore

extension SceneRenderer {
  /// Draws one pass of an `LODPlan`: its node ranges (by the backend's point drawer,
  /// from the node cache, which uploads the nodes the pass needs that the GPU lacks, or
  /// from the CPU nodes), the preview and the overlays, then composites.
  ///
  /// Colouring by frame, and drawing with pose corrections, split each node range at
  /// the node's frame starts and name the frame in the uniforms
  /// (`PointUniforms.fixedFrame`, and its correction as `worldFromStored`), since a
  /// node's points are not in whole-store order.
  ///
  /// - Parameters:
  ///   - octree: the level of detail `pass` was planned on.
  ///   - continuing, preview, extraLines, replacement, frameErrors, corrections, mesh: as
  ///     for `draw(state:store:pass:…)`.
  /// - Throws: `RenderError` when the GPU cannot hold a node; what was drawn stays.
  public func draw(
    state: ViewerState, octree: PointOctree, nodes pass: [LODDrawItem], continuing: Bool,
    preview: OverlayPoints? = nil, extraLines: [LineVertex] = [],
    replacement: OverlayPoints? = nil, frameErrors: FrameAlignmentErrors? = nil,
    corrections: [Matrix4]? = nil, mesh: SceneMesh? = nil
  ) throws {
    var failure: (any Error)?
    do {
      try backend.pointDrawer.prepare(nodeCache, for: pass, of: octree)
    } catch {
      failure = error
    }
    // The whole store's frame count: a node's frame table names whole-store positions.
    drawScene(
      state: state, frameCount: octree.frameCount, continuing: continuing, preview: preview,
      extraLines: extraLines, replacement: replacement, frameErrors: frameErrors,
      corrections: corrections, mesh: mesh
    ) { points, uniforms in
      let byFrame =
        uniforms.colorMode == .frame || uniforms.colorMode == .alignmentError
        || corrections != nil
      for item in pass {
        let node = octree.nodes[item.node]
        let pieces: [(points: Range<Int>, frame: Int?)] =
          byFrame ? node.framePieces(of: item.range) : [(item.range, nil)]
        for (range, frame) in pieces where !range.isEmpty {
          var own = uniforms
          own.fixedFrame = frame
          if let corrections, let frame, corrections.indices.contains(frame) {
            own.worldFromStored = corrections[frame]
          }
          points.draw(
            node: item.node, of: octree, cache: nodeCache, range: range, uniforms: own,
            on: backend)
        }
      }
    }
    if let failure { throw failure }
  }
}
