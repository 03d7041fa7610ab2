import Foundation

/// The whole viewer state: playback, camera, display settings and what is known of
/// the scene.
///
/// A value changed only by `apply(_:)`, so a renderer reads it and draws, and tests
/// replay commands without a window. Time advances only through
/// `.playback(.advance(seconds:))`.
public struct ViewerState: Equatable, Sendable {
  /// The timeline and playhead.
  public private(set) var playback: Playback
  /// The orbit camera (also kept while viewing through the capture camera).
  public private(set) var camera: OrbitCamera
  /// Whether the view comes from the orbit camera or the capture camera.
  public private(set) var viewMode: ViewMode = .orbit
  /// How points and overlays are drawn.
  public private(set) var display: DisplaySettings
  /// What the loaded data says about the scene.
  public private(set) var scene: ViewerScene
  /// The framebuffer size in pixels (at least 1 each way).
  public private(set) var viewportWidth: Int
  public private(set) var viewportHeight: Int
  /// Whether the camera frames the scene's bounds on its own as they grow (while a
  /// recording loads). The user's first rotate, pan, zoom or orbit ends it, so the
  /// camera never moves under their hand; fit and reset start it again.
  public private(set) var cameraFollowsScene: Bool = true
  /// The mesh the scene has (fused, or a mesh file's) and the fusion under way.
  public private(set) var model = ViewerModel()
  /// Where the export and "Save poses" write.
  public private(set) var fileNames = FileNames()
  /// The cleaning settings and the applied refinement, with their undo history, and
  /// which poses show: the scene's `poseCorrections` are always `edits.shownRefinement`'s.
  public private(set) var edits: ViewerEdits

  /// A viewer state; the camera frames `scene` at once when it has bounds.
  public init(
    playback: Playback = Playback(), camera: OrbitCamera = OrbitCamera(),
    display: DisplaySettings = DisplaySettings(), scene: ViewerScene = ViewerScene(),
    edits: ViewerEdits = ViewerEdits(), viewportWidth: Int = 1280, viewportHeight: Int = 720
  ) {
    self.playback = playback
    self.camera = camera
    self.display = display
    self.scene = ViewerScene()
    self.edits = edits
    self.viewportWidth = max(1, viewportWidth)
    self.viewportHeight = max(1, viewportHeight)
    setScene(showingEdits(scene))
  }

  /// Viewport width over height.
  public var aspect: Float { Float(viewportWidth) / Float(viewportHeight) }

  // MARK: - Commands

  /// Applies one command; the only way the state changes.
  public mutating func apply(_ command: ViewerCommand) {
    switch command {
    case .playback(let c): playback.apply(c)
    case .camera(let c): apply(camera: c)
    case .display(let c): display.apply(c)
    case .sceneGrew(let newScene):
      // A scene the loader grew keeps the pose corrections shown.
      setScene(showingEdits(newScene))
    case .sceneAppended(let more):
      var grown = scene
      grown.append(more)
      setScene(grown)
    case .worldUpKnown(let up):
      var turned = scene
      turned.up = up
      setScene(turned)
    case .edit(let c):
      edits.apply(c)
      scene = showingEdits(scene)
    case .documentOpened(let path):
      fileNames = FileNames(documentPath: path)
      edits.startAgain()
      scene = showingEdits(scene)
    case .fileNames(let c): fileNames.apply(c)
    case .model(let c):
      model.apply(c)
      switch c {
      case .fused, .meshOpened:
        if display.surface == .points { display.surface = .mesh }
      default: break
      }
    }
  }

  /// What a model fused now would be made from: the shown frames, the minimum
  /// confidence and the poses shown; nil when no frame shows.
  public var modelInputs: ModelInputs? {
    guard let frames = playback.visibleFrames else { return nil }
    return ModelInputs(
      frames: frames, minConfidence: display.minConfidence, refinement: edits.shownRefinement)
  }

  /// Whether the scene's mesh was fused from other inputs than the view's now.
  public var modelIsStale: Bool { model.isStale(for: modelInputs) }

  /// `scene` with the poses the edits show: each loaded frame's recorded pose moved by
  /// the shown refinement's correction, or the recorded poses.
  private func showingEdits(_ scene: ViewerScene) -> ViewerScene {
    let corrections = edits.shownRefinement?.corrections.refinedFromOriginal
    guard scene.poseCorrections != corrections else { return scene }
    var shown = scene
    shown.showPoseCorrections(corrections)
    return shown
  }

  private mutating func apply(camera command: CameraCommand) {
    switch command {
    case .rotate(let pixels):
      cameraFollowsScene = false
      leaveCaptureCamera()
      camera.rotate(byPixels: pixels, viewportHeight: Float(viewportHeight))
    case .pan(let pixels):
      cameraFollowsScene = false
      leaveCaptureCamera()
      camera.pan(byPixels: pixels, viewportHeight: Float(viewportHeight))
    case .zoom(let steps, let cursor):
      cameraFollowsScene = false
      leaveCaptureCamera()
      camera.zoom(steps: steps, towardNormalizedCursor: cursor, aspect: aspect)
    case .fit:
      cameraFollowsScene = true
      viewMode = .orbit
      if let bounds = scene.bounds { camera.fit(bounds: bounds, aspect: aspect) }
    case .reset:
      cameraFollowsScene = true
      viewMode = .orbit
      camera = OrbitCamera(
        verticalFieldOfViewRadians: camera.verticalFieldOfViewRadians, up: scene.up)
      if let bounds = scene.bounds { camera.fit(bounds: bounds, aspect: aspect) }
    case .lookThroughCaptureCamera:
      if captureFrame != nil { viewMode = .captureCamera }
    case .orbit(let azimuth, let elevation, let distance):
      cameraFollowsScene = false
      viewMode = .orbit
      camera.azimuthRadians = azimuth
      camera.elevationRadians = elevation
      if let bounds = scene.bounds { camera.fit(bounds: bounds, aspect: aspect) }
      if let distance { camera.distanceMeters = distance }
    case .place(let placed):
      cameraFollowsScene = false
      viewMode = .orbit
      let radius = camera.sceneRadiusMeters
      camera = placed
      camera.sceneRadiusMeters = max(radius, placed.sceneRadiusMeters)
    case .setViewport(let width, let height):
      viewportWidth = max(1, width)
      viewportHeight = max(1, height)
    }
  }

  private mutating func setScene(_ newScene: ViewerScene) {
    if newScene.up != scene.up { camera.up = newScene.up }
    let firstPose = scene.worldFromCamera.isEmpty ? newScene.worldFromCamera.first : nil
    scene = newScene
    if cameraFollowsScene, let firstPose { faceLike(firstPose) }
    if cameraFollowsScene, let bounds = scene.bounds {
      camera.fit(bounds: bounds, aspect: aspect)
    } else if let bounds = scene.bounds {
      // Keep the far plane beyond the grown scene without moving the camera.
      let lo = SIMD3(bounds.min.x, bounds.min.y, bounds.min.z)
      let hi = SIMD3(bounds.max.x, bounds.max.y, bounds.max.z)
      camera.sceneRadiusMeters = max(camera.sceneRadiusMeters, ViewerMath.length(hi - lo) / 2)
    }
  }

  /// Turns the orbit camera to look the way a capture camera looked, seen from above:
  /// a recording first appears roughly as the phone saw it, not from an arbitrary side.
  private mutating func faceLike(_ worldFromCamera: Transform3D) {
    let forward = SIMD3<Float>(worldFromCamera.rotate(SIMD3(0, 0, 1)))
    switch scene.up {
    case .y:
      guard abs(forward.x) + abs(forward.z) > 1e-3 else { return }
      camera.azimuthRadians = atan2(-forward.x, -forward.z)
    case .z:
      guard abs(forward.x) + abs(forward.y) > 1e-3 else { return }
      camera.azimuthRadians = atan2(-forward.x, forward.y)
    }
  }

  /// Switches to the orbit camera, placed where the capture camera was so that the
  /// picture does not jump (roll aside).
  private mutating func leaveCaptureCamera() {
    guard viewMode == .captureCamera else { return }
    viewMode = .orbit
    guard let frame = captureFrame else { return }
    let worldFromCamera = scene.worldFromCamera[frame]
    let eye = SIMD3<Float>(worldFromCamera.translation)
    let forward = SIMD3<Float>(worldFromCamera.rotate(SIMD3(0, 0, 1)))
    // Keep orbiting about what the camera looked at: the scene centre's depth along
    // the view, or the old distance when that is behind or unknown.
    var pivotDistance = camera.distanceMeters
    if let b = scene.bounds {
      let centre = (SIMD3(b.min.x, b.min.y, b.min.z) + SIMD3(b.max.x, b.max.y, b.max.z)) / 2
      let depth = ViewerMath.dot(centre - eye, ViewerMath.normalized(forward))
      if depth > 0.01 { pivotDistance = depth }
    }
    let sceneRadius = camera.sceneRadiusMeters
    camera = OrbitCamera(
      lookingLike: worldFromCamera, axes: .openCV, pivotDistanceMeters: pivotDistance,
      up: scene.up, verticalFieldOfViewRadians: camera.verticalFieldOfViewRadians)
    camera.sceneRadiusMeters = sceneRadius
  }
}
