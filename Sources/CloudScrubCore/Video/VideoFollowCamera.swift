import Foundation

/// The follow camera of a timeline video: an orbit camera behind and above the capture
/// camera, looking at what the capture camera looks at, that follows it smoothly.
///
/// Each frame the wanted camera is worked out from the capture camera's pose: the pivot
/// a look distance in front of it, the capture camera's heading, raised by
/// `raiseRadians`, from `distanceFactor` times the look distance. The camera shown moves
/// towards the wanted one by a share that makes it lag by `lagSeconds` of video (an
/// exponential smoothing of pivot, heading, elevation and distance), so the shake of a
/// hand-held capture does not reach the picture.
struct VideoFollowCamera: Sendable {
  static let lagSeconds: Double = 0.6
  static let raiseRadians: Float = 20 * .pi / 180
  static let distanceFactor: Float = 1.8

  let scene: ViewerScene
  let framesPerSecond: Int
  private var current: OrbitCamera?

  init(scene: ViewerScene, framesPerSecond: Int) {
    self.scene = scene
    self.framesPerSecond = max(1, framesPerSecond)
  }

  /// How far in front of the capture camera the pivot lies: a third of the scene's
  /// size, within 0.5–3 m (a room's wall, a desk's top).
  static func lookDistance(sceneRadius: Float) -> Float {
    min(3, max(0.5, sceneRadius / 3))
  }

  /// The camera for the video frame showing timeline position `frame`; nil when the
  /// scene has no pose for it.
  mutating func camera(atFrame frame: Int, startingAt start: OrbitCamera) -> OrbitCamera? {
    guard scene.worldFromCamera.indices.contains(frame) else { return nil }
    let look = Self.lookDistance(sceneRadius: start.sceneRadiusMeters)
    let capture = OrbitCamera(
      lookingLike: scene.worldFromCamera[frame], axes: .openCV, pivotDistanceMeters: look,
      up: scene.up, verticalFieldOfViewRadians: start.verticalFieldOfViewRadians)
    var wanted = capture
    wanted.elevationRadians = capture.elevationRadians + Self.raiseRadians
    wanted.distanceMeters = look * Self.distanceFactor
    wanted.sceneRadiusMeters = start.sceneRadiusMeters
    guard var shown = current else {
      current = wanted
      return wanted
    }
    let share = Float(1 - exp(-1 / (Self.lagSeconds * Double(framesPerSecond))))
    shown.pivot += (wanted.pivot - shown.pivot) * share
    // The short way round.
    let turn = remainder(wanted.azimuthRadians - shown.azimuthRadians, 2 * .pi)
    shown.azimuthRadians = remainder(shown.azimuthRadians + turn * share, 2 * .pi)
    shown.elevationRadians += (wanted.elevationRadians - shown.elevationRadians) * share
    shown.distanceMeters += (wanted.distanceMeters - shown.distanceMeters) * share
    current = shown
    return shown
  }
}
