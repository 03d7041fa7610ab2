import CloudScrubCore

/// A backend that draws nothing and only counts: calls, uploaded bytes and points
/// drawn. For benchmarks of the renderer's CPU side, where the recording backend's
/// event list and chunk copies would cost more than what is measured.
public final class CountingRenderBackend: RenderBackend {
  public private(set) var uploadedPointBytes = 0
  public private(set) var uploadCalls = 0
  public private(set) var drawCalls = 0
  public private(set) var pointsDrawn = 0
  private var nextID = 0
  public var pointDrawer: any PointDrawer = GPUPointDrawer()
  public private(set) var sceneSizePixels: SIMD2<Int>?

  public init() {}

  public func makePointChunk(capacityPoints: Int, withIntensity: Bool) throws -> PointChunkID {
    nextID += 1
    return PointChunkID(nextID - 1)
  }

  public func upload(
    _ points: UnsafeBufferPointer<GPUPoint>, into chunk: PointChunkID, atPoint firstPoint: Int
  ) {
    uploadCalls += 1
    uploadedPointBytes += points.count * GPUPoint.byteCount
  }

  public func uploadIntensity(
    _ levels: UnsafeBufferPointer<UInt8>, into chunk: PointChunkID, atPoint firstPoint: Int
  ) {
    uploadCalls += 1
    uploadedPointBytes += levels.count
  }

  public func uploadFrameStarts(_ starts: [Int32], atFrame firstFrame: Int) {}
  public func beginFrame(_ setup: FrameSetup) {
    sceneSizePixels = SIMD2(max(1, setup.widthPixels), max(1, setup.heightPixels))
  }

  public func resumeFrame() {}

  public func drawPoints(
    chunk: PointChunkID, range: Range<Int>, baseIndex: Int, uniforms: PointUniforms
  ) {
    drawCalls += 1
    pointsDrawn += range.count
  }

  public func drawLines(_ vertices: [LineVertex], viewProjection: Matrix4) {}
  public func drawScenePicture(_ picture: CPUSceneImage) {}
  public func endFrame() {}
  public func releaseChunks(_ chunks: [PointChunkID]) {}

  public func makeMeshBuffer(
    vertices: UnsafeBufferPointer<MeshVertex>, indices: UnsafeBufferPointer<UInt32>
  ) throws -> MeshBufferID {
    nextID += 1
    return MeshBufferID(nextID - 1)
  }

  public func drawMesh(_ mesh: MeshBufferID, uniforms: PointUniforms) { drawCalls += 1 }
  public func releaseMeshBuffer(_ mesh: MeshBufferID) {}
}
