import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// The point drawers as the scene renderer drives them, on the recording backend: what
/// each keeps on the GPU, and when the CPU drawer hands its picture over.
@Suite struct PointDrawerTests {
  /// Where in `events` the first event `matching` is.
  private static func index(
    in events: [RecordingRenderBackend.Event],
    where matching: (RecordingRenderBackend.Event) -> Bool
  ) -> Int? {
    events.firstIndex(where: matching)
  }

  private static func isPicture(_ event: RecordingRenderBackend.Event) -> Bool {
    if case .drawScenePicture = event { return true } else { return false }
  }

  private static func isLines(_ event: RecordingRenderBackend.Event) -> Bool {
    if case .drawLines = event { return true } else { return false }
  }

  @Test func eachRendererMakesItsOwnDrawer() {
    #expect(PointRenderer.gl.makeDrawer() is GPUPointDrawer)
    #expect(PointRenderer.cpu.makeDrawer() is CPUPointDrawer)
  }

  @Test func theCPUDrawerHandsOnePictureAFrameBeforeTheOverlays() throws {
    let backend = RecordingRenderBackend()
    backend.pointDrawer = CPUPointDrawer()
    let points = store(framePointCounts: [4, 5, 6])
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.jumpToEnd))
    renderer.draw(state: state, store: points)
    #expect(backend.uploadedPointBytes == 0)
    let events = backend.events
    #expect(
      events.filter(Self.isPicture) == [.drawScenePicture(widthPixels: 320, heightPixels: 200)])
    let picture = try #require(Self.index(in: events, where: Self.isPicture))
    let lines = try #require(Self.index(in: events, where: Self.isLines))
    #expect(picture < lines)
    #expect(events.last == .endFrame)
  }

  @Test func aFrameWithNoPointsKeepsTheClearedTarget() throws {
    let backend = RecordingRenderBackend()
    backend.pointDrawer = CPUPointDrawer()
    let renderer = SceneRenderer(backend: backend)
    let empty = PointStore()
    try renderer.sync(with: empty)
    renderer.draw(state: ViewerState(viewportWidth: 64, viewportHeight: 48), store: empty)
    #expect(!backend.events.contains(where: Self.isPicture))
  }

  @Test func switchingDrawersFreesOrUploadsTheGPUCopyOnce() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: [10, 10])
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    try renderer.sync(with: points)
    #expect(backend.uploadedPointBytes == 20 * GPUPoint.byteCount)
    backend.pointDrawer = PointRenderer.cpu.makeDrawer()
    try renderer.sync(with: points)
    #expect(renderer.mirror.uploadedPoints == 0)
    #expect(backend.events.contains(.releaseChunks([PointChunkID(0)])))
    backend.pointDrawer = PointRenderer.gl.makeDrawer()
    try renderer.sync(with: points)
    try renderer.sync(with: points)
    #expect(backend.uploadedPointBytes == 40 * GPUPoint.byteCount)
  }

  @Test func aPassResumedAfterASwitchToTheCPUDrawsNothing() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: [8])
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.jumpToEnd))
    renderer.draw(state: state, store: points, pass: [0..<4], continuing: false)
    backend.pointDrawer = CPUPointDrawer()
    backend.clearEvents()
    renderer.draw(state: state, store: points, pass: [4..<8], continuing: true)
    // The new drawer's rasterizer holds no picture of this frame to add to.
    #expect(!backend.events.contains(where: Self.isPicture))
    #expect(backend.events.first == .resumeFrame)
  }
}
