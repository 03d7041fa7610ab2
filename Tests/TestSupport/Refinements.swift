import CloudScrubCore

/// Pose refinements built by hand for tests of what the viewer shows.
public enum Refinements {
  /// A refinement that moves each loaded frame by its entry in `corrections`
  /// (`refinedFromOriginal`), with no trajectory to save and no errors measured.
  public static func moving(by corrections: [Transform3D]) -> PoseRefinement {
    PoseRefinement(
      trajectory: Trajectory(timestampsSeconds: [], poses: []),
      corrections: FramePoseCorrections(refinedFromOriginal: corrections),
      errors: FrameAlignmentErrors(frameCount: corrections.count), largestCameraShiftMeters: 0)
  }

  /// The command that applies `moving(by: corrections)`, which then shows.
  public static func apply(_ corrections: [Transform3D]) -> ViewerCommand {
    .edit(.applyRefinement(moving(by: corrections)))
  }
}
