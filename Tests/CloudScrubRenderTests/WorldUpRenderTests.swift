import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// The renderer's height colouring and ground grid follow the scene's up axis.
@Suite struct WorldUpRenderTests {
  /// A state whose scene spans x 0…2, y 3…5, z −1…1.5, told `up` first as a recording's
  /// content would.
  func state(up: WorldUp) -> ViewerState {
    var state = ViewerState(viewportWidth: 320, viewportHeight: 200)
    state.apply(.worldUpKnown(up))
    state.apply(
      .sceneAppended(ViewerScene(bounds: Bounds3(min: Point3(0, 3, -1), max: Point3(2, 5, 1.5)))))
    return state
  }

  @Test func zUpColoursByZAndLaysTheGridAtTheLowestZ() {
    let renderer = SceneRenderer(backend: RecordingRenderBackend())
    let zUp = state(up: .z)
    let uniforms = renderer.pointUniforms(
      state: zUp, view: zUp.viewMatrix, viewProjection: zUp.viewMatrix, frameRanges: [0])
    #expect(uniforms.upAxis == SIMD3(0, 0, 1))
    #expect(uniforms.heightRangeMeters == -1...1.5)
    let grid = renderer.overlays(state: zUp).filter {
      ($0.r, $0.g, $0.b) == (90, 90, 96)
    }
    #expect(!grid.isEmpty && grid.allSatisfy { $0.z == -1 })
    #expect(Set(grid.map(\.y)).count > 2)  // spread over x and y
  }

  @Test func yUpColoursByYAndLaysTheGridAtTheLowestY() {
    let renderer = SceneRenderer(backend: RecordingRenderBackend())
    let yUp = state(up: .y)
    let uniforms = renderer.pointUniforms(
      state: yUp, view: yUp.viewMatrix, viewProjection: yUp.viewMatrix, frameRanges: [0])
    #expect(uniforms.upAxis == SIMD3(0, 1, 0))
    #expect(uniforms.heightRangeMeters == 3...5)
    let grid = renderer.overlays(state: yUp).filter { ($0.r, $0.g, $0.b) == (90, 90, 96) }
    #expect(!grid.isEmpty && grid.allSatisfy { $0.y == 3 })
  }
}
