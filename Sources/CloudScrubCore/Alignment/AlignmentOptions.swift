/// The settings of the alignment pass: how each frame is subsampled, the model it is
/// compared with, and how refinement registers it.
public struct AlignmentOptions: Equatable, Sendable {
  /// About how many depth pixels of each frame are used (a regular grid stride picks
  /// them: 256 × 192 depth gives a stride of 5, about 1,900 pixels).
  public var pointsPerFrame: Int
  /// Depths outside this range are not used (far LiDAR depths are the noisiest).
  public var depthRangeMeters: ClosedRange<Float>
  /// Pixels below this confidence are not used (frames without confidence pass).
  public var minConfidence: ConfidenceLevel
  /// The model's voxel edge: each voxel keeps the points that fell in it as a small
  /// plane. nil (the default): the spacing of the first measured frame's subsample at
  /// its median depth (`AlignmentFrame.pointSpacingMeters`), within 1–6 cm, so that a
  /// desk seen from 60 cm and a room seen from 3 m are both modelled at their scale.
  public var voxelSizeMeters: Float?
  /// The error's model holds the frames of this many seconds before a frame.
  public var errorWindowSeconds: Double
  /// Refinement's model holds the frames of this many seconds before a frame; nil: every
  /// frame before it (so later frames are held to the first ones).
  public var refinementWindowSeconds: Double?
  /// The Tukey biweight kernel's width: a point-to-plane distance r weighs
  /// (1 − (r / c)²)², and nothing past c (so a point on another surface, or on an
  /// object that moved, does not pull).
  public var tukeyMeters: Float
  /// Gauss–Newton iterations at most per frame (refinement).
  public var maxIterations: Int
  /// A frame needs this many points on model planes to be measured or refined.
  public var minMatches: Int
  /// The depth noise at 1 m (σ, growing with depth): turns the points' weights into
  /// information, against which `motionPrior…` weigh.
  public var depthNoiseMeters: Float
  /// Refinement's prior on each frame's correction: the app's motion from the previous
  /// frame is trusted to this many radians (σ) per second between them (so at 60 fps,
  /// a 60th of it from one frame to the next); nil: no prior (each frame's correction
  /// is what its points say alone). It weighs against the points' information
  /// (`depthNoiseMeters`), so directions the scene constrains well follow the points
  /// and weakly constrained ones (a desk seen from above sliding along itself) keep
  /// the previous frame's correction. The defaults (0.03 rad/s, 2 cm/s) halve how far
  /// the real desk capture's cameras move (2.6 cm to 1.2 cm on average) and recover a
  /// synthetic drift of 10 cm and 3° as well as without the prior.
  public var motionPriorRadiansPerSecond: Double?
  /// As `motionPriorRadiansPerSecond`, for the shift of the frame's points, metres.
  public var motionPriorMetersPerSecond: Double?
  /// Refinement's gravity prior: how far (σ, radians) a frame's correction may tilt its
  /// up direction off the recorded one, the recording's world being gravity-aligned
  /// (ARKit measures gravity with the accelerometer, so its drift is yaw and
  /// translation, the four directions visual-inertial odometry cannot observe).
  /// nil (the default): no prior, the points alone say (a drift with any rotation is
  /// recovered; the Stray room's corrections tilt it 5° off gravity); 0: the tilt is
  /// held exactly, each step turning about the vertical only (yaw and translation, four
  /// degrees of freedom: `refine --hold-tilt`), which keeps the tilt of a drift that
  /// really tilts. A σ above 0
  /// weighs against the points' information; below about 0.01° it also hides real
  /// directions from the step's degeneracy test.
  public var tiltPriorRadians: Double?
  /// Refinement closes loops (`LoopClosure`): after the pass that registers each frame
  /// to the frames before it, keyframes far apart in time that see the same surfaces
  /// are registered to each other and a pose graph spreads what they disagree by over
  /// the capture. false: the one local pass (`refine --local`).
  public var closesLoops: Bool = true
  /// After loops are closed, a second local pass starts from the closed poses and
  /// polishes each frame against the frames before it; false: the closed poses stand
  /// and the second pass only measures them.
  public var polishesAfterLoops: Bool = false
  /// Gauss–Newton stops when a step turns by less than this…
  public var convergenceRadians: Double
  /// …and moves the points' centroid by less than this.
  public var convergenceMeters: Double

  public init(
    pointsPerFrame: Int = 2000, depthRangeMeters: ClosedRange<Float> = 0.1...4,
    minConfidence: ConfidenceLevel = .medium, voxelSizeMeters: Float? = nil,
    errorWindowSeconds: Double = 2, refinementWindowSeconds: Double? = nil,
    tukeyMeters: Float = 0.025, maxIterations: Int = 10,
    minMatches: Int = 50, depthNoiseMeters: Float = 0.005,
    motionPriorRadiansPerSecond: Double? = 0.03, motionPriorMetersPerSecond: Double? = 0.02,
    tiltPriorRadians: Double? = nil, convergenceRadians: Double = 1e-5,
    convergenceMeters: Double = 1e-5
  ) {
    self.pointsPerFrame = pointsPerFrame
    self.depthRangeMeters = depthRangeMeters
    self.minConfidence = minConfidence
    self.voxelSizeMeters = voxelSizeMeters
    self.errorWindowSeconds = errorWindowSeconds
    self.refinementWindowSeconds = refinementWindowSeconds
    self.tukeyMeters = tukeyMeters
    self.maxIterations = maxIterations
    self.minMatches = minMatches
    self.depthNoiseMeters = depthNoiseMeters
    self.motionPriorRadiansPerSecond = motionPriorRadiansPerSecond
    self.motionPriorMetersPerSecond = motionPriorMetersPerSecond
    self.tiltPriorRadians = tiltPriorRadians
    self.convergenceRadians = convergenceRadians
    self.convergenceMeters = convergenceMeters
  }

  /// The voxel size for a recording whose first frame is `frame`.
  public func voxelSize(for frame: AlignmentFrame) -> Float {
    voxelSizeMeters ?? min(max(frame.pointSpacingMeters, 0.01), 0.06)
  }

  /// The pixel stride that gives about `pointsPerFrame` pixels of a `width` × `height`
  /// depth map.
  public func stride(width: Int, height: Int) -> Int {
    let perPoint = Double(width * height) / Double(max(pointsPerFrame, 1))
    return max(1, Int(perPoint.squareRoot().rounded()))
  }
}
