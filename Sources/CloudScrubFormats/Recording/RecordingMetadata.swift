import CloudScrubCore

/// What a CloudScrub recording says about itself, written once at its start.
public struct RecordingMetadata: Equatable, Sendable {
  /// The app that recorded it, with its version if the app likes ("LiDAR Capture 1.2").
  public var appName: String?
  /// The device model ("iPhone15,3").
  public var deviceModel: String?
  /// The nominal frame rate; nil when not known.
  public var framesPerSecond: Double?
  /// Which sensor made the depth maps.
  public var depthSensor: DepthSensor
  /// Further text an app wants kept (a user's note, a session id), by key. Keys are
  /// non-empty and may not be `app` or `device`; they are written sorted.
  public var extraFields: [String: String]

  public init(
    appName: String? = nil, deviceModel: String? = nil, framesPerSecond: Double? = nil,
    depthSensor: DepthSensor = .unknown, extraFields: [String: String] = [:]
  ) {
    self.appName = appName
    self.deviceModel = deviceModel
    self.framesPerSecond = framesPerSecond
    self.depthSensor = depthSensor
    self.extraFields = extraFields
  }
}

/// The sensor a recording's depth maps come from.
public enum DepthSensor: UInt8, Sendable, CaseIterable {
  case unknown = 0
  /// The rear LiDAR scanner (ARKit `sceneDepth` or `smoothedSceneDepth`).
  case lidar = 1
  /// The front TrueDepth camera (`AVDepthData`).
  case trueDepth = 2
}

/// How the device was held when a frame was captured, with UIKit's
/// `UIDeviceOrientation` raw values.
///
/// Depth and colour are stored as the sensor gives them (landscape for ARKit); a viewer
/// uses this to turn the images upright for display. It does not change the pose.
public enum DeviceOrientation: UInt8, Sendable, CaseIterable {
  case unknown = 0
  case portrait = 1
  case portraitUpsideDown = 2
  /// Held sideways with the home button (or bottom edge) on the right.
  case landscapeLeft = 3
  /// Held sideways with the home button (or bottom edge) on the left.
  case landscapeRight = 4
  case faceUp = 5
  case faceDown = 6
}
