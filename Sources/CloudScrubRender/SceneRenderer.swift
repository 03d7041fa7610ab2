import CloudScrubCore
import Foundation

/// Draws a viewer state: the points of its frame window (by the backend's point drawer,
/// from the GPU mirror or the CPU store), with the state's looks as uniforms, and the
/// overlays. Holds no state of its own beyond the
/// mirror, so the same `ViewerState` always issues the same calls.
public final class SceneRenderer {
  public let backend: any RenderBackend
  public let mirror: PointBufferMirror
  /// Why the last overlay points (a whole frame, the cleaning preview) could not all be
  /// uploaded; they are drawn as far as they were. Handed out once by
  /// `takeOverlayFailure`.
  private var overlayFailure: String?
  /// The level-of-detail nodes on the GPU (`draw(state:octree:nodes:…)`).
  public private(set) lazy var nodeCache = LODNodeCache(backend: backend)

  public init(backend: any RenderBackend, mirror: PointBufferMirror? = nil) {
    self.backend = backend
    self.mirror = mirror ?? PointBufferMirror(backend: backend)
  }

  /// Makes the GPU copy what the backend's point drawer needs: what the store has that
  /// the GPU does not uploaded (nothing when it is in step), or, when the points are
  /// drawn from the CPU store, nothing uploaded and what an earlier drawer uploaded
  /// freed, so the points are never held twice.
  ///
  /// - Throws: `RenderError` when the GPU cannot hold more points.
  public func sync(with store: PointStore) throws {
    try backend.pointDrawer.sync(mirror, with: store)
  }

  /// Draws one picture of `state`, whose points are those of `store` (drawn by the
  /// backend's point drawer, from the GPU mirror or from the store itself): every shown
  /// point at once.
  ///
  /// - Parameters:
  ///   - preview: a cleaning preview: its points are drawn in full colour and the
  ///     shown points dimmed behind them. Its appended frames' indices are timeline
  ///     positions (what colouring by frame or alignment error names).
  ///   - extraLines: more overlay segments (the crop box).
  ///   - frameErrors: each frame's alignment error, for the alignment-error colour mode.
  ///   - mesh: the scene's mesh, drawn as the state's `display.surface` says.
  public func draw(
    state: ViewerState, store: PointStore, preview: OverlayPoints? = nil,
    extraLines: [LineVertex] = [], frameErrors: FrameAlignmentErrors? = nil,
    corrections: [Matrix4]? = nil, mesh: SceneMesh? = nil
  ) {
    draw(
      state: state, store: store, pass: [state.drawRange(frameRanges: store.frameRanges)],
      continuing: false, preview: preview, extraLines: extraLines, frameErrors: frameErrors,
      corrections: corrections, mesh: mesh)
  }

  /// Draws one pass of a `DrawPlan`: its point ranges, the preview and the overlays,
  /// then composites the scene onto the output.
  ///
  /// - Parameters:
  ///   - pass: the ranges of points to draw (whole-cloud indices).
  ///   - continuing: adds to the picture the previous pass left instead of starting a
  ///     new one; the state must be the same as for that pass.
  ///   - replacement: points drawn instead of the pass's (the whole current frame of a
  ///     recording merged while it loaded).
  ///   - frameErrors: each frame's alignment error, for the alignment-error colour mode.
  ///   - corrections: one model transform a store frame (`FramePoseCorrections`): each
  ///     range is split at the frame starts and each piece drawn with its frame's
  ///     transform in the uniforms; nil draws the stored positions.
  ///   - mesh: the scene's mesh, drawn (by a pass that starts a picture) as the state's
  ///     `display.surface` says; with `.mesh` no point is drawn.
  public func draw(
    state: ViewerState, store: PointStore, pass: [Range<Int>], continuing: Bool,
    preview: OverlayPoints? = nil, extraLines: [LineVertex] = [],
    replacement: OverlayPoints? = nil, frameErrors: FrameAlignmentErrors? = nil,
    corrections: [Matrix4]? = nil, mesh: SceneMesh? = nil
  ) {
    drawScene(
      state: state, frameCount: store.frameCount, continuing: continuing, preview: preview,
      extraLines: extraLines, replacement: replacement, frameErrors: frameErrors,
      corrections: corrections, mesh: mesh
    ) { points, uniforms in
      for range in pass {
        guard let corrections else {
          points.draw(store, mirror: mirror, range: range, uniforms: uniforms, on: backend)
          continue
        }
        for (piece, frame) in Self.framePieces(of: range, frameRanges: store.frameRanges) {
          var own = uniforms
          own.worldFromStored = corrections.indices.contains(frame) ? corrections[frame] : nil
          points.draw(store, mirror: mirror, range: piece, uniforms: own, on: backend)
        }
      }
    }
  }

  /// `range` (whole-store indices) cut at the frame starts `frameRanges`, each piece
  /// with its frame.
  static func framePieces(of range: Range<Int>, frameRanges: [Int]) -> [(Range<Int>, Int)] {
    var pieces: [(Range<Int>, Int)] = []
    var frame = max(0, (frameRanges.lastIndex { $0 <= range.lowerBound } ?? 0))
    var first = range.lowerBound
    while first < range.upperBound {
      let end =
        frame + 1 < frameRanges.count
        ? min(range.upperBound, frameRanges[frame + 1]) : range.upperBound
      if end > first { pieces.append((first..<end, frame)) }
      first = max(first, end)
      frame += 1
    }
    return pieces
  }

  /// The frame around a pass: begin or resume, the mesh (when a picture begins), the
  /// points `drawMain` draws with the backend's point drawer and the state's uniforms
  /// (or the replacement's), the preview, the overlays, the composite.
  func drawScene(
    state: ViewerState, frameCount: Int, continuing: Bool, preview: OverlayPoints?,
    extraLines: [LineVertex], replacement: OverlayPoints?, frameErrors: FrameAlignmentErrors?,
    corrections: [Matrix4]? = nil, mesh: SceneMesh? = nil,
    drawMain: (any PointDrawer, PointUniforms) -> Void
  ) {
    let projection = state.projectionMatrix
    let view = state.viewMatrix
    let viewProjection = projection * view
    let display = state.display
    let gray = display.backgroundGray
    let points = backend.pointDrawer
    if continuing {
      backend.resumeFrame()
      points.resumeFrame(on: backend)
    } else {
      let setup = FrameSetup(
        widthPixels: state.viewportWidth, heightPixels: state.viewportHeight,
        background: SIMD3(gray, gray, gray), eyeDomeLighting: display.eyeDomeLighting,
        nearFarMeters: Self.nearFar(of: projection))
      backend.beginFrame(setup)
      points.beginFrame(setup, on: backend)
    }

    var uniforms = pointUniforms(
      state: state, view: view, viewProjection: viewProjection, frameRanges: [0])
    uniforms.frameCount = frameCount
    if state.display.colorMode == .alignmentError {
      uniforms.frameErrors = FrameErrorTable(frameErrors, frameCount: frameCount)
    }
    uniforms.dimmed = preview != nil
    if let mesh, display.surface != .points {
      if !continuing {
        prepareMesh(mesh)
        var lit = uniforms
        lit.dimmed = false
        points.draw(mesh, uniforms: lit, on: backend)
      }
      if display.surface == .mesh {
        finish(points, state: state, extraLines: extraLines, viewProjection: viewProjection)
        return
      }
    }
    if let replacement {
      // The replacement is the shown frame's points: they take its colour and error.
      var own = uniforms
      let shown = state.playback.visibleFrames?.upperBound ?? 0
      own.fixedFrame = shown
      if let corrections, corrections.indices.contains(shown) {
        own.worldFromStored = corrections[shown]
      }
      prepareOverlay(replacement, named: "the whole frame")
      points.draw(
        replacement.store, mirror: replacement.mirror, range: 0..<replacement.count,
        uniforms: own, on: backend)
    } else {
      drawMain(points, uniforms)
    }
    if let preview { drawPreview(preview, with: points, uniforms: uniforms) }
    finish(points, state: state, extraLines: extraLines, viewProjection: viewProjection)
  }

  /// Ends a pass: the points' picture into the scene target, the overlays, the composite.
  private func finish(
    _ points: any PointDrawer, state: ViewerState, extraLines: [LineVertex],
    viewProjection: Matrix4
  ) {
    points.finishPoints(on: backend)
    let overlay = overlays(state: state) + extraLines
    if !overlay.isEmpty { backend.drawLines(overlay, viewProjection: viewProjection) }
    backend.endFrame()
  }

  /// The cleaning preview over the dimmed points: drawn slightly larger so the kept
  /// points cover the dimmed ones they came from, again in each pass, so that refining
  /// dimmed points never hides them. Its store's appended frames are named by timeline
  /// position, so that colouring by frame or alignment error draws each of them as its
  /// own frame (`PointUniforms.fixedFrame`), as the points it came from are.
  func drawPreview(_ preview: OverlayPoints, with points: any PointDrawer, uniforms: PointUniforms)
  {
    var kept = uniforms
    kept.dimmed = false
    kept.pointSizePixels = uniforms.pointSizePixels + 1
    prepareOverlay(preview, named: "the cleaning preview")
    let store = preview.store
    guard kept.colorMode == .frame || kept.colorMode == .alignmentError else {
      points.draw(
        store, mirror: preview.mirror, range: 0..<store.count, uniforms: kept, on: backend)
      return
    }
    for (k, position) in store.frameIndices.enumerated() {
      var own = kept
      own.fixedFrame = position
      points.draw(
        store, mirror: preview.mirror, range: store.frameRanges[k]..<store.frameRanges[k + 1],
        uniforms: own, on: backend)
    }
  }

  /// Puts the last picture on the output again (the window's panels changed, the scene
  /// did not), without drawing a point.
  public func recomposite() {
    backend.endFrame()
  }

  /// The uniforms `draw` gives the points of `state` (for benchmarks that drive a
  /// backend or the CPU rasterizer directly).
  public func pointUniforms(
    state: ViewerState, view: Matrix4, viewProjection: Matrix4, frameRanges: [Int],
    frameErrors: FrameAlignmentErrors? = nil
  ) -> PointUniforms {
    let up = state.scene.up.vector
    var heights: ClosedRange<Float> = 0...1
    var depths: ClosedRange<Float> = 0...1
    if let bounds = state.scene.bounds {
      let corners = Self.corners(of: bounds)
      let h = corners.map { ($0 * up).sum() }
      heights = (h.min() ?? 0)...(h.max() ?? 1)
      let d = corners.map { -view.transform(SIMD4($0, 1)).z }
      let near = max(0, d.min() ?? 0)
      depths = near...max(near + 1e-3, d.max() ?? 1)
    }
    return PointUniforms(
      viewProjection: viewProjection, view: view, pointSizePixels: state.display.pointSizePixels,
      colorMode: state.display.colorMode, minConfidence: state.display.minConfidence,
      roundPoints: state.display.roundPoints, upAxis: up, heightRangeMeters: heights,
      depthRangeMeters: depths, frameCount: max(0, frameRanges.count - 1),
      frameErrors: state.display.colorMode == .alignmentError
        ? FrameErrorTable(frameErrors, frameCount: max(0, frameRanges.count - 1))
        : FrameErrorTable())
  }

  func overlays(state: ViewerState) -> [LineVertex] {
    let display = state.display
    let scene = state.scene
    var vertices: [LineVertex] = []
    if let bounds = scene.bounds {
      let corners = Self.corners(of: bounds)
      let up = scene.up.vector
      let extent = max(
        bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y, bounds.max.z - bounds.min.z)
      if display.showGrid {
        let center = (corners[0] + corners[7]) / 2
        let ground = corners.map { ($0 * up).sum() }.min() ?? 0
        let spacing = Self.gridSpacing(forExtent: extent)
        let lines = Int((extent * 1.5 / spacing).rounded(.up)) | 1
        vertices += OverlayGeometry.grid(
          center: center, groundHeight: ground, up: scene.up, spacingMeters: spacing,
          lines: min(lines + 1, 200))
      }
      if display.showAxes { vertices += OverlayGeometry.axes(lengthMeters: max(0.1, extent * 0.1)) }
    }
    let frames = scene.frameCount
    if frames > 0, let visible = state.playback.visibleFrames {
      let current = min(visible.upperBound, frames - 1)
      if display.showTrajectory {
        let centers = scene.worldFromCamera.prefix(frames).map { SIMD3<Float>($0.translation) }
        vertices += OverlayGeometry.trajectory(cameraCenters: centers, lastFrame: current)
      }
      if display.showFrustum && state.viewMode == .orbit {
        vertices += OverlayGeometry.frustum(
          worldFromOpenCVCamera: scene.worldFromCamera[current],
          intrinsics: scene.intrinsics[current],
          depthMeters: 0.25)
      }
    }
    return vertices
  }

  /// A round grid spacing (1, 2 or 5 times a power of ten) giving about ten cells
  /// across the scene.
  static func gridSpacing(forExtent extent: Float) -> Float {
    let raw = max(extent, 0.01) / 10
    let power = Float(pow(10, (log10(Double(raw))).rounded(.down)))
    for step: Float in [1, 2, 5] where raw <= power * step { return power * step }
    return power * 10
  }

  /// Near and far plane distances of an OpenGL perspective projection.
  static func nearFar(of projection: Matrix4) -> SIMD2<Float> {
    let a = projection.columnMajor[10]
    let b = projection.columnMajor[14]
    guard abs(a - 1) > 1e-9, abs(a + 1) > 1e-9 else { return SIMD2(0.01, 1000) }
    return SIMD2(b / (a - 1), b / (a + 1))
  }

  static func corners(of b: Bounds3) -> [SIMD3<Float>] {
    var result: [SIMD3<Float>] = []
    for i in 0..<8 {
      result.append(
        SIMD3(
          i & 1 == 0 ? b.min.x : b.max.x, i & 2 == 0 ? b.min.y : b.max.y,
          i & 4 == 0 ? b.min.z : b.max.z))
    }
    return result
  }

  /// Uploads `overlay`; one the GPU has no room for is drawn as far as it was uploaded,
  /// and says so through `takeOverlayFailure`.
  private func prepareOverlay(_ overlay: OverlayPoints, named name: String) {
    do {
      try overlay.prepare()
    } catch {
      overlayFailure = "\(name) is drawn only in part: \(error)"
    }
  }

  /// Uploads `mesh` when the point drawer draws from the GPU; one the GPU has no room
  /// for is not drawn, and says so through `takeOverlayFailure`.
  private func prepareMesh(_ mesh: SceneMesh) {
    do {
      try mesh.prepare()
    } catch {
      overlayFailure = "the mesh is not drawn: \(error)"
    }
  }

  /// Why overlay points were drawn only in part, once; nil when they were not.
  public func takeOverlayFailure() -> String? {
    defer { overlayFailure = nil }
    return overlayFailure
  }
}
