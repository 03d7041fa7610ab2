import Foundation

/// The alignment pass over a whole recording: every frame's alignment error and, when
/// asked, refined poses (see `FrameAligner` for what both mean).
///
/// Frames are read and subsampled in parallel batches (one a core), each batch while the
/// one before it is aligned in timeline order on the calling thread
/// (`AlignmentBatchReader`). Frames recorded before tracking started
/// (`TrackingStart`) keep their poses and get no error; the first tracked frame is the
/// one that never moves.
public enum DriftAlignment {
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
    var aligner = FrameAligner(
      options: options, refines: refine, worldUp: source.description.worldUp)
    var recorded =
      refine && measuresRecordedPoses ? FrameAligner(options: options, refines: false) : nil
    var residuals = [Float?](repeating: nil, count: count)
    var recordedResiduals = [Float?](repeating: nil, count: count)
    var poses = infos.map(\.pose)
    var pending: [FrameAligner.PendingFrame] = []
    var done = untracked < count ? untracked : count
    func take(_ alignments: [FrameAlignment]) {
      for alignment in alignments {
        residuals[done] = alignment.residualMeters
        if refine {
          poses[done].worldFromCamera =
            alignment.correctedWorldFromWorld * infos[done].pose.worldFromCamera
        }
        done += 1
      }
    }
    let batch = max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)
    progress?(Double(done) / Double(max(count, 1)))
    // The next batch is read while this one is aligned.
    func reader(from start: Int) -> AlignmentBatchReader? {
      start < count
        ? AlignmentBatchReader(source, start..<min(count, start + batch), options: options) : nil
    }
    var next = reader(from: done)
    defer { next?.wait() }
    while let current = next {
      if isCancelled?() == true { throw CancellationError() }
      let frames = try current.frames()
      // A cancel that came while the batch was read stops before it is aligned.
      if isCancelled?() == true { throw CancellationError() }
      next = reader(from: current.range.upperBound)
      if recorded != nil {
        for (offset, frame) in frames.enumerated() {
          recordedResiduals[current.range.lowerBound + offset] = recorded?.add(frame).residualMeters
        }
      }
      take(aligner.add(frames, pending: &pending))
      progress?(Double(done) / Double(count))
    }
    take(aligner.add([], pending: &pending))
    progress?(1)
    return Result(
      errors: FrameAlignmentErrors(residualsMeters: residuals), poses: poses,
      originalPoses: infos.map(\.pose), timestampsSeconds: infos.map(\.timestampSeconds),
      recordedErrors: recorded == nil
        ? nil : FrameAlignmentErrors(residualsMeters: recordedResiduals))
  }

  /// Reads and subsamples frames `range` on every core.
  ///
  /// - Throws: `FrameLoadError` for the first frame that failed.
  public static func prepare(
    _ source: any RecordingSource, _ range: Range<Int>, options: AlignmentOptions
  ) throws -> [AlignmentFrame] {
    let slots = ParallelSlots<Swift.Result<AlignmentFrame, FrameLoadError>?>(
      count: range.count, initial: nil)
    DispatchQueue.concurrentPerform(iterations: range.count) { offset in
      let index = range.lowerBound + offset
      do {
        let frame = try AlignmentFrame(source.frame(at: index), index: index, options: options)
        slots.modify(offset) { $0 = .success(frame) }
      } catch {
        slots.modify(offset) { $0 = .failure(FrameLoadError(frameIndex: index, underlying: error)) }
      }
    }
    return try (0..<range.count).map { offset in
      switch slots[offset] {
      case .success(let frame): return frame
      case .failure(let error): throw error
      case nil:
        throw FrameLoadError(frameIndex: range.lowerBound + offset, underlying: CancellationError())
      }
    }
  }
}
