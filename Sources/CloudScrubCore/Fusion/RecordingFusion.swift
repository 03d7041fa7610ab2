import Foundation

/// Fuses a recording's selected frames into a `TSDFVolume` and extracts its surface:
/// frames decoded on one worker a core, fused in timeline order in batches of
/// `TSDFVolume.framesPerBatch`, each batch's voxels updated on every core.
public struct RecordingFusion: Sendable {
  /// The recording, the frames chosen, their filters and the colour decoder; its
  /// `ingestMergeMeters` does not apply.
  public var loader: RecordingLoader
  public var options: FusionOptions

  /// What a fusion made, and how long its parts took.
  public struct Result: Sendable {
    public var mesh: TriangleMesh
    public var voxelSizeMeters: Float
    public var truncationMeters: Float
    /// The recording's frames fused, in order.
    public var frameIndices: [Int]
    public var blocks: Int
    /// Seconds spent decoding frames while integration waited, in integration, and in
    /// extraction.
    public var waitingSeconds: Double
    public var integrationSeconds: Double
    public var extractionSeconds: Double
  }

  public init(loader: RecordingLoader, options: FusionOptions = FusionOptions()) {
    self.loader = loader
    self.options = options
  }

  /// The selected frames' indices in the recording.
  private var indices: [Int] { loader.selection.indices(frameCount: loader.source.frameCount) }

  /// The frame at `index`, ready to fuse.
  public func frame(_ index: Int) throws(FrameLoadError) -> FusionFrame {
    do {
      return try FusionFrame(
        loader.source.frame(at: index), options: loader.unprojection, decoder: loader.decoder)
    } catch {
      throw FrameLoadError(frameIndex: index, underlying: error)
    }
  }

  /// The voxel size and truncation this fusion uses, with an estimate of the blocks it
  /// needs: those that up to 32 frames spread over the selection touch (fewer than the
  /// whole selection touches, never more).
  ///
  /// - Throws: `FrameLoadError` for a sampled frame that cannot be read,
  ///   `FusionError.truncationTooLong` past `FusionOptions.maximumTruncationVoxels`;
  ///   `FusionError.tooManyBlocks` when even the sample needs more blocks than
  ///   `options.memoryLimitBytes` holds.
  public func plan() throws -> (voxel: Float, truncation: Float, estimatedBlocks: Int) {
    let planned = try sampledPlan()
    return (planned.voxel, planned.truncation, planned.estimatedBlocks)
  }

  /// `plan()`, with the sampled frames by index, for the fusion to use again.
  private func sampledPlan() throws -> (
    voxel: Float, truncation: Float, estimatedBlocks: Int, sample: [Int: FusionFrame]
  ) {
    let indices = indices
    let sampleCount = min(indices.count, 32)
    let sampled = (0..<sampleCount).map { indices[$0 * indices.count / sampleCount] }
    let sample = try sampled.map { index throws(FrameLoadError) in try frame(index) }
    let (voxel, truncation) = try options.resolved(for: sample)
    var keys = Set<UInt64>()
    for frame in sample {
      TSDFVolume.forEachBlock(of: frame, voxelSize: voxel, truncation: truncation) {
        _, key in keys.insert(key)
      }
    }
    let limit = options.memoryLimitBytes / TSDFVolume.bytesPerBlock
    if keys.count > limit {
      throw FusionError.tooManyBlocks(
        limit: limit, voxelSize: voxel,
        fitting: FusionError.fittingVoxel(
          voxel, blocks: keys.count, limit: limit))
    }
    return (voxel, truncation, keys.count, Dictionary(uniqueKeysWithValues: zip(sampled, sample)))
  }

  /// Fuses every selected frame and extracts the surface.
  ///
  /// - Parameters:
  ///   - progress: called after each fused batch with the frames done and their total.
  ///   - stop: asked before each frame.
  /// - Throws: `FrameLoadError` for the first frame that fails, `FusionError` past the
  ///   memory limit, `CleaningCancelled` once `stop` says to stop.
  public func run(
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil, stop: StopCheck? = nil
  ) throws -> Result {
    let indices = indices
    let (voxel, truncation, _, sample) = try sampledPlan()
    let limit = options.memoryLimitBytes / TSDFVolume.bytesPerBlock
    let volume = TSDFVolume(voxelSize: voxel, truncation: truncation, maxBlocks: limit)
    var waiting = 0.0
    var integrating = 0.0
    var fused: [Int] = []
    var batch: [FusionFrame] = []
    var batchIndices: [Int] = []
    var clock = ContinuousClock.now
    try FramePipeline.inOrder(
      indices,
      make: { [self] index throws(FrameLoadError) in
        // The frames the plan sampled are not decoded again.
        if let sampled = sample[index] { return sampled }
        return try frame(index)
      }
    ) { (k: Int, index: Int, frame: FusionFrame) throws -> Bool in
      waiting += Self.seconds(since: &clock)
      if StopChecks.now(stop) { throw CleaningCancelled(step: "fuse") }
      batch.append(frame)
      batchIndices.append(index)
      guard batch.count == TSDFVolume.framesPerBatch || k == indices.count - 1 else {
        return true
      }
      do {
        try volume.integrate(batch)
      } catch {
        let expected = volume.blockCount * indices.count / max(k + 1 - batch.count, 1)
        throw FusionError.tooManyBlocks(
          limit: limit, voxelSize: voxel,
          fitting: FusionError.fittingVoxel(voxel, blocks: expected, limit: limit))
      }
      fused.append(contentsOf: batchIndices)
      batch.removeAll(keepingCapacity: true)
      batchIndices.removeAll(keepingCapacity: true)
      integrating += Self.seconds(since: &clock)
      progress?(k + 1, indices.count)
      return true
    }
    var mesh = volume.extractMesh()
    if options.minPieceTriangles > 1 {
      mesh = mesh.removingPieces(smallerThan: options.minPieceTriangles)
    }
    return Result(
      mesh: mesh, voxelSizeMeters: voxel, truncationMeters: truncation, frameIndices: fused,
      blocks: volume.blockCount, waitingSeconds: waiting, integrationSeconds: integrating,
      extractionSeconds: Self.seconds(since: &clock))
  }

  /// Seconds from `start` to now; `start` becomes now.
  private static func seconds(since start: inout ContinuousClock.Instant) -> Double {
    let now = ContinuousClock.now
    let elapsed = now - start
    start = now
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
