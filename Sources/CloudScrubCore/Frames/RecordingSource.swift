/// A recording that can hand out its frames by index, in timeline order.
///
/// Implementations must allow `frame(at:)` to be called from several threads at once.
public protocol RecordingSource: Sendable {
  /// What the recording is and which app made it.
  var description: RecordingDescription { get }
  var frameCount: Int { get }
  /// Reads and converts frame `index` (0-based).
  ///
  /// - Throws: an error naming the frame and the file when it cannot be read.
  func frame(at index: Int) throws -> CapturedFrame
  /// Frame `index`'s time, intrinsics and pose; a default reads the whole frame.
  func frameInfo(at index: Int) throws -> FrameInfo
}

/// What `info` says about a recording before any frame is decoded.
public struct RecordingDescription: Equatable, Sendable {
  /// The format, as `info` names it ("CloudScrub recording", "Record3D EXR+JPG export").
  public var format: String
  /// The app that recorded it, when known.
  public var app: String?
  /// The recording's nominal frame rate, when it says.
  public var framesPerSecond: Double?
  public var depthWidth: Int
  public var depthHeight: Int
  public var colorWidth: Int?
  public var colorHeight: Int?
  /// Choices the importer made that a user should know of, one line each.
  public var notes: [String]
  /// Which world axis points up in the recording's world (ARKit's gravity-aligned
  /// worlds: +y; ARKitScenes: +z). The viewer orbits, lays the grid, colours by height
  /// and places the first view about it, and `--height-band` measures along it.
  public var worldUp: WorldUp

  public init(
    format: String, app: String? = nil, framesPerSecond: Double? = nil, depthWidth: Int,
    depthHeight: Int, colorWidth: Int? = nil, colorHeight: Int? = nil, notes: [String] = [],
    worldUp: WorldUp = .y
  ) {
    self.format = format
    self.app = app
    self.framesPerSecond = framesPerSecond
    self.depthWidth = depthWidth
    self.depthHeight = depthHeight
    self.colorWidth = colorWidth
    self.colorHeight = colorHeight
    self.notes = notes
    self.worldUp = worldUp
  }
}

/// A frame's time, intrinsics and pose: what `info` and a trajectory need, without the
/// images.
public struct FrameInfo: Equatable, Sendable {
  public var timestampSeconds: Double
  public var intrinsics: CameraIntrinsics
  public var pose: CameraPose

  public init(timestampSeconds: Double, intrinsics: CameraIntrinsics, pose: CameraPose) {
    self.timestampSeconds = timestampSeconds
    self.intrinsics = intrinsics
    self.pose = pose
  }
}

extension RecordingSource {
  /// Frame `index`'s time, intrinsics and pose. Formats that keep these apart from the
  /// images answer without decoding any; this default reads the whole frame.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    let frame = try frame(at: index)
    return FrameInfo(
      timestampSeconds: frame.timestampSeconds, intrinsics: frame.intrinsics, pose: frame.pose)
  }
}
