import CImGuiBridge
import CloudScrubCore
import Foundation

/// What the Record section asks of the frame loop.
enum RecordAction: Equatable {
  /// Record what the 3D view shows to the path, until stopped (the V key too).
  case recordView(String)
  case stopView
  /// Draw a turntable or the timeline, off screen, to the path.
  case draw(WindowRecorder.Kind, String)
  case cancel
}

/// The Record section of the left panel: the video's file name (its extension chooses
/// the format), "Record the view" and Stop with the time recorded, and the videos the
/// window draws itself (a turntable, the timeline as it plays) with their progress and
/// Cancel. The loop sets what runs each turn.
struct RecordPanel {
  /// What runs: the view recorded for some seconds, or a drawn video's frames.
  enum Job: Equatable {
    case view(seconds: Double)
    case drawn(kind: WindowRecorder.Kind, done: Int, total: Int)
  }

  var job: Job?
  private var pathField = TextField()

  mutating func draw(state: ViewerState, hasTimeline: Bool) -> [PanelAction] {
    var actions: [PanelAction] = []
    var path = state.fileNames.videoPath
    switch job {
    case .view(let seconds):
      csui_text(String(format: "recording the view: %.1f s", seconds))
      if csui_button("Stop recording (V)") { actions.append(.record(.stopView)) }
      return actions
    case .drawn(let kind, let done, let total):
      let name = kind == .turntable ? "turntable" : "timeline"
      let fraction = total > 0 ? Float(done) / Float(total) : 0
      csui_progress(fraction, -1, "\(name): \(done)/\(total) frames")
      if csui_button("Cancel video") { actions.append(.record(.cancel)) }
      return actions
    case nil:
      break
    }
    csui_set_next_item_width(-1)
    if let typed = pathField.draw("##video", showing: path) {
      actions.append(.command(.fileNames(.setVideoPath(typed))))
      path = typed
    }
    if csui_button("Record the view (V)") { actions.append(.record(.recordView(path))) }
    if csui_button("Turntable##video") { actions.append(.record(.draw(.turntable, path))) }
    if hasTimeline {
      csui_same_line()
      if csui_button("Timeline##video") { actions.append(.record(.draw(.timeline, path))) }
    }
    csui_text_wrapped(
      "Into .mp4 .webm .mkv .gif, or a folder ending in /. Turntable and Timeline draw"
        + " 1280×720 at 30 frames/s with the CPU renderer.")
    return actions
  }
}
