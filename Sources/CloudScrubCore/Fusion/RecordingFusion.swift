import Foundation

/// Fuses a recording's selected frames into a `TSDFVolume` and extracts its surface:
/// frames decoded on one worker a core, fused in timeline order, each frame's voxels
/// updated on every core.
public struct RecordingFusion: Sendable {
  public var source: any RecordingSource
  public var selection: FrameSelection
  public var unprojection: UnprojectionOptions
  public var decoder: (any ColorDecoder)?
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

  public init(
    source: any RecordingSource, selection: FrameSelection = FrameSelection(),
    unprojection: UnprojectionOptions = UnprojectionOptions(), decoder: (any ColorDecoder)? = nil,
    options: FusionOptions = FusionOptions()
  ) {
    self.source = source
    self.selection = selection
    self.unprojection = unprojection
    self.decoder = decoder
    self.options = options
  }

  /// The frame at `index`, ready to fuse.
  public func frame(_ index: Int) throws(FrameLoadError) -> FusionFrame {
    do {
      return try FusionFrame(source.frame(at: index), options: unprojection, decoder: decoder)
    } catch {
      throw FrameLoadError(frameIndex: index, underlying: error)
    }
  }

  /// The voxel size and truncation this fusion uses, with an estimate of the blocks it
  /// needs: those that up to 32 frames spread over the selection touch (fewer than the
  /// whole selection touches, never more).
  ///
  /// - Throws: `FrameLoadError` for a sampled frame that cannot be read,
  ///   `FusionError.tooManyBlocks` when even the sample needs more blocks than
  ///   `options.memoryLimitBytes` holds.
  public func plan() throws -> (voxel: Float, truncation: Float, estimatedBlocks: Int) {
    let indices = selection.indices(frameCount: source.frameCount)
    let sampleCount = min(indices.count, 32)
    let sample = try (0..<sampleCount).map { k throws(FrameLoadError) in
      try frame(indices[k * indices.count / sampleCount])
    }
    let (voxel, truncation) = options.resolved(for: sample)
    var keys = Set<UInt64>()
    for frame in sample {
      try TSDFVolume.forEachBlock(of: frame, voxelSize: voxel, truncation: truncation) {
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
    return (voxel, truncation, keys.count)
  }

  /// Fuses every selected frame and extracts the surface.
  ///
  /// - Parameters:
  ///   - progress: called after each fused frame with the frames done and their total.
  ///   - stop: asked before each frame.
  /// - Throws: `FrameLoadError` for the first frame that fails, `FusionError` past the
  ///   memory limit, `CleaningCancelled` once `stop` says to stop.
  public func run(
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil, stop: StopCheck? = nil
  ) throws -> Result {
    let indices = selection.indices(frameCount: source.frameCount)
    let (voxel, truncation, _) = try plan()
    let limit = options.memoryLimitBytes / TSDFVolume.bytesPerBlock
    let volume = TSDFVolume(voxelSize: voxel, truncation: truncation, maxBlocks: limit)
    var waiting = 0.0
    var integrating = 0.0
    var fused: [Int] = []
    var clock = ContinuousClock.now
    try FramePipeline.inOrder(
      indices,
      make: { [self] index throws(FrameLoadError) in
        try frame(index)
      }
    ) { (k: Int, index: Int, frame: FusionFrame) throws -> Bool in
      waiting += Self.seconds(since: &clock)
      if StopChecks.now(stop) { throw CleaningCancelled(step: "fuse") }
      do {
        try volume.integrate(frame)
      } catch {
        let expected = volume.blockCount * indices.count / max(k, 1)
        throw FusionError.tooManyBlocks(
          limit: limit, voxelSize: voxel,
          fitting: FusionError.fittingVoxel(voxel, blocks: expected, limit: limit))
      }
      fused.append(index)
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
