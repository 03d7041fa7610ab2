import Testing

@testable import CloudScrubCore

/// The model in the reducer: a fused mesh shows at once (the view switches from points
/// to the mesh), and goes stale when the shown frames, the minimum confidence or the
/// poses change, and fresh again when they change back.
@Suite struct ViewerModelTests {
  static func loaded(frames: Int = 10) -> ViewerState {
    var state = ViewerState()
    state.apply(.playback(.framesLoaded(timestampsSeconds: (0..<frames).map { Double($0) / 30 })))
    state.apply(.playback(.jumpToEnd))
    return state
  }

  static func summary(_ inputs: ModelInputs?) -> ModelSummary {
    ModelSummary(inputs: inputs, vertices: 30, triangles: 40, voxelMeters: 0.01)
  }

  @Test func aFusedMeshShowsAndGoesStaleWhenTheViewChanges() throws {
    var state = Self.loaded()
    let inputs = try #require(state.modelInputs)
    #expect(inputs == ModelInputs(frames: 0...9, minConfidence: .low, refinement: nil))
    #expect(!state.modelIsStale)
    state.apply(.model(.fuseStarted(inputs)))
    #expect(state.model.fusing == inputs)
    #expect(state.display.surface == .points)
    state.apply(.model(.fused(Self.summary(inputs))))
    #expect(state.model.fusing == nil)
    #expect(state.model.shown?.triangles == 40)
    #expect(state.display.surface == .mesh)
    #expect(!state.modelIsStale)

    state.apply(.playback(.step(-1)))
    #expect(state.modelIsStale)
    state.apply(.playback(.step(1)))
    #expect(!state.modelIsStale)
    state.apply(.display(.setMinConfidence(.high)))
    #expect(state.modelIsStale)
    state.apply(.display(.setMinConfidence(.low)))
    state.apply(.playback(.setMode(.currentFrameOnly)))
    #expect(state.modelIsStale)
  }

  @Test func theUsersChoiceOfSurfaceIsKeptAndFailuresAreSaid() throws {
    var state = Self.loaded()
    let inputs = try #require(state.modelInputs)
    state.apply(.display(.setSurface(.both)))
    state.apply(.model(.fused(Self.summary(inputs))))
    #expect(state.display.surface == .both)
    // S cycles points, mesh, both.
    var mapper = InputMapper()
    for expected in [SurfaceShown.points, .mesh, .both] {
      for command in mapper.keyPressed(.letter("s")) { state.apply(command) }
      #expect(state.display.surface == expected)
    }
    state.apply(.model(.fuseStarted(inputs)))
    // The mesh shown stays while another fuses, and after a failure.
    state.apply(.model(.fuseFailed("--voxel 0.001 needs more memory")))
    #expect(state.model.failure == "--voxel 0.001 needs more memory")
    #expect(state.model.shown?.triangles == 40)
    state.apply(.model(.fuseStarted(inputs)))
    #expect(state.model.failure == nil)
    state.apply(.model(.fuseCancelled))
    #expect(state.model.fusing == nil)
  }

  @Test func theVoxelSizeIsChosenOrAutomatic() {
    var state = Self.loaded()
    #expect(state.model.voxelMeters == nil)
    state.apply(.model(.setVoxel(0.015)))
    #expect(state.model.voxelMeters == 0.015)
    for refused: Float in [0, -1, .nan, .infinity] {
      state.apply(.model(.setVoxel(refused)))
      #expect(state.model.voxelMeters == nil)
    }
  }

  @Test func aMeshFileIsNeverStale() {
    var state = Self.loaded(frames: 1)
    state.apply(.model(.meshOpened(Self.summary(nil))))
    #expect(state.display.surface == .mesh)
    state.apply(.display(.setMinConfidence(.high)))
    #expect(!state.modelIsStale)
  }
}
