/// How a huge PLY cloud is read in the background: an even sample first, then the
/// rest in file order, optionally merged while it loads.
public struct SampledCloudLoad: Sendable {
  /// Points the first sample aims at: enough for a picture of the whole cloud, few
  /// enough to read in a fraction of a second.
  public static let defaultSamplePoints = 1_500_000
  /// Records read a piece after the sample.
  public static let defaultChunkRecords = 1 << 20

  public let sampler: PLYVertexSampler
  /// The first sample is one record in `sampleStride` (1: the whole cloud at once):
  /// the first `sampleBlock` records of every `sampleStride × sampleBlock`. Blocks of
  /// about a page make the sample of a huge file touch few pages of it (a record every
  /// few kilobytes would fault in the whole file); small samples take single records.
  public let sampleStride: Int
  public let sampleBlock: Int
  public var chunkRecords: Int
  /// The memory plan: its merge is applied, and the load stops past its point limit.
  public var memory: ViewerMemoryPlan?
  /// Called on the loading thread before each piece is read (0 the sample, then 1, 2,
  /// … the chunks), so that a test can hold the load at a known place.
  public var beforePiece: (@Sendable (Int) -> Void)?

  /// A load of `sampler`'s vertices whose first sample holds about `samplePoints`.
  public init(
    sampler: PLYVertexSampler, samplePoints: Int = Self.defaultSamplePoints,
    chunkRecords: Int = Self.defaultChunkRecords, memory: ViewerMemoryPlan? = nil
  ) {
    self.sampler = sampler
    sampleStride = max(1, sampler.count / max(1, samplePoints))
    // At least 4096 blocks, so that the sample still spreads over the whole file.
    sampleBlock = max(1, min(4096 / max(1, sampler.recordSize), samplePoints / 4096))
    self.chunkRecords = max(1, chunkRecords)
    self.memory = memory
  }

  /// Up to `limit` evenly spaced records' positions, read on the caller's thread: what
  /// `ViewerMemoryPlan.mergeMeters(forSample:pointLimit:)` sizes a merge from.
  public func extentSample(limit: Int = 8192) -> [Point3] {
    var points = FramePoints()
    let step = max(1, sampler.count / max(1, limit))
    sampler.read(stride(from: 0, to: sampler.count, by: step), into: &points)
    return points.positions
  }

  /// Starts the load on a background thread.
  public func start() -> StreamingLoad {
    StreamingLoad(total: sampler.count, ingestMergeMeters: memory?.mergeMeters) { load in
      self.run(load)
    }
  }

  // MARK: - The loading thread

  private func run(_ load: StreamingLoad) {
    do {
      load.finish(try stream(into: load))
    } catch {
      load.finish(.failed("\(error)"))
    }
  }

  private func stream(into load: StreamingLoad) throws -> LoadStatus {
    let total = sampler.count
    let k = sampleStride
    var merge = memory?.mergeMeters.map { IngestMerge(voxelSizeMeters: $0) }
    var kept = 0
    // Thins a piece, and says whether it still fits the memory plan.
    func admit(_ points: inout FramePoints) throws -> Bool {
      if var running = merge {
        points = try running.thin(points)
        merge = running
      }
      kept += points.count
      return memory.map { kept <= $0.pointLimit } ?? true
    }

    beforePiece?(0)
    var sample = FramePoints()
    let block = sampleBlock
    let group = k * block
    let sampleCount = sampled(before: total)
    sample.positions.reserveCapacity(sampleCount)
    sample.colors.reserveCapacity(sampleCount)
    sample.confidence.reserveCapacity(sampleCount)
    // In segments, dropping the mapped pages behind each, so that a sample that
    // touches every page of a huge file does not hold them all resident.
    let segment = group * max(1, 65_536 / block)
    for segmentStart in stride(from: 0, to: total, by: segment) {
      let segmentEnd = min(total, segmentStart + segment)
      for blockStart in stride(from: segmentStart, to: segmentEnd, by: group) {
        sampler.read(blockStart..<min(segmentEnd, blockStart + block), into: &sample)
      }
      if k > 1 { sampler.file.discard(byteRange(segmentStart..<segmentEnd)) }
    }
    try sampler.checkIntact()
    guard try admit(&sample) else {
      return .failed(memory?.limitMessage(point: sampleCount, of: total) ?? "")
    }
    let first = LoadedFrame(
      frameIndex: 0, timestampSeconds: 0, info: nil, points: sample, piece: k > 1 ? .first : .whole)
    guard load.deliver(first, done: sampleCount, total: total) else { return .cancelled }

    var piece = 1
    var start = 0
    while k > 1, start < total {
      let end = min(total, start + chunkRecords)
      beforePiece?(piece)
      guard !load.isCancelled else { return .cancelled }
      var points = FramePoints()
      // The records of this chunk that the sample did not take.
      let rest = (start..<end).lazy.filter { $0 % group >= block }
      sampler.read(rest, into: &points)
      try sampler.checkIntact()
      sampler.file.discard(byteRange(start..<end))
      let done = sampleCount + end - sampled(before: end)
      guard try admit(&points) else {
        return .failed(memory?.limitMessage(point: done, of: total) ?? "")
      }
      let more = LoadedFrame(
        frameIndex: 0, timestampSeconds: 0, info: nil, points: points, piece: .more)
      guard load.deliver(more, done: done, total: total) else { return .cancelled }
      start = end
      piece += 1
    }
    try sampler.checkElementsAfterVertices()
    return .finished(frames: 1)
  }

  /// How many of the records before `end` the sample takes.
  func sampled(before end: Int) -> Int {
    let group = sampleStride * sampleBlock
    return end / group * sampleBlock + min(sampleBlock, end % group)
  }

  /// The bytes of the vertex records `records`.
  private func byteRange(_ records: Range<Int>) -> Range<Int> {
    (sampler.vertexOffset + records.lowerBound * sampler.recordSize)..<(sampler.vertexOffset
      + records.upperBound * sampler.recordSize)
  }
}
