import Foundation

/// One pass of `FrameAligner` over a recording in timeline order, from given poses:
/// the body of `DriftAlignment.run`, which makes one pass to refine or measure, or two
/// around loop closure.
///
/// Frames are read and subsampled in batches (`AlignmentBatchReader`), the next while
/// this one is aligned; each frame starts from the pose the pass is given for it (the
/// recording's, or the loop-closed ones). Frames before `untracked` keep their poses.
struct AlignmentPass {
  let source: any RecordingSource
  let options: AlignmentOptions
  /// The recording's poses, world from OpenCV camera.
  let recorded: [Transform3D]
  let untracked: Int
  let up: WorldUp
  let isCancelled: (@Sendable () -> Bool)?
  /// The frames the pass keeps (with their starting poses) for loop closure.
  var retained: Set<Int> = []
  /// Bytes of subsamples the pass may keep beyond `retained`, earliest frames first,
  /// so that a pass after it need not read them again (`SegmentedErrorPass`).
  var keepsBytes = 0
  /// The frames whose recorded pose jumped (`PoseJumps`).
  var jumps: Set<Int> = []

  struct Output {
    /// World from OpenCV camera, one a frame: refined when the pass refined.
    var poses: [Transform3D]
    var residuals: [Float?]
    /// The errors under the recording's poses, when asked.
    var recordedResiduals: [Float?]?
    /// The frames kept: `retained`'s, and as many more as `keepsBytes` holds.
    var retained: [Int: AlignmentFrame]
    var voxelSizeMeters: Float?
  }

  /// Runs the pass from `start` (world from OpenCV camera, one a frame), refining with
  /// `refines`, measuring the error with `measures` (always without `refines`) and the
  /// recording's own poses' error too with `measuresRecorded`; `progress` gets the
  /// fraction done.
  func run(
    from start: [Transform3D], refines: Bool, measures: Bool = true, measuresRecorded: Bool,
    progress: (Double) -> Void
  ) throws -> Output {
    let count = source.frameCount
    var aligner = FrameAligner(
      options: options, refines: refines, measures: measures, worldUp: up)
    var recordedAligner = measuresRecorded ? FrameAligner(options: options, refines: false) : nil
    var output = Output(
      poses: start, residuals: Array(repeating: nil, count: count),
      recordedResiduals: measuresRecorded ? Array(repeating: nil, count: count) : nil,
      retained: [:])
    var pending: [FrameAligner.PendingFrame] = []
    var keptBytes = 0
    var done = min(untracked, count)
    func take(_ alignments: [FrameAlignment]) {
      for alignment in alignments {
        output.residuals[done] = alignment.residualMeters
        output.poses[done] = alignment.worldFromCamera
        done += 1
      }
    }
    let batch = max(8, 4 * Parallel.cores)
    progress(Double(done) / Double(max(count, 1)))
    func reader(from first: Int) -> AlignmentBatchReader? {
      first < count
        ? AlignmentBatchReader(source, first..<min(count, first + batch), options: options) : nil
    }
    var next = reader(from: done)
    defer { next?.wait() }
    while let current = next {
      if isCancelled?() == true { throw CancellationError() }
      var frames = try current.frames()
      // A cancel that came while the batch was read stops before it is aligned.
      if isCancelled?() == true { throw CancellationError() }
      next = reader(from: current.range.upperBound)
      for offset in frames.indices {
        let index = current.range.lowerBound + offset
        if recordedAligner != nil {
          output.recordedResiduals?[index] = recordedAligner?.add(frames[offset]).residualMeters
        }
        frames[offset].worldFromCamera = start[index]
        frames[offset].poseJumped = jumps.contains(index)
        if retained.contains(index) || keptBytes < keepsBytes {
          let kept = frames[offset].compacted()
          output.retained[index] = kept
          keptBytes += kept.byteCount
        }
      }
      take(aligner.add(frames, pending: &pending))
      progress(Double(done) / Double(count))
    }
    take(aligner.add([], pending: &pending))
    output.voxelSizeMeters = aligner.voxelSizeMeters
    return output
  }
}
