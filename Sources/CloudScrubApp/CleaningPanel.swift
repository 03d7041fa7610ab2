import CImGuiBridge
import CloudScrubCore

/// The cleaning options in the window: the same `CleaningOptions` that
/// `cloudscrub export` builds from its flags. The panel shows the viewer state's
/// (`ViewerEdits.cleaning`) and asks for every change by command, so each is a step of
/// the edits' one undo history (Ctrl+Z, Ctrl+Shift+Z).
struct CleaningPanel {
  var previewEnabled = false
  /// Values a stage keeps while it is switched off, so switching it on again restores
  /// them.
  private var voxelMillimeters: Float = 10
  private var sorNeighbours: Int32 = 20
  private var sorStdRatio: Float = 2
  private var radiusCentimeters: Float = 5
  private var radiusNeighbours: Int32 = 5
  /// The height band's bounds in metres while it is switched off (set from the scene's
  /// extent along the up axis the first time it is switched on).
  private var heightBandMeters: ClosedRange<Float>?

  /// A panel whose sliders start at the values `initial` (the command line's cleaning
  /// options, which the state starts from) gives, the others at their defaults.
  init(initial: CleaningOptions = CleaningOptions()) {
    heightBandMeters = initial.heightBandMeters
    if let size = initial.voxelSizeMeters { voxelMillimeters = size * 1000 }
    if let statistical = initial.statistical {
      sorNeighbours = Int32(clamping: statistical.neighbours)
      sorStdRatio = Float(statistical.stdRatio)
    }
    if let radius = initial.radius {
      radiusCentimeters = radius.radiusMeters * 100
      radiusNeighbours = Int32(clamping: radius.minNeighbours)
    }
  }

  /// Whether any of the panel's sliders is held this frame.
  private struct SliderActivity {
    var active = false
    /// Call right after each slider.
    mutating func note() { active = active || csui_item_active() }
  }

  /// Draws the panel showing `edits`' cleaning settings and returns the commands that
  /// change them; `up` is the world's up axis, along which the height band measures
  /// (its first bounds are the scene's extent along it).
  mutating func draw(edits: ViewerEdits, sceneBounds: Bounds3?, up: WorldUp) -> [ViewerCommand] {
    var commands: [ViewerCommand] = []
    var sliders = SliderActivity()
    let current = edits.history.current.cleaning
    var next = current
    var cropOn = next.crop != nil
    if csui_checkbox("crop box", &cropOn) {
      next.crop = cropOn ? Self.initialCrop(sceneBounds) : nil
    }
    if var box = edits.draftCrop ?? next.crop {
      var edited = false
      var released = false
      for (axis, name) in ["x", "y", "z"].enumerated() {
        var lo = Self.component(box.min, axis)
        var hi = Self.component(box.max, axis)
        csui_set_next_item_width(95)
        if csui_drag_float("##min\(name)", &lo, 0.01, -1000, hi - 0.001, "%.2f") { edited = true }
        released = released || csui_item_deactivated_after_edit()
        csui_same_line()
        csui_set_next_item_width(95)
        if csui_drag_float("\(name) min/max##max\(name)", &hi, 0.01, lo + 0.001, 1000, "%.2f") {
          edited = true
        }
        released = released || csui_item_deactivated_after_edit()
        box.min = Self.setting(box.min, axis, lo)
        box.max = Self.setting(box.max, axis, hi)
      }
      if released {
        commands.append(.edit(.dragCrop(box, finished: true)))
        next.crop = box
      } else if edited {
        commands.append(.edit(.dragCrop(box, finished: false)))
      }
    }
    heightBand(&next, sliders: &sliders, sceneBounds: sceneBounds, up: up)
    var voxelOn = next.voxelSizeMeters != nil
    if csui_checkbox("voxel merge", &voxelOn) {
      next.voxelSizeMeters = voxelOn ? voxelMillimeters / 1000 : nil
    }
    if voxelOn {
      csui_same_line()
      csui_set_next_item_width(-1)
      if csui_slider_float("##voxel", &voxelMillimeters, 1, 100, "%.0f mm") {
        next.voxelSizeMeters = voxelMillimeters / 1000
      }
      sliders.note()
    }
    var sorOn = next.statistical != nil
    if csui_checkbox("statistical outliers", &sorOn) {
      next.statistical =
        sorOn
        ? StatisticalOutlierOptions(neighbours: Int(sorNeighbours), stdRatio: Double(sorStdRatio))
        : nil
    }
    if sorOn {
      csui_set_next_item_width(120)
      let k = csui_slider_int("##k", &sorNeighbours, 2, 64, "k %d")
      sliders.note()
      csui_same_line()
      csui_set_next_item_width(-1)
      let std = csui_slider_float("##std", &sorStdRatio, 0.5, 5, "std %.1f")
      sliders.note()
      if k || std {
        next.statistical = StatisticalOutlierOptions(
          neighbours: Int(sorNeighbours), stdRatio: Double(sorStdRatio))
      }
    }
    var radiusOn = next.radius != nil
    if csui_checkbox("radius outliers", &radiusOn) {
      next.radius =
        radiusOn
        ? RadiusOutlierOptions(
          radiusMeters: radiusCentimeters / 100, minNeighbours: Int(radiusNeighbours)) : nil
    }
    if radiusOn {
      csui_set_next_item_width(120)
      let r = csui_slider_float("##r", &radiusCentimeters, 0.5, 50, "r %.1f cm")
      sliders.note()
      csui_same_line()
      csui_set_next_item_width(-1)
      let n = csui_slider_int("##radius-neighbours", &radiusNeighbours, 1, 64, "min %d")
      sliders.note()
      if r || n {
        next.radius = RadiusOutlierOptions(
          radiusMeters: radiusCentimeters / 100, minNeighbours: Int(radiusNeighbours))
      }
    }
    var normals = next.normalNeighbours != nil
    if csui_checkbox("normals", &normals) { next.normalNeighbours = normals ? 20 : nil }
    // A slider being dragged changes the options every tick; the drag is one undo step,
    // ended once no slider is held.
    let finished = !sliders.active
    if next != current || (edits.history.isEditing && finished) {
      commands.append(.edit(.setCleaning(next, finished: finished)))
    }
    csui_checkbox("preview", &previewEnabled)
    csui_same_line()
    if csui_button("Undo") { commands.append(.edit(.undo)) }
    csui_same_line()
    if csui_button("Redo") { commands.append(.edit(.redo)) }
    return commands
  }

  /// The height band's checkbox and its two bounds; a drag of either bound is one undo
  /// step, like the sliders'.
  private mutating func heightBand(
    _ next: inout CleaningOptions, sliders: inout SliderActivity, sceneBounds: Bounds3?,
    up: WorldUp
  ) {
    var bandOn = next.heightBandMeters != nil
    if csui_checkbox("height band", &bandOn) {
      next.heightBandMeters =
        bandOn ? (heightBandMeters ?? Self.initialHeightBand(sceneBounds, up: up)) : nil
    }
    guard let band = next.heightBandMeters else { return }
    var lo = band.lowerBound
    var hi = band.upperBound
    csui_set_next_item_width(95)
    let lowMoved = csui_drag_float("##band-min", &lo, 0.01, -1000, hi, "%.2f")
    sliders.note()
    csui_same_line()
    csui_set_next_item_width(95)
    let highMoved = csui_drag_float("\(up.rawValue) min/max##band-max", &hi, 0.01, lo, 1000, "%.2f")
    sliders.note()
    if lowMoved || highMoved, lo <= hi {
      next.heightBandMeters = lo...hi
      heightBandMeters = lo...hi
    }
  }

  /// The scene's extent along `up`, or 0–2 m before anything is loaded.
  static func initialHeightBand(_ bounds: Bounds3?, up: WorldUp) -> ClosedRange<Float> {
    guard let b = bounds else { return 0...2 }
    return up.height(of: b.min)...up.height(of: b.max)
  }

  static func initialCrop(_ bounds: Bounds3?) -> CropBox {
    guard let b = bounds else { return CropBox(min: Point3(-1, -1, -1), max: Point3(1, 1, 1)) }
    return CropBox(min: b.min, max: b.max)
  }

  static func component(_ p: Point3, _ axis: Int) -> Float {
    axis == 0 ? p.x : axis == 1 ? p.y : p.z
  }

  static func setting(_ p: Point3, _ axis: Int, _ value: Float) -> Point3 {
    Point3(axis == 0 ? value : p.x, axis == 1 ? value : p.y, axis == 2 ? value : p.z)
  }
}
