/// The alignment error's half of `FrameAligner`: registers each frame, under the pose
/// in use, to a model of the frames of the last `errorWindowSeconds` before it, and
/// gives how far that registration moves its points (see `FrameAligner`).
struct ErrorMeter: Sendable {
  let options: AlignmentOptions
  private(set) var voxelSizeMeters: Float?
  private var model = SurfelVoxelMap(voxelSizeMeters: 0.04)
  private var window = FrameWindow()

  init(options: AlignmentOptions) {
    self.options = options
  }

  /// A meter whose model's voxel size is already fixed (by the first frame of the
  /// whole pass, for a meter that starts part-way: `SegmentedErrorPass`).
  init(options: AlignmentOptions, voxelSizeMeters: Float) {
    self.options = options
    self.voxelSizeMeters = voxelSizeMeters
    model = SurfelVoxelMap(voxelSizeMeters: voxelSizeMeters)
  }

  /// The error of the next frame under `pose` (nil when too few of its points find a
  /// plane), which then joins the model under that pose.
  mutating func measure(_ frame: AlignmentFrame, under pose: Transform3D) -> Float? {
    if voxelSizeMeters == nil {
      let size = options.voxelSize(for: frame)
      voxelSizeMeters = size
      model = SurfelVoxelMap(voxelSizeMeters: size)
    }
    let (points, normals) = Self.inWorld(frame, under: pose)
    window.evict(
      before: frame.timestampSeconds, windowSeconds: options.errorWindowSeconds, from: &model)
    let registered = PointToPlaneRegistration(options: options).register(
      frame, to: &model, from: pose)
    let residual =
      registered.matches >= options.minMatches
      ? FrameAligner.rmsDisplacement(points, by: registered.worldFromCamera * pose.rigidInverse)
      : nil
    model.add(points: points, normals: normals, weight: 1)
    window.append(frame.timestampSeconds, points, normals)
    return residual
  }

  /// Adds the next frame under `pose` to the model without measuring it: the frames
  /// before a meter's first measured one.
  mutating func warm(_ frame: AlignmentFrame, under pose: Transform3D) {
    let (points, normals) = Self.inWorld(frame, under: pose)
    window.evict(
      before: frame.timestampSeconds, windowSeconds: options.errorWindowSeconds, from: &model)
    model.add(points: points, normals: normals, weight: 1)
    window.append(frame.timestampSeconds, points, normals)
  }

  private static func inWorld(_ frame: AlignmentFrame, under pose: Transform3D) -> (
    [SIMD3<Float>], [SIMD3<Float>]
  ) {
    let transform = FloatRigid(pose)
    return (frame.pointsInCamera.map(transform.apply), frame.normalsInCamera.map(transform.rotate))
  }
}
