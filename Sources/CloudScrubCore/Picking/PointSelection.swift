/// What the user picked in the 3D view: the point to inspect and, while measuring, the
/// two ends of a distance.
///
/// A value changed only by `apply(_:)`, as `ViewerState` is: the window turns a click
/// into `.picked(…)` with what `PointPicker` found, and the panel's buttons into the
/// other commands.
public struct PointSelection: Equatable, Sendable {
  /// What a click does.
  public enum Mode: Equatable, Sendable {
    /// A click picks one point to inspect.
    case inspect
    /// Clicks pick the two ends of a distance, then start again.
    case measure
  }

  public private(set) var mode: Mode = .inspect
  /// The last point picked, nil when the last click hit nothing (or none was made).
  public private(set) var picked: PickedPoint?
  /// The first end of the distance being measured.
  public private(set) var measureStart: PickedPoint?
  /// The second end, once picked.
  public private(set) var measureEnd: PickedPoint?

  public init() {}

  /// Applies one command; the only way the selection changes.
  public mutating func apply(_ command: SelectionCommand) {
    switch command {
    case .picked(let point):
      picked = point
      guard mode == .measure, let point else { return }
      if measureStart == nil || measureEnd != nil {
        measureStart = point
        measureEnd = nil
      } else {
        measureEnd = point
      }
    case .setMode(let newMode):
      guard newMode != mode else { return }
      mode = newMode
      measureStart = nil
      measureEnd = nil
    case .clear:
      picked = nil
      measureStart = nil
      measureEnd = nil
    case .moved(let positions):
      func moved(_ point: PickedPoint?) -> PickedPoint? {
        guard var point, let position = positions[point.index] else { return point }
        point.positionMeters = position
        return point
      }
      picked = moved(picked)
      measureStart = moved(measureStart)
      measureEnd = moved(measureEnd)
    }
  }

  /// The distance between the two measured points in metres (computed in double
  /// precision), nil until both are picked.
  public var distanceMeters: Double? {
    guard let a = measureStart?.positionMeters, let b = measureEnd?.positionMeters else {
      return nil
    }
    return Self.distanceMeters(a, b)
  }

  /// The straight-line distance between two points, in metres.
  public static func distanceMeters(_ a: Point3, _ b: Point3) -> Double {
    let dx = Double(b.x) - Double(a.x)
    let dy = Double(b.y) - Double(a.y)
    let dz = Double(b.z) - Double(a.z)
    return (dx * dx + dy * dy + dz * dz).squareRoot()
  }
}

/// Changes to `PointSelection`.
public enum SelectionCommand: Equatable, Sendable {
  /// A click picked this point (nil: it hit none).
  case picked(PickedPoint?)
  /// Inspecting or measuring; changing the mode drops a measurement under way.
  case setMode(PointSelection.Mode)
  /// Forgets every picked point (a new document, or the panel's Clear).
  case clear
  /// The poses shown changed: each picked point whose store index is a key is now drawn
  /// at its value (`following(_:corrections:)` makes this command).
  case moved(positionsMeters: [Int: Point3])
}

/// Tells a click from a drag: a button press and release with the cursor moved less
/// than `slopPixels` in between is a click at the press position.
public struct ClickDetector: Sendable {
  /// How far the cursor may move while the button is down and still click.
  public var slopPixels: Float = 3
  private var start: SIMD2<Float>?
  private var moved = false

  public init(slopPixels: Float = 3) {
    self.slopPixels = slopPixels
  }

  /// The button went down at `cursor`.
  public mutating func down(at cursor: SIMD2<Float>) {
    start = cursor
    moved = false
  }

  /// The cursor moved while the button may be down.
  public mutating func moved(to cursor: SIMD2<Float>) {
    guard let start else { return }
    let d = cursor - start
    if (d * d).sum() > slopPixels * slopPixels { moved = true }
  }

  /// The button came up: the click position, or nil after a drag (or with no press).
  public mutating func up() -> SIMD2<Float>? {
    defer {
      start = nil
      moved = false
    }
    return moved ? nil : start
  }

  /// Forgets a press (it started a crop-handle drag, say).
  public mutating func cancel() {
    start = nil
    moved = false
  }
}
