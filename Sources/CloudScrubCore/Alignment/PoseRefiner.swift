/// Refinement's half of `FrameAligner`: registers each frame, in timeline order, to a
/// model of the refined frames before it, starting from its recorded pose composed
/// with the previous frame's correction, and held to that start by the motion prior
/// (`AlignmentOptions.motionPriorMetersPerSecond`) and kept level by the gravity prior
/// (`AlignmentOptions.tiltPriorRadians`); the first frame never moves. A frame whose
/// recorded pose jumped (`AlignmentFrame.poseJumped`) has no motion prior, so its
/// correction takes the jump back at once.
struct PoseRefiner: Sendable {
  let options: AlignmentOptions
  /// The recording's up direction, for the gravity prior.
  let up: SIMD3<Double>
  private var model: SurfelVoxelMap?
  private var window = FrameWindow()
  private var correction = Transform3D.identity
  private var previousTimestampSeconds: Double?

  /// The model's voxel size, once the first frame has fixed it.
  var voxelSizeMeters: Float? { model?.voxelSizeMeters }

  init(options: AlignmentOptions, worldUp: WorldUp = .y) {
    self.options = options
    up = SIMD3<Double>(worldUp.vector)
  }

  /// The refined pose of the next frame, which then joins the model, and the world-space
  /// correction it made (`correctedWorldFromWorld`: exactly the identity for the first).
  mutating func refine(_ frame: AlignmentFrame) -> (
    pose: Transform3D, correctedWorldFromWorld: Transform3D
  ) {
    let start = correction * frame.worldFromCamera
    var pose = start
    let first = model == nil
    var current = model ?? SurfelVoxelMap(voxelSizeMeters: options.voxelSize(for: frame))
    // Taken out of `model` while it changes: a second reference to its arrays would
    // make every frame copy the whole map (copy on write).
    model = nil
    if !first {
      window.evict(
        before: frame.timestampSeconds, windowSeconds: options.refinementWindowSeconds,
        from: &current)
      pose =
        PointToPlaneRegistration(options: options).register(
          frame, to: &current, from: start,
          prior: frame.poseJumped ? nil : prior(at: frame.timestampSeconds),
          gravity: gravity(of: frame)
        ).worldFromCamera
      correction = pose * frame.worldFromCamera.rigidInverse
    }
    let transform = FloatRigid(pose)
    let points = frame.pointsInCamera.map(transform.apply)
    let normals = frame.normalsInCamera.map(transform.rotate)
    current.add(points: points, normals: normals, weight: 1)
    if options.refinementWindowSeconds != nil {
      window.append(frame.timestampSeconds, points, normals)
    }
    model = current
    previousTimestampSeconds = frame.timestampSeconds
    return (pose, correction)
  }

  /// The gravity prior of `frame` (`AlignmentOptions.tiltPriorRadians`): nil when off,
  /// exact at 0.
  private func gravity(of frame: AlignmentFrame) -> GravityPrior? {
    guard let sigma = options.tiltPriorRadians else { return nil }
    return GravityPrior(
      up: up, recordedWorldFromCamera: frame.worldFromCamera,
      information: sigma > 0 ? 1 / (sigma * sigma) : nil)
  }

  /// The motion prior of a frame at `time` (`AlignmentOptions.motionPrior…`): over the
  /// time since the previous frame, at least a 120th of a second (and a 30th where the
  /// timestamps do not advance).
  private func prior(at time: Double) -> MotionPrior? {
    guard let radians = options.motionPriorRadiansPerSecond,
      let meters = options.motionPriorMetersPerSecond
    else { return nil }
    let elapsed = previousTimestampSeconds.map { time - $0 } ?? 0
    let seconds = elapsed > 0 && elapsed.isFinite ? max(elapsed, 1.0 / 120) : 1.0 / 30
    return MotionPrior(radiansPerSecond: radians, metersPerSecond: meters, seconds: seconds)
  }
}
