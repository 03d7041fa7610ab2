import CImGuiBridge
import CloudScrubCore
import Foundation

/// What the Model section asks of the frame loop.
enum ModelAction: Equatable {
  /// Fuse the shown frames into a mesh in the background.
  case fuse
  case cancel
  /// Write the fused mesh to the path (PLY, OBJ or glTF by its extension).
  case export(String)
}

/// The Model section of the left panel: "Fuse shown frames", the fusion's progress
/// with Cancel, the mesh in numbers (marked stale when the shown frames, the minimum
/// confidence or the poses changed since it was fused, with "Fuse again"), the
/// points / mesh / both switch, and the mesh's export. What it shows is the state's
/// (`ViewerState.model`, `display.surface`, `fileNames.meshPath`); the job's progress
/// comes from the frame loop each turn.
struct ModelPanel {
  /// The fusion under way: frames fused and to fuse, and whether it is winding down.
  struct Job: Equatable {
    /// The fusion's progress: the share of the frames fused, and "fusing 3/40 frames".
    var fraction: Double
    var stage: String
    var cancelling: Bool
  }

  /// Set by the frame loop each turn: the fusion under way, nil when none runs, and
  /// whether an export of the mesh is being written.
  var job: Job?
  var saving = false
  private var pathField = TextField()

  /// Draws the section's widgets and returns what the user asked for.
  mutating func draw(state: ViewerState, canFuse: Bool) -> [PanelAction] {
    var actions: [PanelAction] = []
    let model = state.model
    if let job {
      csui_progress(Float(job.fraction), -1, job.stage)
      if job.cancelling {
        csui_text("cancelling")
      } else if csui_button("Cancel fusion") {
        actions.append(.model(.cancel))
      }
    } else if canFuse {
      // Millimetres, 0 for the automatic size.
      var millimetres = Int32(((model.voxelMeters ?? 0) * 1000).rounded())
      csui_set_next_item_width(-1)
      if csui_slider_int(
        "##voxel", &millimetres, 0, 100, millimetres == 0 ? "voxel: automatic" : "voxel %d mm")
      {
        actions.append(
          .command(.model(.setVoxel(millimetres > 0 ? Float(millimetres) / 1000 : nil))))
      }
      let again = model.shown?.inputs != nil
      if csui_button(again ? "Fuse again" : "Fuse shown frames into a mesh") {
        actions.append(.model(.fuse))
      }
    }
    if let failure = model.failure { csui_text_colored(0.95, 0.4, 0.35, failure) }
    guard let shown = model.shown else {
      if canFuse && job == nil {
        csui_text_wrapped("A surface of the frames the timeline shows, one layer thick.")
      }
      return actions
    }
    var line = "\(ViewerPanels.grouped(shown.triangles)) triangles"
    if let voxel = shown.voxelMeters {
      line += String(format: ", %.0f mm voxels", voxel * 1000)
    }
    csui_text(line)
    if state.modelIsStale {
      csui_text_colored(0.95, 0.7, 0.3, "stale: the view changed since")
    }
    for (index, surface) in SurfaceShown.allCases.enumerated() {
      if index > 0 { csui_same_line() }
      if csui_radio(surface.rawValue, state.display.surface == surface) {
        actions.append(.command(.display(.setSurface(surface))))
      }
    }
    guard shown.inputs != nil else { return actions }
    var path = state.fileNames.meshPath
    csui_set_next_item_width(-1)
    if let typed = pathField.draw("##mesh", showing: path) {
      actions.append(.command(.fileNames(.setMeshPath(typed))))
      path = typed
    }
    if saving {
      csui_text("writing the mesh")
    } else if csui_button("Export mesh (.ply .obj .glb)") {
      actions.append(.model(.export(path)))
    }
    return actions
  }
}
