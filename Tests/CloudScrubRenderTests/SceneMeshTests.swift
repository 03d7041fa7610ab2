import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// What the scene renderer asks of the backend for a mesh: uploaded once while OpenGL
/// draws it, drawn once a picture (not again by the passes that add points), before
/// the points; with `.mesh` no point is drawn, with `.points` no triangle.
@Suite struct SceneMeshTests {
  static let store = ComparisonScenes.store(pointsPerFrame: 100, frames: 2, seed: 3)
  static let mesh = CPUTriangleTests.square()

  static func state(_ surface: SurfaceShown) -> ViewerState {
    var state = ComparisonScenes.state(store, width: 64, height: 48)
    state.apply(.display(.setSurface(surface)))
    return state
  }

  static func meshDraws(_ events: [RecordingRenderBackend.Event]) -> Int {
    events.filter { if case .drawMesh = $0 { return true } else { return false } }.count
  }

  @Test func openGLUploadsTheMeshOnceAndDrawsItBeforeThePoints() throws {
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    let mesh = SceneMesh(Self.mesh, backend: backend)
    try renderer.sync(with: Self.store)
    backend.clearEvents()
    renderer.draw(state: Self.state(.both), store: Self.store, mesh: mesh)
    renderer.draw(state: Self.state(.both), store: Self.store, mesh: mesh)
    let made = backend.events.filter {
      if case .makeMesh(_, vertices: 4, triangles: 2) = $0 { return true } else { return false }
    }
    #expect(made.count == 1)
    #expect(Self.meshDraws(backend.events) == 2)
    let firstMesh = backend.events.firstIndex { if case .drawMesh = $0 { true } else { false } }
    let firstPoints = backend.events.firstIndex {
      if case .drawPoints = $0 { true } else { false }
    }
    #expect(firstMesh != nil && firstPoints != nil && firstMesh! < firstPoints!)

    // A pass that continues the picture adds points only.
    backend.clearEvents()
    renderer.draw(
      state: Self.state(.both), store: Self.store, pass: [0..<50], continuing: true, mesh: mesh)
    #expect(Self.meshDraws(backend.events) == 0)
    #expect(backend.drawnPointIndices == [0..<50])

    // The mesh alone: no point; the points alone: no triangle.
    backend.clearEvents()
    renderer.draw(state: Self.state(.mesh), store: Self.store, mesh: mesh)
    #expect(Self.meshDraws(backend.events) == 1 && backend.drawnPointIndices.isEmpty)
    backend.clearEvents()
    renderer.draw(state: Self.state(.points), store: Self.store, mesh: mesh)
    #expect(Self.meshDraws(backend.events) == 0 && !backend.drawnPointIndices.isEmpty)
  }

  @Test func aStoreDrawerFreesTheMeshCopyAndDrawsFromTheMesh() throws {
    let backend = RecordingRenderBackend()
    let renderer = SceneRenderer(backend: backend)
    let mesh = SceneMesh(Self.mesh, backend: backend)
    try mesh.prepare()
    let uploaded = try #require(mesh.buffer)
    let drawer = RecordingStorePointDrawer()
    backend.pointDrawer = drawer
    renderer.draw(state: Self.state(.mesh), store: Self.store, mesh: mesh)
    #expect(mesh.buffer == nil)
    #expect(backend.events.contains(.releaseMesh(uploaded)))
    #expect(drawer.meshDraws == [2])
    #expect(drawer.draws.isEmpty)
    #expect(drawer.finishedPictures == 1)
  }
}
