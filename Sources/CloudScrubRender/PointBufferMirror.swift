import CloudScrubCore

/// The GPU's append-only copy of a `PointStore`.
///
/// The CPU store is the source of truth. The mirror remembers how many points it has
/// uploaded (its watermark) and uploads only what lies past it, into a list of chunks:
/// when the last chunk is full a new, larger one is added, so growing never copies
/// what is already on the GPU. Drawing a range of the cloud is a list of per-chunk
/// draw ranges; no point is touched.
public final class PointBufferMirror {
  /// A chunk and the whole-cloud index of its first point.
  public struct Chunk: Equatable, Sendable {
    public var id: PointChunkID
    public var firstPoint: Int
    public var capacity: Int
  }

  /// One draw call: points `range` (chunk-local) of a chunk.
  public struct DrawCall: Equatable, Sendable {
    public var chunk: PointChunkID
    public var range: Range<Int>
    public var baseIndex: Int
  }

  public let backend: any RenderBackend
  /// Whether this mirror owns the backend's frame table (the main cloud's does; a
  /// cleaning preview's does not).
  public let uploadsFrameTable: Bool
  public private(set) var chunks: [Chunk] = []
  /// Points uploaded so far: points `0..<uploadedPoints` of the store are on the GPU.
  public private(set) var uploadedPoints = 0
  /// Entries of the frame table uploaded so far.
  public private(set) var uploadedFrames = 0
  /// Whether the chunks hold the points' intensity levels (the store has them).
  public private(set) var holdsIntensity = false

  let firstChunkCapacity: Int
  let largestChunkCapacity: Int
  /// Reused staging memory for interleaving, so uploads allocate nothing per frame.
  private var staging: [GPUPoint] = []
  static let stagingPoints = 1 << 16

  /// - Parameters:
  ///   - firstChunkCapacity: points in the first chunk; each next chunk doubles, up to
  ///     `largestChunkCapacity`.
  public init(
    backend: any RenderBackend, firstChunkCapacity: Int = 1 << 18,
    largestChunkCapacity: Int = 1 << 23,
    uploadsFrameTable: Bool = true
  ) {
    precondition(firstChunkCapacity > 0 && largestChunkCapacity >= firstChunkCapacity)
    self.backend = backend
    self.uploadsFrameTable = uploadsFrameTable
    self.firstChunkCapacity = firstChunkCapacity
    self.largestChunkCapacity = largestChunkCapacity
  }

  var capacity: Int { chunks.last.map { $0.firstPoint + $0.capacity } ?? 0 }

  /// Bytes of the GPU buffers the chunks take.
  public var residentBytes: Int {
    chunks.reduce(0) { $0 + $1.capacity } * (GPUPoint.byteCount + (holdsIntensity ? 1 : 0))
  }

  /// Uploads the points and frame-table entries of `store` that the GPU does not have.
  ///
  /// - Throws: what the backend throws when it cannot create a chunk; the watermark
  ///   then stays where it was.
  public func sync(with store: PointStore) throws {
    precondition(
      store.count >= uploadedPoints, "the store only grows; call reset() for a new cloud")
    if store.hasIntensity != holdsIntensity {
      // A store that has just gained intensity: its points go up again, with it.
      if !chunks.isEmpty { reset() }
      holdsIntensity = store.hasIntensity
    }
    while uploadedPoints < store.count {
      if uploadedPoints == capacity {
        let size =
          chunks.last.map { min($0.capacity * 2, largestChunkCapacity) } ?? firstChunkCapacity
        let id = try backend.makePointChunk(capacityPoints: size, withIntensity: holdsIntensity)
        chunks.append(Chunk(id: id, firstPoint: capacity, capacity: size))
      }
      guard let chunk = chunks.last else { return }
      let end = min(
        store.count, chunk.firstPoint + chunk.capacity, uploadedPoints + Self.stagingPoints)
      let range = uploadedPoints..<end
      if staging.count < Self.stagingPoints {
        staging = Array(
          repeating: GPUPoint(x: 0, y: 0, z: 0, r: 0, g: 0, b: 0, confidence: 0),
          count: Self.stagingPoints)
      }
      staging.withUnsafeMutableBufferPointer { buffer in
        store.interleave(range, into: buffer)
        backend.upload(
          UnsafeBufferPointer(rebasing: buffer[0..<range.count]), into: chunk.id,
          atPoint: range.lowerBound - chunk.firstPoint)
      }
      if holdsIntensity {
        store.intensity.withUnsafeBufferPointer { levels in
          backend.uploadIntensity(
            UnsafeBufferPointer(rebasing: levels[range]), into: chunk.id,
            atPoint: range.lowerBound - chunk.firstPoint)
        }
      }
      uploadedPoints = end
    }
    let frames = store.frameCount
    if uploadsFrameTable && uploadedFrames < frames {
      let starts = store.frameRanges[uploadedFrames..<frames].map { Int32(clamping: $0) }
      backend.uploadFrameStarts(Array(starts), atFrame: uploadedFrames)
      uploadedFrames = frames
    }
  }

  /// The draw calls that draw points `range` of the cloud (clipped to what is uploaded).
  public func drawCalls(for range: Range<Int>) -> [DrawCall] {
    let wanted = range.clamped(to: 0..<uploadedPoints)
    guard !wanted.isEmpty else { return [] }
    var calls: [DrawCall] = []
    for chunk in chunks {
      let chunkRange = chunk.firstPoint..<(chunk.firstPoint + chunk.capacity)
      let overlap = wanted.clamped(to: chunkRange)
      if overlap.isEmpty { continue }
      calls.append(
        DrawCall(
          chunk: chunk.id,
          range: (overlap.lowerBound - chunk.firstPoint)..<(overlap.upperBound - chunk.firstPoint),
          baseIndex: chunk.firstPoint))
    }
    return calls
  }

  /// Frees this mirror's chunks: the next `sync` starts a new cloud.
  public func reset() {
    backend.releaseChunks(chunks.map(\.id))
    chunks = []
    uploadedPoints = 0
    uploadedFrames = 0
  }
}
