/// How a huge cloud of fixed-size records (a binary PLY) is read in the background: an
/// even sample first, then the rest in file order, optionally merged while it loads.
public struct SampledCloudLoad: Sendable {
  /// Points the first sample aims at: enough for a picture of the whole cloud, few
  /// enough to read, merge and sort in a small part of a second on a loaded machine
  /// (1.5 M took 1.7 s of a 100 M-point file at a load of 15 on 2 cores).
  public static let defaultSamplePoints = 1 << 18
  /// Records read a piece after the sample.
  public static let defaultChunkRecords = 1 << 20
  /// Points delivered and not yet taken past which the load waits before it delivers
  /// the next piece: a reader faster than the level of detail holds a bounded queue.
  public static let maxWaitingPoints = 1 << 22
  /// This load's `maxWaitingPoints` (a test makes it small).
  public var waitingPointLimit = Self.maxWaitingPoints

  public let sampler: any PointRecordSampler
  /// The first sample is one record in `sampleStride` (1: the whole cloud at once):
  /// the first `sampleBlock` records of every `sampleStride × sampleBlock`. Blocks of
  /// about a page make the sample of a huge file touch few pages of it (a record every
  /// few kilobytes would fault in the whole file); small samples take single records.
  public let sampleStride: Int
  public let sampleBlock: Int
  public var chunkRecords: Int
  /// Points the preview aims at: the part of the sample delivered first, every
  /// `previewEvery`-th of its blocks (1: the whole sample), few enough that its pages,
  /// its merge and its first drawing take a small part of a second even on a cold file.
  public static let defaultPreviewPoints = 1 << 15
  public let previewEvery: Int
  /// The memory plan: its merge is applied, and the load stops past its point limit.
  public var memory: ViewerMemoryPlan?
  /// With no `memory`, a budget in bytes: the load plans an automatic merge itself once
  /// its preview is read, sized from an even subset of the preview (no page of the file
  /// is read for it that the sample does not read anyway), and says so in a note.
  public var automaticMergeBudgetBytes: Int?
  /// Whether a merge that keeps more points than its plan expected is made coarser
  /// (twice the voxel size, for the points still to come) each time the kept points pass
  /// 80 % of the limit, then half of what is left, instead of stopping at the limit: an
  /// automatic merge's size is an estimate. A merge the user chose stops instead.
  public var coarsensMerge = false
  /// Called on the loading thread before each piece is read (0 the sample, then 1, 2,
  /// … the chunks), so that a test can hold the load at a known place.
  public var beforePiece: (@Sendable (Int) -> Void)?

  /// A load of `sampler`'s vertices whose first sample holds about `samplePoints`.
  public init(
    sampler: any PointRecordSampler, samplePoints: Int = Self.defaultSamplePoints,
    chunkRecords: Int = Self.defaultChunkRecords, memory: ViewerMemoryPlan? = nil,
    previewPoints: Int = Self.defaultPreviewPoints
  ) {
    self.sampler = sampler
    sampleStride = max(1, sampler.count / max(1, samplePoints))
    // At least 4096 blocks, so that the sample still spreads over the whole file.
    sampleBlock = max(1, min(4096 / max(1, sampler.recordSize), samplePoints / 4096))
    self.chunkRecords = max(1, chunkRecords)
    let blocks = sampleStride > 1 ? samplePoints / sampleBlock : 1
    previewEvery = max(1, blocks / max(1, previewPoints / sampleBlock))
    self.memory = memory
  }

  /// Up to `limit` evenly spaced records' positions, read on the caller's thread: what
  /// `ViewerMemoryPlan.mergeMeters(forSample:pointLimit:)` sizes a merge from.
  public func extentSample(limit: Int = 8192) -> [Point3] {
    var points = FramePoints()
    let step = max(1, sampler.count / max(1, limit))
    for index in stride(from: 0, to: sampler.count, by: step) {
      sampler.read(records: index..<index + 1, into: &points)
    }
    return points.positions
  }

  /// Starts the load in the background.
  public func start() -> StreamingLoad {
    let load = StreamingLoad(total: sampler.count, ingestMergeMeters: memory?.mergeMeters)
    load.start { load in self.run(load) }
    return load
  }

  // MARK: - The loading job

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
    var memory = self.memory
    var merge = memory?.mergeMeters.map { IngestMerge(voxelSizeMeters: $0) }
    var kept = 0
    var coarsenAt = memory.map { $0.pointLimit / 5 * 4 } ?? .max
    // Thins a piece, and says whether it still fits the memory plan.
    func admit(_ points: inout FramePoints, done: Int) throws -> Bool {
      // Thinned in place: a copy of the merge would share its tables, and the thin
      // would then copy every table (all the kept voxels) once a piece.
      if let thinned = try merge?.thin(points) { points = thinned }
      kept += points.count
      guard let memory else { return true }
      guard kept <= memory.pointLimit else { return false }
      if coarsensMerge, let running = merge, done < total, kept > coarsenAt {
        let coarser = try running.coarsened()
        merge = coarser
        coarsenAt = kept + (memory.pointLimit - kept) / 2
        load.addNote(
          "merging at \(ViewerMemoryPlan.millimetres(coarser.voxelSizeMeters)) from record "
            + "\(done) on: \(kept) points kept, near the limit of \(memory.pointLimit)")
      }
      return true
    }

    beforePiece?(0)
    StartupTrace.mark("sample: reading")
    // The preview first (every `previewEvery`-th block of the sample): a picture of the
    // whole cloud that is read, merged and drawn before anything that scales with the
    // file; then the sample's other blocks.
    var preview = readSample(blocks: { $0 % previewEvery == 0 })
    try sampler.checkIntact()
    StartupTrace.mark("preview: read \(preview.count) points")
    if memory == nil, let budget = automaticMergeBudgetBytes {
      let plan = Self.automaticPlan(forSample: preview, cloudPoints: total, budgetBytes: budget)
      memory = plan
      merge = plan.mergeMeters.map { IngestMerge(voxelSizeMeters: $0) }
      coarsenAt = plan.pointLimit / 5 * 4
      if let note = plan.note { load.addNote(note) }
    }
    let previewCount = preview.count
    guard try admit(&preview, done: previewCount) else {
      return .failed(memory?.limitMessage(point: previewCount, of: total) ?? "")
    }
    StartupTrace.mark("preview: admitted \(preview.count) points")
    let first = LoadedFrame(
      frameIndex: 0, timestampSeconds: 0, info: nil, points: preview,
      piece: k > 1 ? .first : .whole)
    guard load.deliver(first, done: previewCount, total: total) else { return .cancelled }
    let sampleCount = sampled(before: total)
    if previewEvery > 1 {
      guard !load.isCancelled else { return .cancelled }
      var rest = readSample(blocks: { $0 % previewEvery != 0 })
      try sampler.checkIntact()
      guard try admit(&rest, done: sampleCount) else {
        return .failed(memory?.limitMessage(point: sampleCount, of: total) ?? "")
      }
      let more = LoadedFrame(
        frameIndex: 0, timestampSeconds: 0, info: nil, points: rest, piece: .more)
      guard load.deliver(more, done: sampleCount, total: total) else { return .cancelled }
    }

    let block = sampleBlock
    let group = k * block
    var piece = 1
    var start = 0
    while k > 1, start < total {
      let end = min(total, start + chunkRecords)
      beforePiece?(piece)
      guard !load.isCancelled else { return .cancelled }
      var points = FramePoints()
      // The records of this chunk that the sample did not take: in each group, those
      // after its first block.
      for g in start / group...(end - 1) / group {
        let rest = max(start, g * group + block)..<min(end, (g + 1) * group)
        if !rest.isEmpty { sampler.read(records: rest, into: &points) }
      }
      try sampler.checkIntact()
      sampler.file.discard(byteRange(start..<end))
      let done = sampleCount + end - sampled(before: end)
      guard try admit(&points, done: done) else {
        return .failed(memory?.limitMessage(point: done, of: total) ?? "")
      }
      StartupTrace.mark("piece \(piece): \(done) of \(total) records read, \(kept) kept")
      let more = LoadedFrame(
        frameIndex: 0, timestampSeconds: 0, info: nil, points: points, piece: .more)
      guard load.waitForRoom(maxPoints: waitingPointLimit),
        load.deliver(more, done: done, total: total)
      else { return .cancelled }
      start = end
      piece += 1
    }
    try sampler.checkAfterRecords()
    return .finished(frames: 1)
  }

  /// The sample's blocks (numbered along the file) that `included` takes, in file order:
  /// every block's pages asked for at once first, and dropped again behind each
  /// segment of the reading.
  private func readSample(blocks included: (Int) -> Bool) -> FramePoints {
    let total = sampler.count
    let block = sampleBlock
    let group = sampleStride * block
    var points = FramePoints()
    let blocks = (0..<(total + group - 1) / group).filter(included)
    let count = blocks.count * block
    points.positions.reserveCapacity(count)
    points.colors.reserveCapacity(count)
    points.confidence.reserveCapacity(count)
    if sampleStride > 1 {
      // On a file not in the page cache (15 GB) the scattered reads then overlap
      // instead of waiting one by one.
      for b in blocks {
        sampler.file.prefetch(byteRange(b * group..<min(total, b * group + block)))
      }
    }
    // In segments, dropping the mapped pages behind each, so that a sample that
    // touches every page of a huge file does not hold them all resident.
    let segment = max(1, 65_536 / block)
    for segmentStart in stride(from: 0, to: blocks.count, by: segment) {
      let segmentBlocks = blocks[segmentStart..<min(blocks.count, segmentStart + segment)]
      for b in segmentBlocks {
        sampler.read(records: b * group..<min(total, b * group + block), into: &points)
      }
      if sampleStride > 1, let firstBlock = segmentBlocks.first, let lastBlock = segmentBlocks.last
      {
        sampler.file.discard(byteRange(firstBlock * group..<min(total, (lastBlock + 1) * group)))
      }
    }
    return points
  }

  /// The automatic merge of a cloud of `cloudPoints` whose first sample is `sample`:
  /// sized from every k-th of its points (about 8 k, spread over the whole file as the
  /// sample is) for the point limit of a merged load within `budgetBytes`.
  static func automaticPlan(forSample sample: FramePoints, cloudPoints: Int, budgetBytes: Int)
    -> ViewerMemoryPlan
  {
    let step = max(1, sample.count / 8192)
    let subset = stride(from: 0, to: sample.count, by: step).map { sample.positions[$0] }
    let limit = ViewerMemoryPlan.cloudPointLimit(
      cloudPoints: cloudPoints, budgetBytes: budgetBytes, merging: true)
    let meters = ViewerMemoryPlan.mergeMeters(forSample: subset, pointLimit: limit)
    return ViewerMemoryPlan(
      choice: .automatic, cloudPoints: cloudPoints, automaticMergeMeters: meters,
      budgetBytes: budgetBytes)
  }

  /// How many of the records before `end` the sample takes.
  func sampled(before end: Int) -> Int {
    let group = sampleStride * sampleBlock
    return end / group * sampleBlock + min(sampleBlock, end % group)
  }

  /// The bytes of the records `records`.
  private func byteRange(_ records: Range<Int>) -> Range<Int> {
    (sampler.recordsOffset + records.lowerBound * sampler.recordSize)..<(sampler.recordsOffset
      + records.upperBound * sampler.recordSize)
  }
}
