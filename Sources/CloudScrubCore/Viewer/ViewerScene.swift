/// What the loaded data says about the scene: its extent and where the capture
/// camera was for each loaded frame. Grows as frames load.
public struct ViewerScene: Equatable, Sendable {
  /// The shown points' bounding box; nil until there are points. While refined poses
  /// show (`poseCorrections`) each frame's box (`appendFrame(…, bounds:)`) is moved by
  /// its correction: the box around its eight moved corners, so the camera fit, the
  /// grid and the height and depth ramps follow the shown cloud. Setting it replaces
  /// every box with one that belongs to no frame (no correction moves it).
  public var bounds: Bounds3? {
    get { shownBounds }
    set {
      shownBounds = newValue
      recordedBounds = newValue
      unposedBounds = newValue
      frameBounds = Array(repeating: nil, count: frameBounds.count)
    }
  }
  private var shownBounds: Bounds3?
  /// The box of everything loaded, as recorded (what `bounds` is without corrections).
  private var recordedBounds: Bounds3?
  /// The part of it that belongs to no frame's pose (`include(bounds:)`), which no
  /// correction moves.
  private var unposedBounds: Bounds3?
  /// Per loaded frame (as `worldFromRecordedCamera`), its points' box as recorded.
  private var frameBounds: [Bounds3?] = []
  /// Per loaded frame, the capture camera's camera-to-world transform for points in
  /// **OpenCV camera axes** (x right, y down, z forward), i.e.
  /// `CameraPose.worldFromOpenCVCamera`: the convention CloudScrub unprojects in. These
  /// are the poses shown: the recorded ones moved by `poseCorrections` while refined
  /// poses show, so the trajectory, the frustum and the capture camera follow them.
  /// Setting it sets the recorded poses (`worldFromRecordedCamera`); the shown ones
  /// follow with the corrections.
  public var worldFromCamera: [Transform3D] {
    get { worldFromShownCamera }
    set {
      worldFromRecordedCamera = newValue
      // One box a frame: frames set this way keep theirs by position, new ones have none.
      frameBounds = newValue.indices.map {
        frameBounds.indices.contains($0) ? frameBounds[$0] : nil
      }
      showPoseCorrections(poseCorrections)
    }
  }
  private var worldFromShownCamera: [Transform3D]
  /// Per loaded frame, the capture camera as recorded (as `worldFromCamera`, before any
  /// pose correction).
  public private(set) var worldFromRecordedCamera: [Transform3D]
  /// Each loaded frame's world-space correction from its recorded pose to the shown one
  /// (`FramePoseCorrections.refinedFromOriginal`) while refined poses show; nil: the
  /// recorded poses show.
  public private(set) var poseCorrections: [Transform3D]?
  /// Per loaded frame, the intrinsics with the image size they belong to.
  public var intrinsics: [CameraIntrinsics]
  /// The world's up axis.
  public var up: WorldUp

  /// A scene from what is known so far (nothing by default).
  public init(
    bounds: Bounds3? = nil, worldFromCamera: [Transform3D] = [],
    intrinsics: [CameraIntrinsics] = [], up: WorldUp = .y
  ) {
    self.shownBounds = bounds
    self.recordedBounds = bounds
    self.unposedBounds = bounds
    self.frameBounds = Array(repeating: nil, count: worldFromCamera.count)
    self.worldFromShownCamera = worldFromCamera
    self.worldFromRecordedCamera = worldFromCamera
    self.intrinsics = intrinsics
    self.up = up
  }

  /// Frames with both a pose and intrinsics.
  public var frameCount: Int { min(worldFromCamera.count, intrinsics.count) }

  /// Appends one frame's camera, converting the pose to OpenCV axes, and its points'
  /// box as recorded (`bounds`), which then moves with the frame's pose correction.
  public mutating func appendFrame(
    pose: CameraPose, intrinsics frameIntrinsics: CameraIntrinsics, bounds frameBox: Bounds3? = nil
  ) {
    let recorded = pose.worldFromOpenCVCamera
    let frame = worldFromRecordedCamera.count
    worldFromShownCamera.append(shown(recorded, frame: frame))
    worldFromRecordedCamera.append(recorded)
    intrinsics.append(frameIntrinsics)
    frameBounds.append(frameBox)
    recordedBounds = Self.union(recordedBounds, frameBox)
    shownBounds = Self.union(shownBounds, shownBox(frame: frame))
  }

  /// Shows the recorded poses moved by `corrections` (one a loaded frame, world-space,
  /// `refinedFromRecorded`; a frame past them keeps its recorded pose), or the recorded
  /// poses again (nil).
  public mutating func showPoseCorrections(_ corrections: [Transform3D]?) {
    poseCorrections = corrections
    worldFromShownCamera = worldFromRecordedCamera.indices.map { frame in
      shown(worldFromRecordedCamera[frame], frame: frame)
    }
    if corrections == nil {
      shownBounds = recordedBounds
    } else {
      shownBounds = frameBounds.indices.reduce(unposedBounds) {
        Self.union($0, shownBox(frame: $1))
      }
    }
  }

  /// Frame `frame`'s box moved by its shown correction (as recorded without one).
  private func shownBox(frame: Int) -> Bounds3? {
    guard frameBounds.indices.contains(frame), let box = frameBounds[frame] else { return nil }
    guard let poseCorrections, poseCorrections.indices.contains(frame) else { return box }
    let correction = poseCorrections[frame]
    var moved: Bounds3?
    for corner in 0..<8 {
      let p = SIMD3<Double>(
        Double(corner & 1 == 0 ? box.min.x : box.max.x),
        Double(corner & 2 == 0 ? box.min.y : box.max.y),
        Double(corner & 4 == 0 ? box.min.z : box.max.z))
      let q = correction.apply(to: p)
      let point = Point3(Float(q.x), Float(q.y), Float(q.z))
      moved = Self.union(moved, Bounds3(min: point, max: point))
    }
    return moved
  }

  /// The box around both (either when the other is nil).
  private static func union(_ a: Bounds3?, _ b: Bounds3?) -> Bounds3? {
    guard let a else { return b }
    guard let b else { return a }
    return Bounds3(
      min: Point3(
        Swift.min(a.min.x, b.min.x), Swift.min(a.min.y, b.min.y), Swift.min(a.min.z, b.min.z)),
      max: Point3(
        Swift.max(a.max.x, b.max.x), Swift.max(a.max.y, b.max.y), Swift.max(a.max.z, b.max.z)))
  }

  /// A frame's shown pose from its recorded one.
  private func shown(_ recorded: Transform3D, frame: Int) -> Transform3D {
    guard let poseCorrections, poseCorrections.indices.contains(frame) else { return recorded }
    return poseCorrections[frame] * recorded
  }

  /// Grows the bounds to include `other`, a box that belongs to no frame's pose (no
  /// correction moves it; a frame's own box goes in with `appendFrame`).
  public mutating func include(bounds other: Bounds3) {
    unposedBounds = Self.union(unposedBounds, other)
    recordedBounds = Self.union(recordedBounds, other)
    shownBounds = Self.union(shownBounds, other)
  }

  /// Appends another scene's frames after this one's and grows the bounds to include
  /// its bounds (its `up` is ignored: the world does not change axes while loading).
  public mutating func append(_ more: ViewerScene) {
    let first = worldFromRecordedCamera.count
    worldFromRecordedCamera += more.worldFromRecordedCamera
    worldFromShownCamera += more.worldFromRecordedCamera.enumerated().map { offset, recorded in
      shown(recorded, frame: first + offset)
    }
    intrinsics += more.intrinsics
    frameBounds += more.frameBounds
    if let b = more.unposedBounds { include(bounds: b) }
    recordedBounds = Self.union(recordedBounds, more.recordedBounds)
    for frame in first..<frameBounds.count {
      shownBounds = Self.union(shownBounds, shownBox(frame: frame))
    }
  }
}
