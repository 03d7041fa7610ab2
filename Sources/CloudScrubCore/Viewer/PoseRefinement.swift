import Foundation

/// A pose refinement of the open recording, as the viewer applies it: the refined
/// trajectory (every frame of the recording, for "Save poses…"), each loaded frame's
/// correction (drawn as a model transform, applied on export) and the loaded frames'
/// alignment errors under the refined poses (the timeline's curve while they show).
///
/// An edit like a cleaning setting: applying one is a step in `ViewerEdits`' history.
public struct PoseRefinement: Equatable, Sendable {
  /// The refined poses of every recording frame, as "Save poses" writes them.
  public var trajectory: Trajectory
  /// Each loaded frame's correction from its recorded pose to its refined one.
  public var corrections: FramePoseCorrections
  /// The corrections in single precision, one a loaded frame, for the renderers.
  public var matrices: [Matrix4]
  /// The loaded frames' alignment errors under the refined poses.
  public var errors: FrameAlignmentErrors
  /// How far the refinement moved the camera centre that moved most.
  public var largestCameraShiftMeters: Double
  /// How far each loaded frame's camera centre moved, one a loaded frame.
  public var cameraShiftsMeters: [Float] = []
  /// The loops the refinement closed that kept their weight, as timeline positions of
  /// loaded frames (loops with an end that is not loaded are left out).
  public var loops: [FramePair] = []
  /// `loops` gathered for the timeline (`LoopBundle`), each stretch within a 25th of
  /// the loaded frames; made once with the refinement, not each time it is drawn.
  public var loopBundles: [LoopBundle] = []

  /// The refinement of the loaded frames `frames` (recording frame indices) from a
  /// refining pass over the whole recording.
  public init(_ result: DriftAlignment.Result, frames: [Int]) {
    let trajectory = Self.asSaved(
      Trajectory(timestampsSeconds: result.timestampsSeconds, poses: result.poses))
    self.init(
      trajectory: trajectory,
      corrections: FramePoseCorrections(
        original: result.originalPoses, refined: trajectory.poses, frames: frames),
      errors: FrameAlignmentErrors(
        residualsMeters: frames.map { result.errors.residualMeters(at: $0) }),
      largestCameraShiftMeters: zip(trajectory.poses, result.originalPoses).map {
        refined, original in
        let shift = refined.position - original.position
        return (shift * shift).sum().squareRoot()
      }.max() ?? 0)
    cameraShiftsMeters = frames.map { frame in
      let shift = trajectory.poses[frame].position - result.originalPoses[frame].position
      return Float((shift * shift).sum().squareRoot())
    }
    let positions = Dictionary(
      frames.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    loops = result.loops.filter(\.isKept).compactMap { loop in
      guard let a = positions[loop.first], let b = positions[loop.second] else { return nil }
      return FramePair(a, b)
    }
    loopBundles = LoopBundle.bundles(loops, span: max(1, frames.count / 25))
  }

  /// A refinement from its parts; `matrices` are worked out from `corrections`.
  public init(
    trajectory: Trajectory, corrections: FramePoseCorrections, errors: FrameAlignmentErrors,
    largestCameraShiftMeters: Double
  ) {
    self.trajectory = trajectory
    self.corrections = corrections
    matrices = corrections.matrices
    self.errors = errors
    self.largestCameraShiftMeters = largestCameraShiftMeters
  }

  /// `trajectory` as "Save poses" writes it and `--poses` reads it back (nine decimals):
  /// the window draws and exports exactly the poses a saved file holds, so its export
  /// equals `cloudscrub export --poses` with that file byte for byte. The rounding
  /// moves a camera by under a nanometre. One round trip is not always enough: a
  /// quaternion component whose tenth decimal sits at a rounding boundary can round the
  /// other way once it is worked out again from the parsed rotation, so the text is
  /// read and written until it no longer changes (the second pass, in practice).
  public static func asSaved(_ trajectory: Trajectory) -> Trajectory {
    var current = trajectory
    var text = TUMTrajectory.text(trajectory)
    for _ in 0..<4 {
      do {
        current = try TUMTrajectory.parse(text)
      } catch {
        // Our own text always parses; were it not to, the poses stay as they are.
        return current
      }
      let again = TUMTrajectory.text(current)
      if again == text { break }
      text = again
    }
    return current
  }
}
