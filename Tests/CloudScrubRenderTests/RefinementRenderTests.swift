import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// Drawing a picture pass by pass, as the window refines it under a point budget.
@Suite struct RefinementRenderTests {
  @Test func passesToTheEndDrawWhatOneFullDrawDraws() throws {
    let points = store(framePointCounts: SceneRendererTests.counts + [9, 1, 7])
    let backend = RecordingRenderBackend()
    let mirror = PointBufferMirror(backend: backend, firstChunkCapacity: 4, largestChunkCapacity: 8)
    let renderer = SceneRenderer(backend: backend, mirror: mirror)
    try renderer.sync(with: points)
    let state = loadedState(points)
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    let full = drawnIndices(backend)
    #expect(full == Array(0..<points.count))

    backend.clearEvents()
    let plan = DrawPlan(state: state, frameRanges: points.frameRanges, budgetPoints: 10)
    #expect(plan.passCount > 2)
    for pass in 0..<plan.passCount {
      renderer.draw(
        state: state, store: points, pass: plan.ranges(ofPass: pass),
        continuing: pass > 0)
    }
    #expect(drawnIndices(backend).sorted() == full)
    // One cleared picture, added to by every later pass, each composited.
    let begins = backend.events.filter { if case .beginFrame = $0 { true } else { false } }
    let resumes = backend.events.filter { $0 == .resumeFrame }
    let ends = backend.events.filter { $0 == .endFrame }
    #expect(begins.count == 1)
    #expect(resumes.count == plan.passCount - 1)
    #expect(ends.count == plan.passCount)
    #expect(backend.uploadCount == 0)
  }

  @Test func recompositeDrawsNoPoint() throws {
    let points = store(framePointCounts: [5, 5])
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    renderer.draw(state: loadedState(points), store: points)
    backend.clearEvents()
    renderer.recomposite()
    #expect(backend.events == [.endFrame])
  }
}
