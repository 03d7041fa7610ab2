/// What the alignment pass found for one frame.
public struct FrameAlignment: Sendable {
  /// The frame's pose after refinement (the recording's own without refinement), for
  /// OpenCV camera axes.
  public var worldFromCamera: Transform3D
  /// `worldFromCamera` times the inverse of the recording's pose: the world-space
  /// correction refinement applied (identity without refinement).
  public var correctedWorldFromWorld: Transform3D
  /// The frame's alignment error (see `FrameAligner`), nil when not measured.
  public var residualMeters: Float?
}

/// The alignment pass, fed one frame at a time in timeline order: measures each frame's
/// alignment error against the frames before it and, when asked, first refines its pose.
///
/// **Alignment error.** The model is a `SurfelVoxelMap` (voxels of about the subsample's spacing, each a
/// small plane through its points' mean) of the frames of the last `errorWindowSeconds`
/// before the frame, under the poses in use. The frame's subsampled points are
/// registered to it (`PointToPlaneRegistration`: robust point-to-plane ICP from the
/// pose in use), and the error is how far that registration moves them: the root mean
/// square, over the frame's points, of the distance between each point under its pose
/// and under the registered pose, in metres. It is nil when fewer than `minMatches`
/// points find a plane (the first frame, a view of only new ground).
///
/// Why this measure: a plain residual (the median point-to-plane distance) mostly
/// measures depth noise, and a shift along a wall leaves it unchanged; the
/// registration's displacement averages the noise of thousands of points away and
/// responds to a misalignment in every direction the scene constrains (directions it
/// leaves free, such as sliding along a single wall, give no displacement, as they
/// give no visible ghosting). The short window keeps it local: a frame whose pose
/// jumped stands out against the frames just before it, and a smooth drift raises the
/// curve where it is fastest.
///
/// **Refinement.** Each frame starts from its recording pose composed with the previous
/// frame's correction (`correctedWorldFromWorld`), is registered to a model of the
/// refined frames before it (`PointToPlaneRegistration`; by default every frame before
/// it, so later frames are held to the first), and then joins that model. The first
/// frame is never moved.
public struct FrameAligner: Sendable {
  public let options: AlignmentOptions
  public let refines: Bool
  /// How many frames have been added.
  public private(set) var frameCount = 0
  /// The models' voxel size, fixed by the first frame (`AlignmentOptions.voxelSize`).
  public private(set) var voxelSizeMeters: Float?
  private var errorModel = SurfelVoxelMap(voxelSizeMeters: 0.04)
  private var errorWindow = FrameWindow()
  private var refinementModel = SurfelVoxelMap(voxelSizeMeters: 0.04)
  private var refinementWindow = FrameWindow()
  private var correction = Transform3D.identity

  public init(options: AlignmentOptions = AlignmentOptions(), refines: Bool) {
    self.options = options
    self.refines = refines
  }

  /// Measures (and with `refines`, first refines) the next frame, then adds it to the
  /// models.
  public mutating func add(_ frame: AlignmentFrame) -> FrameAlignment {
    if voxelSizeMeters == nil {
      let size = options.voxelSize(for: frame)
      voxelSizeMeters = size
      errorModel = SurfelVoxelMap(voxelSizeMeters: size)
      refinementModel = SurfelVoxelMap(voxelSizeMeters: size)
    }
    var pose = frame.worldFromCamera
    if refines {
      let start = correction * frame.worldFromCamera
      pose = start
      if frameCount > 0 {
        refinementWindow.evict(
          before: frame.timestampSeconds, windowSeconds: options.refinementWindowSeconds,
          from: &refinementModel)
        let registration = PointToPlaneRegistration(options: options)
        pose = registration.register(frame, to: &refinementModel, from: start).worldFromCamera
        correction = pose * frame.worldFromCamera.rigidInverse
      }
    }
    let transform = FloatRigid(pose)
    let points = frame.pointsInCamera.map(transform.apply)
    let normals = frame.normalsInCamera.map(transform.rotate)
    errorWindow.evict(
      before: frame.timestampSeconds, windowSeconds: options.errorWindowSeconds,
      from: &errorModel)
    let registered = PointToPlaneRegistration(options: options).register(
      frame, to: &errorModel, from: pose)
    let residual =
      registered.matches >= options.minMatches
      ? Self.rmsDisplacement(points, by: registered.worldFromCamera * pose.rigidInverse) : nil
    errorModel.add(points: points, normals: normals, weight: 1)
    errorWindow.append(frame.timestampSeconds, points, normals)
    if refines {
      refinementModel.add(points: points, normals: normals, weight: 1)
      if options.refinementWindowSeconds != nil {
        refinementWindow.append(frame.timestampSeconds, points, normals)
      }
    }
    frameCount += 1
    return FrameAlignment(
      worldFromCamera: pose, correctedWorldFromWorld: correction, residualMeters: residual)
  }

  /// The root mean square distance that `worldFromWorld` moves `points` by.
  static func rmsDisplacement(_ points: [SIMD3<Float>], by worldFromWorld: Transform3D) -> Float {
    guard !points.isEmpty else { return 0 }
    let transform = FloatRigid(worldFromWorld)
    var sum: Float = 0
    for p in points {
      let d = transform.apply(p) - p
      sum += (d * d).sum()
    }
    return (sum / Float(points.count)).squareRoot()
  }
}

/// The frames a windowed model holds, oldest first, so that they can be taken out.
struct FrameWindow: Sendable {
  /// At most this many frames are held whatever their times say (a recording whose
  /// timestamps do not advance would otherwise keep every frame).
  static let maximumFrames = 1024
  private var frames: [(time: Double, points: [SIMD3<Float>], normals: [SIMD3<Float>])] = []
  private var head = 0

  mutating func append(_ time: Double, _ points: [SIMD3<Float>], _ normals: [SIMD3<Float>]) {
    frames.append((time, points, normals))
  }

  /// Takes out of `model` the frames older than `windowSeconds` before `time` (none for
  /// a nil window), and the oldest past `maximumFrames`.
  mutating func evict(before time: Double, windowSeconds: Double?, from model: inout SurfelVoxelMap)
  {
    guard let windowSeconds else { return }
    while head < frames.count,
      frames[head].time < time - windowSeconds || frames.count - head >= Self.maximumFrames
    {
      model.add(points: frames[head].points, normals: frames[head].normals, weight: -1)
      frames[head] = (0, [], [])
      head += 1
    }
    if head > 256 && head * 2 > frames.count {
      frames.removeFirst(head)
      head = 0
    }
  }
}
