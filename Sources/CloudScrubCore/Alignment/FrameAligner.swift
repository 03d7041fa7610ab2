import Foundation

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
  /// Whether the error is measured (a refining pass whose poses will change again
  /// need not).
  public let measures: Bool
  public let worldUp: WorldUp
  /// How many frames have been added.
  public private(set) var frameCount = 0
  /// The models' voxel size, fixed by the first frame (`AlignmentOptions.voxelSize`).
  public var voxelSizeMeters: Float? { meter.voxelSizeMeters ?? refiner.voxelSizeMeters }
  private var refiner: PoseRefiner
  private var meter: ErrorMeter

  /// - Parameter worldUp: the recording's up axis, which refinement's gravity prior
  ///   keeps (`AlignmentOptions.tiltPriorRadians`).
  public init(
    options: AlignmentOptions = AlignmentOptions(), refines: Bool, measures: Bool = true,
    worldUp: WorldUp = .y
  ) {
    self.options = options
    self.refines = refines
    self.measures = measures || !refines
    self.worldUp = worldUp
    refiner = PoseRefiner(options: options, worldUp: worldUp)
    meter = ErrorMeter(options: options)
  }

  /// Measures (and with `refines`, first refines) the next frame, then adds it to the
  /// models.
  public mutating func add(_ frame: AlignmentFrame) -> FrameAlignment {
    var pose = frame.worldFromCamera
    var correction = Transform3D.identity
    if refines { (pose, correction) = refiner.refine(frame) }
    let residual = measures ? meter.measure(frame, under: pose) : nil
    frameCount += 1
    return FrameAlignment(
      worldFromCamera: pose, correctedWorldFromWorld: correction, residualMeters: residual)
  }

  /// `add` for each of `frames` in order, with the alignment error of the frames
  /// before them (`pending`, whose poses are final) measured on a second core while
  /// these are refined; returns `pending`'s alignments, and leaves these pending.
  /// Without `refines` it measures `frames` at once, without `measures` it refines
  /// them at once, and leaves nothing pending.
  public mutating func add(_ frames: [AlignmentFrame], pending: inout [PendingFrame])
    -> [FrameAlignment]
  {
    guard refines && measures else {
      let done = frames.map { add($0) }
      return done
    }
    let work = Self.Work(refiner: refiner, meter: meter)
    // The halves live only in `work` while the threads change them: a second reference
    // to their models would make each batch copy them whole (copy on write).
    refiner = PoseRefiner(options: options, worldUp: worldUp)
    meter = ErrorMeter(options: options)
    let measured = pending
    Parallel.perform(iterations: 2) { part in
      if part == 0 {
        work.poses = frames.map { work.refiner.refine($0) }
      } else {
        work.residuals = measured.map { work.meter.measure($0.frame, under: $0.pose) }
      }
    }
    refiner = work.refiner
    meter = work.meter
    frameCount += measured.count
    let done = zip(measured, work.residuals).map { entry, residual in
      FrameAlignment(
        worldFromCamera: entry.pose, correctedWorldFromWorld: entry.correctedWorldFromWorld,
        residualMeters: residual)
    }
    pending = zip(frames, work.poses).map { frame, refined in
      PendingFrame(
        frame: frame, pose: refined.pose, correctedWorldFromWorld: refined.correctedWorldFromWorld)
    }
    return done
  }

  /// A frame refined in one batch whose error the next batch measures.
  public struct PendingFrame: Sendable {
    var frame: AlignmentFrame
    var pose: Transform3D
    var correctedWorldFromWorld: Transform3D
  }

  /// The two halves of a batch, each mutated by one thread only.
  private final class Work: @unchecked Sendable {
    var refiner: PoseRefiner
    var meter: ErrorMeter
    var poses: [(pose: Transform3D, correctedWorldFromWorld: Transform3D)] = []
    var residuals: [Float?] = []
    init(refiner: PoseRefiner, meter: ErrorMeter) {
      self.refiner = refiner
      self.meter = meter
    }
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
