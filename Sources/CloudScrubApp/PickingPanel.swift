import CImGuiBridge
import CloudScrubCore
import Foundation

/// The small panel in the 3D view's top-left corner that says what a click picked: the
/// point's position, frame, confidence and that frame's alignment error, a button to
/// jump the timeline there, and while measuring the two ends and their distance.
/// Shown only when something is picked or a measurement is under way.
enum PickingPanel {
  static let widthPixels: Float = 270

  /// Draws the panel at the top-left corner of `scene` (window coordinates).
  static func draw(
    _ session: ViewerSession, _ actions: inout [PanelAction],
    scene: (x: Float, y: Float, width: Float, height: Float)
  ) {
    let selection = session.selection
    let measuring = selection.mode == .measure
    guard selection.picked != nil || measuring else { return }
    let height: Float = measuring ? 190 : 128
    defer { csui_end() }
    guard
      csui_begin(
        "Picked point", scene.x + ViewerPanels.margin, scene.y + ViewerPanels.margin,
        min(widthPixels, scene.width), min(height, scene.height), true)
    else { return }
    if let point = selection.picked {
      lines(of: point, session).forEach { csui_text($0) }
      let frames = session.state.playback.loadedFrameCount
      if point.timelineFrame < frames, csui_button("Go to frame \(point.recordingFrame)") {
        actions.append(.command(.playback(.seek(frame: point.timelineFrame))))
      }
    } else {
      csui_text_colored(0.7, 0.7, 0.7, "click a point")
    }
    if measuring {
      csui_separator()
      let start = selection.measureStart.map { "A: " + position($0.positionMeters) }
      let end = selection.measureEnd.map { "B: " + position($0.positionMeters) }
      csui_text(start ?? "A: click the first point")
      csui_text(end ?? (start == nil ? "B:" : "B: click the second point"))
      if let distance = selection.distanceMeters {
        csui_text_colored(1, 0.85, 0.3, "distance " + Self.distance(distance))
      }
    }
    if csui_button("Clear") { actions.append(.selection(.clear)) }
  }

  /// The lines that describe a picked point.
  static func lines(of point: PickedPoint, _ session: ViewerSession) -> [String] {
    let frames = session.state.playback.loadedFrameCount
    let error: String
    if let errors = session.alignmentErrors {
      error =
        errors.residualMeters(at: point.timelineFrame).map {
          String(format: "%.1f mm", $0 * 1000)
        } ?? "not measured"
    } else {
      error = "not known"
    }
    return [
      position(point.positionMeters),
      "frame \(point.recordingFrame) (\(point.timelineFrame + 1) of \(frames))",
      "confidence \(confidenceName(point.confidence))",
      "alignment error \(error)",
    ]
  }

  static func position(_ p: Point3) -> String {
    String(format: "(%.3f, %.3f, %.3f) m", p.x, p.y, p.z)
  }

  /// A distance in metres, or millimetres below 10 cm.
  static func distance(_ meters: Double) -> String {
    meters < 0.1 ? String(format: "%.1f mm", meters * 1000) : String(format: "%.3f m", meters)
  }

  static func confidenceName(_ value: UInt8) -> String {
    guard let level = ConfidenceLevel(rawValue: value) else { return "none (no map)" }
    return "\(level)"
  }
}
