import CloudScrubCore

/// A backend that draws nothing and writes down every call: the test double for the
/// renderer's logic (which chunks exist, what was uploaded, which ranges were drawn).
public final class RecordingRenderBackend: RenderBackend {
  /// One call, as the backend received it.
  public enum Event: Equatable, Sendable {
    case makeChunk(PointChunkID, capacityPoints: Int)
    case upload(PointChunkID, atPoint: Int, count: Int)
    case uploadIntensity(PointChunkID, atPoint: Int, count: Int)
    case uploadFrameStarts(atFrame: Int, count: Int)
    case beginFrame(FrameSetup)
    case resumeFrame
    case drawPoints(PointChunkID, range: Range<Int>, baseIndex: Int, uniforms: PointUniforms)
    /// A picture of points drawn on the CPU, put into the scene target.
    case drawScenePicture(widthPixels: Int, heightPixels: Int)
    case drawLines(vertexCount: Int)
    case endFrame
    case releaseChunks([PointChunkID])
    case makeMesh(MeshBufferID, vertices: Int, triangles: Int)
    case drawMesh(MeshBufferID, uniforms: PointUniforms)
    case releaseMesh(MeshBufferID)
  }

  public private(set) var events: [Event] = []
  /// Bytes copied to the GPU for points, over the backend's life.
  public private(set) var uploadedPointBytes = 0
  /// What each chunk holds, so tests can read back what the GPU would draw.
  public private(set) var chunkContents: [PointChunkID: [GPUPoint]] = [:]
  /// The intensity levels of the chunks made with intensity.
  public private(set) var chunkIntensity: [PointChunkID: [UInt8]] = [:]
  public private(set) var frameStarts: [Int32] = []
  private var nextID = 0
  private var setup: FrameSetup?
  /// Who draws the points: the chunks' draws by default; a `RecordingStorePointDrawer`
  /// or a `CPUPointDrawer` to draw from the CPU store.
  public var pointDrawer: any PointDrawer = GPUPointDrawer()

  public init() {}

  public func makePointChunk(capacityPoints: Int, withIntensity: Bool) throws -> PointChunkID {
    let id = PointChunkID(nextID)
    nextID += 1
    chunkContents[id] = []
    chunkContents[id]?.reserveCapacity(capacityPoints)
    if withIntensity { chunkIntensity[id] = [] }
    events.append(.makeChunk(id, capacityPoints: capacityPoints))
    return id
  }

  public func upload(
    _ points: UnsafeBufferPointer<GPUPoint>, into chunk: PointChunkID, atPoint firstPoint: Int
  ) {
    events.append(.upload(chunk, atPoint: firstPoint, count: points.count))
    uploadedPointBytes += points.count * GPUPoint.byteCount
    var contents = chunkContents[chunk] ?? []
    if contents.count < firstPoint + points.count {
      contents.append(
        contentsOf: repeatElement(
          GPUPoint(x: 0, y: 0, z: 0, r: 0, g: 0, b: 0, confidence: 0),
          count: firstPoint + points.count - contents.count))
    }
    for (offset, point) in points.enumerated() { contents[firstPoint + offset] = point }
    chunkContents[chunk] = contents
  }

  public func uploadIntensity(
    _ levels: UnsafeBufferPointer<UInt8>, into chunk: PointChunkID, atPoint firstPoint: Int
  ) {
    events.append(.uploadIntensity(chunk, atPoint: firstPoint, count: levels.count))
    uploadedPointBytes += levels.count
    guard var contents = chunkIntensity[chunk] else { return }
    if contents.count < firstPoint + levels.count {
      contents.append(
        contentsOf: repeatElement(0, count: firstPoint + levels.count - contents.count))
    }
    for (offset, level) in levels.enumerated() { contents[firstPoint + offset] = level }
    chunkIntensity[chunk] = contents
  }

  public func uploadFrameStarts(_ starts: [Int32], atFrame firstFrame: Int) {
    events.append(.uploadFrameStarts(atFrame: firstFrame, count: starts.count))
    frameStarts.removeSubrange(min(firstFrame, frameStarts.count)...)
    frameStarts.append(contentsOf: starts)
  }

  public func beginFrame(_ setup: FrameSetup) {
    self.setup = setup
    events.append(.beginFrame(setup))
  }

  /// The last setup's size, at least one pixel each way, as the OpenGL backend's.
  public var sceneSizePixels: SIMD2<Int>? {
    setup.map { SIMD2(max(1, $0.widthPixels), max(1, $0.heightPixels)) }
  }

  public func drawScenePicture(_ picture: CPUSceneImage) {
    events.append(
      .drawScenePicture(widthPixels: picture.widthPixels, heightPixels: picture.heightPixels))
  }

  public func resumeFrame() { events.append(.resumeFrame) }

  public func drawPoints(
    chunk: PointChunkID, range: Range<Int>, baseIndex: Int, uniforms: PointUniforms
  ) {
    events.append(.drawPoints(chunk, range: range, baseIndex: baseIndex, uniforms: uniforms))
  }

  public func drawLines(_ vertices: [LineVertex], viewProjection: Matrix4) {
    events.append(.drawLines(vertexCount: vertices.count))
  }

  public func endFrame() { events.append(.endFrame) }

  public func releaseChunks(_ chunks: [PointChunkID]) {
    events.append(.releaseChunks(chunks))
    for chunk in chunks { chunkContents[chunk] = nil }
  }

  public func makeMeshBuffer(
    vertices: UnsafeBufferPointer<MeshVertex>, indices: UnsafeBufferPointer<UInt32>
  ) throws -> MeshBufferID {
    let id = MeshBufferID(nextID)
    nextID += 1
    events.append(.makeMesh(id, vertices: vertices.count, triangles: indices.count / 3))
    return id
  }

  public func drawMesh(_ mesh: MeshBufferID, uniforms: PointUniforms) {
    events.append(.drawMesh(mesh, uniforms: uniforms))
  }

  public func releaseMeshBuffer(_ mesh: MeshBufferID) { events.append(.releaseMesh(mesh)) }

  /// Forgets the events so far (the counters stay).
  public func clearEvents() { events = [] }

  /// The whole-cloud indices drawn by the point draw calls since the last `clearEvents`.
  public var drawnPointIndices: [Range<Int>] {
    events.compactMap {
      switch $0 {
      case .drawPoints(_, let range, let base, _):
        return (base + range.lowerBound)..<(base + range.upperBound)
      default: return nil
      }
    }
  }

  /// The number of point uploads since the last `clearEvents`.
  public var uploadCount: Int {
    events.filter { if case .upload = $0 { return true } else { return false } }.count
  }
}
