/// What the loaded data says about the scene: its extent and where the capture
/// camera was for each loaded frame. Grows as frames load.
public struct ViewerScene: Equatable, Sendable {
  /// The loaded points' bounding box; nil until there are points.
  public var bounds: Bounds3?
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
    self.bounds = bounds
    self.worldFromShownCamera = worldFromCamera
    self.worldFromRecordedCamera = worldFromCamera
    self.intrinsics = intrinsics
    self.up = up
  }

  /// Frames with both a pose and intrinsics.
  public var frameCount: Int { min(worldFromCamera.count, intrinsics.count) }

  /// Appends one frame's camera, converting the pose to OpenCV axes.
  public mutating func appendFrame(pose: CameraPose, intrinsics frameIntrinsics: CameraIntrinsics) {
    let recorded = pose.worldFromOpenCVCamera
    worldFromShownCamera.append(shown(recorded, frame: worldFromRecordedCamera.count))
    worldFromRecordedCamera.append(recorded)
    intrinsics.append(frameIntrinsics)
  }

  /// Shows the recorded poses moved by `corrections` (one a loaded frame, world-space,
  /// `refinedFromRecorded`; a frame past them keeps its recorded pose), or the recorded
  /// poses again (nil).
  public mutating func showPoseCorrections(_ corrections: [Transform3D]?) {
    poseCorrections = corrections
    worldFromShownCamera = worldFromRecordedCamera.indices.map { frame in
      shown(worldFromRecordedCamera[frame], frame: frame)
    }
  }

  /// A frame's shown pose from its recorded one.
  private func shown(_ recorded: Transform3D, frame: Int) -> Transform3D {
    guard let poseCorrections, poseCorrections.indices.contains(frame) else { return recorded }
    return poseCorrections[frame] * recorded
  }

  /// Grows the bounds to include `other`.
  public mutating func include(bounds other: Bounds3) {
    guard let current = bounds else {
      bounds = other
      return
    }
    bounds = Bounds3(
      min: Point3(
        Swift.min(current.min.x, other.min.x), Swift.min(current.min.y, other.min.y),
        Swift.min(current.min.z, other.min.z)),
      max: Point3(
        Swift.max(current.max.x, other.max.x), Swift.max(current.max.y, other.max.y),
        Swift.max(current.max.z, other.max.z)))
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
    if let b = more.bounds { include(bounds: b) }
  }
}
