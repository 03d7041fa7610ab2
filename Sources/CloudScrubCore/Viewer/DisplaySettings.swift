/// What colours the points.
public enum PointColorMode: String, CaseIterable, Sendable {
  /// The captured colour.
  case rgb
  /// A ramp along the world's up axis.
  case height
  /// A ramp on the distance from the capturing camera.
  case depth
  /// The depth map's confidence (low, medium, high).
  case confidence
  /// A colour per frame, to see which frame contributed which points.
  case frame
  /// Each point by its frame's alignment error (`FrameAlignmentErrors`): the ramp from
  /// 0 to the worst frame's error (at least 1 cm), grey for frames not measured.
  case alignmentError = "error"
  /// Grey by a scan's intensity (`PointStore.intensity`); a flat grey for points that
  /// have none.
  case intensity
}

/// What a scene with a mesh (a fused model, or a mesh file) shows of it.
public enum SurfaceShown: String, CaseIterable, Sendable {
  case points
  case mesh
  /// The mesh, and the points over and through it.
  case both
}

/// How points and overlays are drawn: user preferences, independent of the data.
public struct DisplaySettings: Equatable, Sendable {
  /// The range `pointSizePixels` is kept in.
  public static let pointSizeRangePixels: ClosedRange<Float> = 1...32

  /// What colours the points.
  public var colorMode: PointColorMode = .rgb
  /// Point diameter on screen; clamped to `pointSizeRangePixels`.
  public var pointSizePixels: Float = 2 {
    didSet { pointSizePixels = Self.clampPointSize(pointSizePixels) }
  }
  /// Round sprites instead of squares.
  public var roundPoints: Bool = true
  /// Eye-dome lighting: screen-space shading that shows shape without normals.
  public var eyeDomeLighting: Bool = false
  /// Points below this confidence are hidden (`.low` shows all).
  public var minConfidence: ConfidenceLevel = .low
  /// The ground grid.
  public var showGrid: Bool = true
  /// The world axes at the origin.
  public var showAxes: Bool = true
  /// The capture camera's path.
  public var showTrajectory: Bool = true
  /// The current frame's capture camera frustum.
  public var showFrustum: Bool = true
  /// Whether the points, the mesh or both show, when there is a mesh.
  public var surface: SurfaceShown = .points
  /// Why the points look as they do when the viewer chose it, not the user (a capture
  /// with no colour opens by height with eye-dome lighting); nil once the user picks a
  /// colour mode or lighting.
  public var lookNote: String?
  /// Background brightness, 0 black … 1 white.
  public var backgroundGray: Float = 0.1

  /// The defaults listed on each property.
  public init() {}

  /// Applies one command.
  public mutating func apply(_ command: DisplayCommand) {
    switch command {
    case .setColorMode, .cycleColorMode, .toggleEyeDomeLighting, .setEyeDomeLighting:
      lookNote = nil
    default: break
    }
    switch command {
    case .setColorMode(let mode): colorMode = mode
    case .cycleColorMode:
      let all = PointColorMode.allCases
      let index = all.firstIndex(of: colorMode) ?? 0
      colorMode = all[(index + 1) % all.count]
    case .setPointSize(let size): pointSizePixels = size
    case .changePointSize(let delta): pointSizePixels += delta
    case .setRoundPoints(let round): roundPoints = round
    case .toggleEyeDomeLighting: eyeDomeLighting.toggle()
    case .setEyeDomeLighting(let on): eyeDomeLighting = on
    case .showWithoutColor:
      colorMode = .height
      eyeDomeLighting = true
      lookNote = "coloured by height, with eye-dome lighting: the points have no colour"
    case .showIntensity:
      colorMode = .intensity
      lookNote = "grey by intensity: the points have no colour, only intensity"
    case .setMinConfidence(let level): minConfidence = level
    case .toggleGrid: showGrid.toggle()
    case .toggleAxes: showAxes.toggle()
    case .toggleTrajectory: showTrajectory.toggle()
    case .toggleFrustum: showFrustum.toggle()
    case .setSurface(let shown): surface = shown
    case .cycleSurface:
      let all = SurfaceShown.allCases
      surface = all[((all.firstIndex(of: surface) ?? 0) + 1) % all.count]
    }
  }

  static func clampPointSize(_ size: Float) -> Float {
    guard size.isFinite else { return 2 }
    return min(max(size, pointSizeRangePixels.lowerBound), pointSizeRangePixels.upperBound)
  }
}

/// Changes to `DisplaySettings`.
public enum DisplayCommand: Equatable, Sendable {
  case setColorMode(PointColorMode)
  /// The next colour mode, wrapping after the last.
  case cycleColorMode
  case setPointSize(Float)
  /// Adds this many pixels to the point size (negative shrinks), within the range.
  case changePointSize(by: Float)
  case setRoundPoints(Bool)
  case toggleEyeDomeLighting
  case setEyeDomeLighting(Bool)
  /// The first look of points with no colour: by height, with eye-dome lighting, and a
  /// note saying why.
  case showWithoutColor
  /// The first look of a cloud with intensity and no colour: by intensity, with a note
  /// saying why.
  case showIntensity
  case setMinConfidence(ConfidenceLevel)
  case toggleGrid
  case toggleAxes
  case toggleTrajectory
  case toggleFrustum
  case setSurface(SurfaceShown)
  /// Points, then the mesh, then both, then points again.
  case cycleSurface
}
