import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubRender

/// Drawing with per-frame pose corrections (`PointUniforms.worldFromStored`): a point
/// lands where the corrected pose puts it, in both renderers, and switching between the
/// recorded and the refined poses changes only the uniforms, never the uploaded points.
@Suite(.serialized) struct PoseCorrectionRenderTests {
  /// A quarter turn about z, then (0.2, -0.72, 0): (0.5, -0.3, -2) goes to
  /// (0.3, 0.5, -2) + (0.2, -0.72, 0) = (0.5, -0.22, -2).
  static let quarterTurn = Transform3D(
    axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(0.2, -0.72, 0))

  @Test func theCPURasterizerDrawsAPointWhereItsCorrectionPutsIt() {
    let store = CPURasterizerTests.store([(Point3(0.5, -0.3, -2), RGB8(200, 100, 50), 2)])
    var uniforms = CPURasterizerTests.uniforms()
    #expect(CPURasterizerTests.covered(CPURasterizerTests.draw(store, uniforms)) == [[62, 42]])
    uniforms.worldFromStored = Matrix4(Self.quarterTurn)
    // (0.5, -0.22, -2): ndc (0.25, -0.11), window (62.5, 44.5), depth 0.75.
    let image = CPURasterizerTests.draw(store, uniforms)
    #expect(CPURasterizerTests.covered(image) == [[62, 44]])
    #expect(image.color(x: 62, y: 44).r == 200)
    #expect(image.depth[44 * CPURasterizerTests.size + 62] == 0.75)
  }

  @Test(arguments: [PointColorMode.rgb, .height, .depth])
  func aCorrectedPointLooksLikeAPointStoredThere(mode: PointColorMode) {
    let stored = Point3(0.5, -0.3, -2)
    let moved = Point3(0.5, -0.22, -2)
    var uniforms = CPURasterizerTests.uniforms(mode: mode)
    uniforms.heightRangeMeters = -1...1
    uniforms.depthRangeMeters = 1...3
    let plain = CPURasterizerTests.draw(
      CPURasterizerTests.store([(moved, RGB8(200, 100, 50), 2)]), uniforms)
    uniforms.worldFromStored = Matrix4(Self.quarterTurn)
    let corrected = CPURasterizerTests.draw(
      CPURasterizerTests.store([(stored, RGB8(200, 100, 50), 2)]), uniforms)
    #expect(CPURasterizerTests.covered(corrected) == CPURasterizerTests.covered(plain))
    let a = plain.color(x: 62, y: 44)
    let b = corrected.color(x: 62, y: 44)
    for (x, y) in [(a.r, b.r), (a.g, b.g), (a.b, b.b)] {
      #expect(abs(Int(x) - Int(y)) <= 1, "\(mode): \(a) vs \(b)")
    }
  }

  /// One correction a frame: frame f moves by (0.1 f, 0, 0) and turns by f degrees.
  static func corrections(frames: Int) -> [Matrix4] {
    (0..<frames).map { frame in
      Matrix4(
        Transform3D(
          axisAngle: SIMD3(0, 0, Double(frame) * .pi / 180),
          translation: SIMD3(0.1 * Double(frame), 0, 0)))
    }
  }

  @Test func levelOfDetailPiecesCarryTheirFramesCorrectionAndTogglingUploadsNothing() throws {
    let store = LODRenderTests.sheet(frames: 6, perFrame: 300)
    var octree = PointOctree(options: LODRenderTests.options)
    octree.sync(with: store)
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    let state = LODRenderTests.state(store)
    let plan = LODPlan(octree: octree, state: state, budgetPoints: 100_000)
    let corrections = Self.corrections(frames: 6)
    let before = try Self.drawAll(renderer, state, octree, plan, corrections: nil)
    #expect(backend.uploadCount > 0)
    for shown in [corrections, nil, corrections] {
      backend.clearEvents()
      let drawn = try Self.drawAll(renderer, state, octree, plan, corrections: shown)
      #expect(backend.uploadCount == 0)
      #expect(drawn.sorted() == before.sorted())
      for event in backend.events {
        guard case .drawPoints(_, _, _, let uniforms) = event else { continue }
        if let shown {
          let frame = try #require(uniforms.fixedFrame)
          #expect(uniforms.worldFromStored == shown[frame])
        } else {
          #expect(uniforms.worldFromStored == nil)
        }
      }
    }
  }

  static func drawAll(
    _ renderer: SceneRenderer, _ state: ViewerState, _ octree: PointOctree, _ plan: LODPlan,
    corrections: [Matrix4]?
  ) throws -> [Int] {
    var drawn: [Int] = []
    for pass in 0..<plan.passCount {
      let backend = try #require(renderer.backend as? RecordingRenderBackend)
      let first = backend.events.count
      try renderer.draw(
        state: state, octree: octree, nodes: plan.items(ofPass: pass), continuing: pass > 0,
        corrections: corrections)
      drawn += LODRenderTests.storeIndices(backend, since: first)
    }
    return drawn
  }

  @Test func wholeStoreRangesAreCutAtFrameStartsEachWithItsCorrection() throws {
    let store = LODRenderTests.sheet(frames: 5, perFrame: 200)
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: store)
    let state = LODRenderTests.state(store)
    let corrections = Self.corrections(frames: 5)
    backend.clearEvents()
    try renderer.sync(with: store)
    renderer.draw(state: state, store: store, corrections: corrections)
    #expect(backend.uploadCount == 0)
    var covered: [Int] = []
    for event in backend.events {
      guard case .drawPoints(_, let range, let base, let uniforms) = event else { continue }
      let points = (base + range.lowerBound)..<(base + range.upperBound)
      let frame = try #require(store.frameRanges.lastIndex { $0 <= points.lowerBound })
      #expect(points.upperBound <= store.frameRanges[frame + 1])
      #expect(uniforms.worldFromStored == corrections[frame])
      covered += Array(points)
    }
    #expect(covered == Array(0..<store.count))
  }

  @Test func openGLDrawsTheCorrectedCloudLikeTheCPU() throws {
    let comparison = try RendererComparison(width: 320, height: 200)
    let store = CPURasterizerAgreementTests.store
    let state = ComparisonScenes.state(store, width: 320, height: 200)
    // Frame f shifted by 0.1 f metres and turned by f degrees.
    let corrections = Self.corrections(frames: store.frameCount)
    var pictures: [RGBImage] = []
    for renderer in [PointRenderer.gl, .cpu] {
      comparison.backend.pointDrawer = renderer.makeDrawer()
      try comparison.renderer.sync(with: store)
      comparison.renderer.draw(state: state, store: store, corrections: corrections)
      pictures.append(comparison.target.readPixels())
    }
    let differing = RendererComparison.differingFraction(
      pictures[0], pictures[1], threshold: CPURasterizerAgreementTests.channelThreshold)
    #expect(differing <= CPURasterizerAgreementTests.tolerance, "\(differing * 100) % differ")
    // And the corrections changed the picture.
    comparison.backend.pointDrawer = PointRenderer.cpu.makeDrawer()
    comparison.renderer.draw(state: state, store: store)
    let plain = comparison.target.readPixels()
    #expect(
      RendererComparison.differingFraction(plain, pictures[1], threshold: 8)
        > CPURasterizerAgreementTests.tolerance)
  }

  /// Two frames, at the origin and at (1, 0, 0) (OpenCV axes as the world's), the
  /// playhead on frame 1; the refined poses turn frame 1 a quarter about z and lift it
  /// 0.5 m along z.
  static func twoCameraState(corrected: Bool) -> ViewerState {
    var state = ViewerState(viewportWidth: 320, viewportHeight: 200)
    state.apply(.playback(.framesLoaded(timestampsSeconds: [0, 0.1])))
    var scene = ViewerScene(bounds: Bounds3(min: Point3(-1, -1, 1), max: Point3(2, 1, 3)))
    for x in [0.0, 1.0] {
      scene.appendFrame(
        pose: CameraPose(
          worldFromCamera: Transform3D(axisAngle: .zero, translation: SIMD3(x, 0, 0)),
          axes: .openCV),
        intrinsics: CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480))
    }
    state.apply(.sceneGrew(scene))
    state.apply(.playback(.seek(frame: 1)))
    if corrected {
      state.apply(
        Refinements.apply([
          .identity,
          Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(0, 0, 0.5)),
        ]))
    }
    return state
  }

  @Test func theTrajectoryAndTheFrustumFollowTheShownPoses() {
    let renderer = SceneRenderer(backend: RecordingRenderBackend())
    func lines(_ state: ViewerState, _ color: (UInt8, UInt8, UInt8)) -> [SIMD3<Float>] {
      renderer.overlays(state: state).filter { ($0.r, $0.g, $0.b) == color }.map {
        SIMD3($0.x, $0.y, $0.z)
      }
    }
    func close(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool {
      let d = a - b
      return (d * d).sum().squareRoot() < 1e-6
    }
    let trajectory: (UInt8, UInt8, UInt8) = (255, 170, 40)
    let frustum: (UInt8, UInt8, UInt8) = (255, 255, 255)
    let recorded = Self.twoCameraState(corrected: false)
    #expect(lines(recorded, trajectory) == [SIMD3(0, 0, 0), SIMD3(1, 0, 0)])
    // Frame 1's frustum: its centre, then the image's top-left corner 0.25 m ahead,
    // camera (−320/500, −240/500, 1) × 0.25 = (−0.16, −0.12, 0.25), at (0.84, −0.12, 0.25).
    let recordedFrustum = lines(recorded, frustum)
    #expect(close(recordedFrustum[0], SIMD3(1, 0, 0)))
    #expect(close(recordedFrustum[1], SIMD3(0.84, -0.12, 0.25)))
    // Refined: the centre (1, 0, 0) turns to (0, 1, 0) and rises to (0, 1, 0.5); the
    // corner (0.84, −0.12, 0.25) turns to (0.12, 0.84, 0.25) and rises to 0.75.
    let refined = Self.twoCameraState(corrected: true)
    let path = lines(refined, trajectory)
    #expect(path.count == 2 && close(path[0], SIMD3(0, 0, 0)) && close(path[1], SIMD3(0, 1, 0.5)))
    let refinedFrustum = lines(refined, frustum)
    #expect(close(refinedFrustum[0], SIMD3(0, 1, 0.5)))
    #expect(close(refinedFrustum[1], SIMD3(0.12, 0.84, 0.75)))
  }
}
