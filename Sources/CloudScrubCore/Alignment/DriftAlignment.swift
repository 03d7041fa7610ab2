import Foundation

/// The alignment pass over a whole recording: every frame's alignment error and, when
/// asked, refined poses (see `FrameAligner` for what both mean).
///
/// A refining pass reads and subsamples frames in parallel batches (one a core), each
/// batch while the one before it is aligned in timeline order on the calling thread
/// (`AlignmentBatchReader`). The errors under poses that no longer change are measured
/// in segments of the timeline, one a core (`SegmentedErrorPass`), from the subsamples
/// the refining pass kept (`keptSampleBytes`) or read again. Frames recorded before
/// tracking started (`TrackingStart`) keep their poses and get no error; the first
/// tracked frame is the one that never moves.
public enum DriftAlignment {
  /// How much of the frames' subsamples refinement keeps in memory for its measuring
  /// passes, earliest first (the rest is read again): at the default 1,900 points
  /// (about 55 KB a frame with their normals), some 3,500 frames.
  static let keptSampleBytes = 192 << 20

  /// What the pass found, one entry a frame of the recording.
  public struct Result: Sendable {
    public var errors: FrameAlignmentErrors
    /// The poses in use: refined when the pass refined, the recording's otherwise; each
    /// in the axes the recording gives.
    public var poses: [CameraPose]
    /// The recording's own poses.
    public var originalPoses: [CameraPose]
    public var timestampsSeconds: [Double]
    /// The errors under the recording's own poses, when the pass refined and was asked
    /// to measure them too (`measuresRecordedPoses`); nil otherwise.
    public var recordedErrors: FrameAlignmentErrors?
    /// The loops refinement closed (`AlignmentOptions.closesLoops`), empty otherwise.
    public var loops: [LoopEdge] = []
    /// The frames whose recorded pose jumped (refinement only; see `PoseRefiner`):
    /// each was registered without the motion prior, so the jump is taken back there.
    public var poseJumps: [Int] = []
  }

  /// Runs the pass over `source`.
  ///
  /// - Parameters:
  ///   - refine: refine the poses first (else only measure the error under the
  ///     recording's poses).
  ///   - progress: called on the calling thread with the fraction of frames done.
  ///   - isCancelled: polled before and after each batch is read; true stops the pass.
  ///   - measuresRecordedPoses: when refining, also measure the errors under the
  ///     recording's poses (`Result.recordedErrors`) from the same reads of the frames.
  /// - Throws: `FrameLoadError` for a frame that cannot be read or prepared,
  ///   `CancellationError` when `isCancelled` said so.
  public static func run(
    _ source: any RecordingSource, options: AlignmentOptions = AlignmentOptions(),
    refine: Bool, progress: ((Double) -> Void)? = nil,
    isCancelled: (@Sendable () -> Bool)? = nil, measuresRecordedPoses: Bool = false
  ) throws -> Result {
    let count = source.frameCount
    var infos: [FrameInfo] = []
    infos.reserveCapacity(count)
    for index in 0..<count {
      do {
        infos.append(try source.frameInfo(at: index))
      } catch {
        throw FrameLoadError(frameIndex: index, underlying: error)
      }
    }
    let untracked = TrackingStart.untrackedFrameCount(translations: infos.map(\.pose.position))
    let times = infos.map(\.timestampSeconds)
    let recorded = infos.map(\.pose.worldFromOpenCVCamera)
    let up = source.description.worldUp
    var pass = AlignmentPass(
      source: source, options: options, recorded: recorded, untracked: untracked, up: up,
      isCancelled: isCancelled)
    var loops: [LoopEdge] = []
    let jumps = refine ? PoseJumps.detect(recorded, times: times, from: untracked) : []
    pass.jumps = Set(jumps)
    var recordedErrors: FrameAlignmentErrors?
    var measured: (poses: [Transform3D], residuals: [Float?])
    func errors(kept: [Int: AlignmentFrame]) -> SegmentedErrorPass {
      SegmentedErrorPass(
        source: source, options: options, timestamps: times, untracked: untracked, kept: kept,
        isCancelled: isCancelled)
    }
    if refine && options.closesLoops {
      // Refined locally, loops closed over the keyframes, then measured (or polished
      // and measured) from the frames the first pass kept.
      let keyframes = LoopClosure.keyframes(timestamps: times, from: untracked)
      pass.retained = LoopClosure.retained(keyframes, count: count)
      pass.keepsBytes = keptSampleBytes
      let local = try pass.run(
        from: recorded, refines: true, measures: false, measuresRecorded: false
      ) { progress?(0.4 * $0) }
      let closed = LoopClosure.close(
        frames: local.retained, keyframes: keyframes, poses: local.poses, timestamps: times,
        options: options, voxelSizeMeters: local.voxelSizeMeters ?? 0.02,
        up: SIMD3<Double>(up.vector))
      loops = closed.loops
      progress?(0.45)
      let measuring = measuresRecordedPoses ? 0.3 : 0.55
      if options.polishesAfterLoops {
        pass.retained = []
        pass.keepsBytes = 0
        let polished = try pass.run(from: closed.poses, refines: true, measuresRecorded: false) {
          progress?(0.45 + measuring * $0)
        }
        measured = (polished.poses, polished.residuals)
      } else {
        let residuals = try errors(kept: local.retained).run(
          under: closed.poses
        ) { progress?(0.45 + measuring * $0) }
        measured = (closed.poses, residuals)
      }
      if measuresRecordedPoses {
        recordedErrors = FrameAlignmentErrors(
          residualsMeters: try errors(kept: local.retained).run(under: recorded) {
            progress?(0.75 + 0.25 * $0)
          })
      }
    } else if !refine {
      measured = (recorded, try errors(kept: [:]).run(under: recorded) { progress?($0) })
    } else {
      let only = try pass.run(
        from: recorded, refines: true, measuresRecorded: measuresRecordedPoses
      ) { progress?($0) }
      recordedErrors = only.recordedResiduals.map(FrameAlignmentErrors.init)
      measured = (only.poses, only.residuals)
    }
    progress?(1)
    var poses = infos.map(\.pose)
    if refine {
      // A pose left where it was (the first frame, untracked ones) stays bit for bit.
      for index in 0..<count where measured.poses[index] != recorded[index] {
        let correction = measured.poses[index] * recorded[index].rigidInverse
        poses[index].worldFromCamera = correction * infos[index].pose.worldFromCamera
      }
    }
    return Result(
      errors: FrameAlignmentErrors(residualsMeters: measured.residuals), poses: poses,
      originalPoses: infos.map(\.pose), timestampsSeconds: times,
      recordedErrors: refine && measuresRecordedPoses ? recordedErrors : nil, loops: loops,
      poseJumps: jumps)
  }

  /// Reads and subsamples frames `range` on every core.
  ///
  /// - Throws: `FrameLoadError` for the first frame that failed.
  public static func prepare(
    _ source: any RecordingSource, _ range: Range<Int>, options: AlignmentOptions
  ) throws -> [AlignmentFrame] {
    try prepare(source, Array(range), options: options)
  }

  /// Reads and subsamples the frames `indices` on every core, in their order.
  ///
  /// - Throws: `FrameLoadError` for the first frame that failed.
  public static func prepare(
    _ source: any RecordingSource, _ indices: [Int], options: AlignmentOptions
  ) throws -> [AlignmentFrame] {
    let slots = ParallelSlots<Swift.Result<AlignmentFrame, FrameLoadError>?>(
      count: indices.count, initial: nil)
    Parallel.perform(iterations: indices.count) { offset in
      let index = indices[offset]
      do {
        let frame = try AlignmentFrame(source.frame(at: index), index: index, options: options)
        slots.modify(offset) { $0 = .success(frame) }
      } catch {
        slots.modify(offset) { $0 = .failure(FrameLoadError(frameIndex: index, underlying: error)) }
      }
    }
    return try (0..<indices.count).map { offset in
      switch slots[offset] {
      case .success(let frame): return frame
      case .failure(let error): throw error
      case nil:
        throw FrameLoadError(frameIndex: indices[offset], underlying: CancellationError())
      }
    }
  }
}
