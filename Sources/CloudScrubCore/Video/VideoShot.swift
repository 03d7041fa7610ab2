import Foundation

/// What a video shows: how the picture moves over its frames, and from where.
public struct VideoShot: Equatable, Sendable {
  /// How the video moves.
  public enum Motion: Equatable, Sendable {
    /// The capture plays: the playhead follows the recording's timestamps at `speed`
    /// times their rate, and the timeline mode decides which frames are drawn. The video
    /// ends on the capture's last frame.
    case timeline(speed: Double)
    /// One orbit about the cloud's centre in this many seconds, every frame drawn. The
    /// last video frame is the first again, so the picture closes its circle.
    case turntable(seconds: Double)
    /// The camera moves along a trajectory's poses (interpolated between them), at
    /// `speed` times the trajectory's own timing; every frame drawn.
    case path(Trajectory, speed: Double)
  }

  /// Where a timeline video looks from.
  public enum Camera: String, CaseIterable, Equatable, Sendable {
    /// The orbit camera as set up before the video (`--camera orbit:…`, else the view
    /// that frames the whole capture), not moving.
    case orbit
    /// Through the capture camera of the playhead's frame.
    case capture
    /// An orbit camera behind and above the capture camera that follows it smoothly.
    case follow
  }

  public var motion: Motion
  public var camera: Camera
  public var framesPerSecond: Int

  public init(motion: Motion, camera: Camera = .orbit, framesPerSecond: Int = 30) {
    self.motion = motion
    self.camera = camera
    self.framesPerSecond = max(1, framesPerSecond)
  }
}

/// Directs a video: for each of its frames, the commands that bring a viewer state
/// (loaded, with its camera set up) to what that frame shows. The window's recorder
/// and `cloudscrub video` both draw the states it gives.
///
/// Frames must be asked for in order (the follow camera smooths over them).
public struct VideoDirector: Sendable {
  public let shot: VideoShot
  /// How many frames the video has.
  public let frameCount: Int
  /// The timeline: frame times on the recording's clock (or its fallback rate's).
  private let playback: Playback
  /// The first timeline position drawn (after hidden leading frames).
  private let firstFrame: Int
  /// The orbit the turntable starts from.
  private let startCamera: OrbitCamera
  private var follow: VideoFollowCamera

  /// - Parameter state: the loaded viewer state the video starts from: its timeline, its
  ///   scene, its camera.
  public init(shot: VideoShot, state: ViewerState) {
    self.shot = shot
    let playback = state.playback
    self.playback = playback
    let first = min(playback.hiddenLeadingFrames, max(0, playback.loadedFrameCount - 1))
    firstFrame = first
    startCamera = state.camera
    follow = VideoFollowCamera(scene: state.scene, framesPerSecond: shot.framesPerSecond)
    let fps = Double(shot.framesPerSecond)
    switch shot.motion {
    case .timeline(let speed):
      // The last video frame shows the capture's last frame, though it may come a
      // little after that frame's own time.
      let span =
        playback.lastFrame.map {
          playback.timeSeconds(ofFrame: $0) - playback.timeSeconds(ofFrame: first)
        } ?? 0
      let seconds = span / max(speed, 1e-6)
      frameCount = Int((seconds * fps - 1e-6).rounded(.up)) + 1
    case .turntable(let seconds):
      frameCount = max(2, Int((seconds * fps).rounded())) + 1
    case .path(let trajectory, let speed):
      let times = trajectory.timestampsSeconds
      let seconds = ((times.last ?? 0) - (times.first ?? 0)) / max(speed, 1e-6)
      frameCount = trajectory.count == 0 ? 0 : Int((seconds * fps - 1e-6).rounded(.up)) + 1
    }
  }

  /// The timeline position video frame `index` shows: the last frame whose time has
  /// come.
  public func timelinePosition(ofFrame index: Int) -> Int {
    guard case .timeline(let speed) = shot.motion, playback.loadedFrameCount > 0 else {
      return firstFrame
    }
    let time =
      playback.timeSeconds(ofFrame: firstFrame) + Double(index) / Double(shot.framesPerSecond)
      * speed
    return playback.lastFrame(atOrBefore: time, from: firstFrame)
  }

  /// The commands that make a state show video frame `index` (asked for in order).
  public mutating func commands(forFrame index: Int) -> [ViewerCommand] {
    switch shot.motion {
    case .timeline:
      let position = timelinePosition(ofFrame: index)
      var commands: [ViewerCommand] = [.playback(.pause), .playback(.seek(frame: position))]
      switch shot.camera {
      case .orbit: break
      case .capture: commands.append(.camera(.lookThroughCaptureCamera))
      case .follow:
        if let camera = follow.camera(atFrame: position, startingAt: startCamera) {
          commands.append(.camera(.place(camera)))
        }
      }
      return commands
    case .turntable:
      let turns = frameCount - 1
      let angle = 2 * Float.pi * Float(index % turns) / Float(turns)
      return [
        .playback(.jumpToEnd),
        .camera(
          .orbit(
            azimuthRadians: startCamera.azimuthRadians + angle,
            elevationRadians: startCamera.elevationRadians,
            distanceMeters: startCamera.distanceMeters)),
      ]
    case .path(let trajectory, let speed):
      let time =
        (trajectory.timestampsSeconds.first ?? 0) + Double(index)
        / Double(shot.framesPerSecond) * speed
      guard let pose = Self.pose(of: trajectory, at: time) else { return [] }
      let camera = OrbitCamera(
        lookingLike: pose.worldFromCamera, axes: pose.axes,
        pivotDistanceMeters: max(0.1, startCamera.sceneRadiusMeters / 2), up: startCamera.up,
        verticalFieldOfViewRadians: startCamera.verticalFieldOfViewRadians)
      return [.playback(.jumpToEnd), .camera(.place(camera))]
    }
  }

  /// `trajectory`'s pose at `time`: between the poses either side, the position moved
  /// in a straight line and the rotation turned about one axis in proportion; the end
  /// poses outside their span.
  public static func pose(of trajectory: Trajectory, at time: Double) -> CameraPose? {
    let times = trajectory.timestampsSeconds
    guard let first = trajectory.poses.first else { return nil }
    guard let after = times.firstIndex(where: { $0 > time }) else { return trajectory.poses.last }
    guard after > 0 else { return first }
    let a = trajectory.poses[after - 1]
    var b = trajectory.poses[after]
    if b.axes != a.axes {
      b = CameraPose(
        worldFromCamera: b.worldFromCamera * b.axes.openCVFromSelf.rigidInverse
          * a.axes.openCVFromSelf, axes: a.axes)
    }
    let span = times[after] - times[after - 1]
    let t = span > 0 ? min(1, max(0, (time - times[after - 1]) / span)) : 1
    let relative = a.worldFromCamera.rigidInverse * b.worldFromCamera
    let turn = Transform3D(axisAngle: relative.rotationVector * t)
    var moved = a.worldFromCamera * turn
    let position = a.position + (b.position - a.position) * t
    moved.columns.3 = SIMD4(position, 1)
    return CameraPose(worldFromCamera: moved, axes: a.axes)
  }
}
