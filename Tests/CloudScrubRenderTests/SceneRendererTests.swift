import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// A store of frames with the given point counts; point i of the whole store sits at
/// x = i so that drawn indices can be checked against positions.
func store(framePointCounts: [Int]) -> PointStore {
  var store = PointStore()
  var next = 0
  for (frame, count) in framePointCounts.enumerated() {
    var points = FramePoints()
    for _ in 0..<count {
      points.positions.append(Point3(Float(next), Float(frame), 0))
      points.colors.append(RGB8(UInt8(next % 256), 1, 2))
      points.confidence.append(UInt8(next % 3))
      next += 1
    }
    store.append(points, frameIndex: frame)
  }
  return store
}

/// The commands loading `store` would give: one timestamp a frame at `fps`, and a scene
/// with the store's bounds.
func loadedState(_ store: PointStore, fps: Double = 30) -> ViewerState {
  var state = ViewerState(viewportWidth: 320, viewportHeight: 200)
  let timestamps = (0..<store.frameCount).map { Double($0) / fps }
  state.apply(.sceneAppended(ViewerScene(bounds: store.cloud().bounds)))
  state.apply(.playback(.framesLoaded(timestampsSeconds: timestamps)))
  return state
}

func drawnIndices(_ backend: RecordingRenderBackend) -> [Int] {
  backend.drawnPointIndices.flatMap { Array($0) }
}

@Suite struct SceneRendererTests {
  static let counts = [3, 4, 5, 8, 0, 6]  // frameRanges [0, 3, 7, 12, 20, 20, 26]

  @Test func loadingUploadsEachPointOnceAsOneVertex() throws {
    let backend = RecordingRenderBackend()
    let mirror = PointBufferMirror(backend: backend, firstChunkCapacity: 4, largestChunkCapacity: 8)
    var growing = PointStore()
    let full = store(framePointCounts: Self.counts)
    // Frames arrive one by one, with a sync after each, as in the window.
    for frame in 0..<full.frameCount {
      let range = full.frameRanges[frame]..<full.frameRanges[frame + 1]
      var points = FramePoints()
      points.positions = Array(full.positions[range])
      points.colors = Array(full.colors[range])
      points.confidence = Array(full.confidence[range])
      growing.append(points, frameIndex: frame)
      try mirror.sync(with: growing)
    }
    #expect(GPUPoint.byteCount == 16)
    #expect(backend.uploadedPointBytes == 26 * 16)
    #expect(mirror.uploadedPoints == 26)
    #expect(backend.frameStarts == [0, 3, 7, 12, 20, 20])
    // Chunks double up to the largest size and never move what they hold.
    let capacities = backend.events.compactMap { event -> Int? in
      if case .makeChunk(_, let capacity) = event { return capacity } else { return nil }
    }
    #expect(capacities == [4, 8, 8, 8])
    let gpu = mirror.chunks.flatMap { backend.chunkContents[$0.id] ?? [] }
    #expect(gpu.count == 26)
    #expect(gpu.map(\.x) == (0..<26).map(Float.init))
    #expect(gpu[9] == GPUPoint(x: 9, y: 2, z: 0, r: 9, g: 1, b: 2, confidence: 0))
    // A sync with nothing new uploads nothing.
    backend.clearEvents()
    try mirror.sync(with: growing)
    #expect(backend.uploadCount == 0)
  }

  @Test func scrubToFrame2DrawsFirstThreeFrames() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: Self.counts)
    let renderer = SceneRenderer(
      backend: backend,
      mirror: PointBufferMirror(backend: backend, firstChunkCapacity: 5, largestChunkCapacity: 5))
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.seek(frame: 2)))
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    #expect(drawnIndices(backend) == Array(0..<12))
    // 12 points over chunks of 5: three calls, split at the chunk boundaries.
    #expect(backend.drawnPointIndices == [0..<5, 5..<10, 10..<12])
  }

  @Test func fullScrubBackAndForthUploadsNothing() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: Self.counts)
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    backend.clearEvents()
    let uploadedBefore = backend.uploadedPointBytes
    for frame in Array(0..<points.frameCount) + Array((0..<points.frameCount).reversed()) {
      state.apply(.playback(.seek(frame: frame)))
      try renderer.sync(with: points)
      renderer.draw(state: state, store: points)
      #expect(Set(drawnIndices(backend)) == Set(0..<points.frameRanges[frame + 1]))
      backend.clearEvents()
    }
    #expect(backend.uploadedPointBytes == uploadedBefore)
  }

  @Test func currentFrameModeDrawsOnlyThatFrame() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: Self.counts)
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.setMode(.currentFrameOnly)))
    state.apply(.playback(.seek(frame: 3)))
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    #expect(drawnIndices(backend) == Array(12..<20))
    // An empty frame draws no points at all.
    state.apply(.playback(.seek(frame: 4)))
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    #expect(drawnIndices(backend).isEmpty)
  }

  @Test func lastTwoFramesModeDrawsTheWindow() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: Self.counts)
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.setLastFramesCount(2)))
    state.apply(.playback(.setMode(.lastFrames)))
    state.apply(.playback(.seek(frame: 3)))
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    #expect(drawnIndices(backend) == Array(7..<20))
    state.apply(.playback(.seek(frame: 0)))
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    #expect(drawnIndices(backend) == Array(0..<3))
  }

  @Test func playingOneSecondAt60FpsDrawsSixtyOneFrames() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: Array(repeating: 2, count: 100))
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points, fps: 60)
    state.apply(.playback(.jumpToStart))
    state.apply(.playback(.play))
    for _ in 0..<60 { state.apply(.playback(.advance(seconds: 1.0 / 60))) }
    #expect(state.playback.currentFrame == 60)
    backend.clearEvents()
    renderer.draw(state: state, store: points)
    #expect(drawnIndices(backend) == Array(0..<122))
  }

  @Test func looksAreUniformsAndNeverUpload() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: Self.counts)
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    backend.clearEvents()
    let commands: [DisplayCommand] = [
      .setColorMode(.confidence), .setPointSize(7), .setMinConfidence(.high),
      .toggleEyeDomeLighting,
      .setRoundPoints(false),
    ]
    for command in commands { state.apply(.display(command)) }
    renderer.draw(state: state, store: points)
    #expect(backend.uploadCount == 0)
    let uniforms = backend.events.compactMap { event -> PointUniforms? in
      if case .drawPoints(_, _, _, let u) = event { return u } else { return nil }
    }
    #expect(!uniforms.isEmpty)
    for u in uniforms {
      #expect(u.colorMode == .confidence)
      #expect(u.pointSizePixels == 7)
      #expect(u.minConfidence == .high)
      #expect(!u.roundPoints)
      #expect(u.frameCount == 6)
      // Heights run over the store's y range: frames 0…5 sit at y = frame.
      #expect(u.heightRangeMeters == 0...5)
    }
    let setups = backend.events.compactMap { event -> FrameSetup? in
      if case .beginFrame(let s) = event { return s } else { return nil }
    }
    #expect(setups.map(\.eyeDomeLighting) == [true])
    #expect(setups.map(\.widthPixels) == [320])
  }

  @Test func backendDrawingFromTheStoreGetsStoreRangesAndNoUploads() throws {
    let backend = RecordingRenderBackend()
    let drawer = RecordingStorePointDrawer()
    backend.pointDrawer = drawer
    let points = store(framePointCounts: Self.counts)
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.setLastFramesCount(2)))
    state.apply(.playback(.setMode(.lastFrames)))
    state.apply(.playback(.seek(frame: 3)))
    renderer.draw(state: state, store: points)
    #expect(backend.uploadedPointBytes == 0)
    #expect(backend.frameStarts.isEmpty)
    // One call for the whole window, not one a chunk.
    #expect(drawer.drawnRanges == [7..<20])
    #expect(backend.drawnPointIndices.isEmpty)
  }

  @Test func newCloudReleasesTheOldChunks() throws {
    let backend = RecordingRenderBackend()
    let mirror = PointBufferMirror(backend: backend)
    try mirror.sync(with: store(framePointCounts: [5]))
    mirror.reset()
    #expect(mirror.uploadedPoints == 0)
    #expect(mirror.drawCalls(for: 0..<5).isEmpty)
    try mirror.sync(with: store(framePointCounts: [2]))
    #expect(backend.uploadedPointBytes == 7 * 16)
    #expect(backend.events.contains(.releaseChunks([PointChunkID(0)])))
  }
}
