import CImGuiBridge
import CloudScrubCore
import Foundation

/// The alignment error along the timeline: a curve over the slider's width, one value
/// a pixel column (the largest of the frames under it, `TimelineErrorCurve`), the
/// playhead as a line, and a click or drag on it scrubs to the frame under the cursor.
/// While refined poses show, the loops the refinement closed are cyan arcs hanging from
/// the top between the stretches of the timeline they tie, and how far each frame's
/// camera moved is a green curve under the error (top: the largest move).
enum ErrorCurve {
  /// The curve's height in window pixels.
  static let heightPixels: Float = 36

  /// Draws the curve across the panel's width at the cursor; returns the frame to seek
  /// to while the user clicks or drags on it.
  static func draw(
    _ errors: FrameAlignmentErrors, playhead: Int, frameCount: Int,
    refinement: PoseRefinement? = nil
  ) -> Int? {
    let width = csui_available_width()
    let clicked = csui_invisible_button("##alignment-error", width, heightPixels)
    let active = csui_item_active()
    var x0: Float = 0
    var y0: Float = 0
    var x1: Float = 0
    var y1: Float = 0
    csui_item_rect(&x0, &y0, &x1, &y1)
    csui_draw_rect_filled(x0, y0, x1, y1, color(25, 25, 30, 255))
    let frames = min(frameCount, errors.frameCount)
    let columns = max(1, Int(x1 - x0))
    let shown = FrameAlignmentErrors(residualsMeters: Array(errors.residualsMeters.prefix(frames)))
    let curve = TimelineErrorCurve(shown, columns: columns)
    let scale = errors.scaleMeters
    let top = y0 + 2
    let bottom = y1 - 1
    if let refinement { drawRefinement(refinement, frames: frames, in: (x0, y0, x1, y1)) }
    var last: (x: Float, y: Float)?
    for (column, value) in curve.columnsMeters.enumerated() {
      let x = x0 + Float(column) + 0.5
      guard let value else {
        // Unmeasured frames: a grey tick on the baseline, and the curve breaks.
        csui_draw_line(x, bottom - 2, x, bottom, color(110, 110, 110, 255), 1)
        last = nil
        continue
      }
      let y = bottom - (bottom - top) * min(1, max(0, value / scale))
      if let last {
        csui_draw_line(last.x, last.y, x, y, color(245, 150, 50, 255), 1.5)
      } else {
        csui_draw_line(x, y, x, y + 1, color(245, 150, 50, 255), 1.5)
      }
      last = (x, y)
    }
    if frames > 0 {
      let fraction = TimelineErrorCurve.fraction(ofFrame: playhead, frameCount: frames)
      let x = x0 + Float(fraction) * (x1 - x0)
      csui_draw_line(x, y0, x, y1, color(240, 240, 240, 200), 1)
    }
    guard (clicked || active), frames > 0, x1 > x0 else { return nil }
    var mouseX: Float = 0
    var mouseY: Float = 0
    csui_mouse_position(&mouseX, &mouseY)
    return TimelineErrorCurve.frame(
      atFraction: Double((mouseX - x0) / (x1 - x0)), frameCount: frames)
  }

  /// The corrections' curve and the loops' marks, under the error curve.
  private static func drawRefinement(
    _ refinement: PoseRefinement, frames: Int, in rect: (Float, Float, Float, Float)
  ) {
    let (x0, y0, x1, y1) = rect
    guard frames > 0 else { return }
    func x(_ frame: Int) -> Float {
      x0 + Float(TimelineErrorCurve.fraction(ofFrame: frame, frameCount: frames)) * (x1 - x0)
    }
    let shifts = FrameAlignmentErrors(
      residualsMeters: refinement.cameraShiftsMeters.prefix(frames).map { $0 })
    let largest = max(refinement.cameraShiftsMeters.max() ?? 0, 1e-6)
    let curve = TimelineErrorCurve(shifts, columns: max(1, Int(x1 - x0)))
    var last: (x: Float, y: Float)?
    for (column, value) in curve.columnsMeters.enumerated() {
      guard let value else {
        last = nil
        continue
      }
      let point = (x: x0 + Float(column) + 0.5, y: y1 - 1 - (y1 - y0 - 4) * value / largest)
      if let last { csui_draw_line(last.x, last.y, point.x, point.y, color(90, 200, 110, 160), 1) }
      last = point
    }
    // The loops in bundles (`LoopBundle`), each an arc hanging from the top between
    // the middles of its two stretches, deeper the farther apart they are (at most
    // half the curve's height, so the error stays readable) and brighter the more
    // loops it holds; each stretch a bar along the top.
    let deepest = max((y1 - y0) / 2, 4)
    for bundle in refinement.loopBundles where bundle.second.upperBound < frames {
      let a = (x(bundle.first.lowerBound) + x(bundle.first.upperBound)) / 2
      let b = (x(bundle.second.lowerBound) + x(bundle.second.upperBound)) / 2
      let depth = 3 + (deepest - 3) * ((b - a) / max(x1 - x0, 1)).squareRoot()
      let alpha = UInt32(50 + 15 * min(bundle.count, 10))
      var last = (x: a, y: y0)
      for step in 1...arcSegments {
        let t = Float(step) / Float(arcSegments)
        let point = (x: a + (b - a) * t, y: y0 + depth * sin(Float.pi * t))
        csui_draw_line(last.x, last.y, point.x, point.y, color(80, 210, 230, alpha), 1)
        last = point
      }
      for stretch in [bundle.first, bundle.second] {
        csui_draw_rect_filled(
          x(stretch.lowerBound) - 1, y0, x(stretch.upperBound) + 1, y0 + 2,
          color(80, 210, 230, 200))
      }
    }
  }

  /// The straight pieces a bundle's arc is drawn with.
  private static let arcSegments = 16

  /// The legend's word on a refinement shown: its loops and its largest correction.
  static func refinementLegend(_ refinement: PoseRefinement) -> String {
    String(
      format: "%d loops closed (cyan), cameras moved up to %.1f mm (green)",
      refinement.loops.count, (refinement.cameraShiftsMeters.max() ?? 0) * 1000)
  }

  /// The legend line under the curve; nil errors: not measured yet, `measuring` the
  /// fraction the pass under way has done.
  static func legend(_ errors: FrameAlignmentErrors?, measuring: Double? = nil) -> String {
    guard let errors else {
      guard let measuring else { return "alignment error: measured once the recording has loaded" }
      return "alignment error: measuring, \(Int(measuring * 100)) % of the frames done"
    }
    let worst = errors.worstMeters.map { String(format: "worst %.1f mm", $0 * 1000) } ?? "none yet"
    return String(format: "alignment error (top of the curve %.1f mm), ", errors.scaleMeters * 1000)
      + worst + "; click the curve to go there"
  }

  /// An ImGui colour: red in the low byte, alpha in the high.
  static func color(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
    r | g << 8 | b << 16 | a << 24
  }
}
