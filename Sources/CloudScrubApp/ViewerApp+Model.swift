import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// The scene's mesh: its triangles as the renderers draw them, and the fusion that
/// made it (for its export); none for a mesh file.
struct ShownModel {
  let scene: SceneMesh
  let fusion: RecordingFusion.Result?

  /// Which mesh this is, for the scene's signature.
  var identity: ObjectIdentifier { ObjectIdentifier(scene) }
}

// The Model section's work: fusing the shown frames in the background, taking the
// mesh into the scene, and writing it.
extension ViewerApp {
  func perform(_ action: ModelAction) {
    switch action {
    case .fuse: startFusion()
    case .cancel: work.fusion.cancel()
    case .export(let path): saveModel(to: path)
    }
  }

  /// Starts fusing the frames the timeline shows, under the poses shown, with the
  /// window's minimum confidence.
  private func startFusion() {
    let state = session.state
    guard let document = session.document, let inputs = state.modelInputs else {
      session.message = .error("no frames to fuse yet")
      return
    }
    let indices = session.content.frameIndices
    guard inputs.frames.upperBound < indices.count else { return }
    do {
      let loader = try BackgroundFusion.loader(
        for: document, frames: indices[inputs.frames], minConfidence: inputs.minConfidence,
        poses: inputs.refinement?.trajectory.poses)
      guard work.fusion.start(loader, inputs: inputs, voxelMeters: state.model.voxelMeters) else {
        session.message = .error("a fusion is running; wait for it or cancel it first")
        return
      }
      input.pending.append(.model(.fuseStarted(inputs)))
      session.message = .info("fusing \(inputs.frames.count) frames into a mesh")
    } catch {
      session.message = .error("\(error)")
    }
  }

  /// The commands that take a finished fusion into the scene (its mesh replaces the
  /// one shown), with the message that says how it went; and a finished export's
  /// message.
  func takeFusion() -> [ViewerCommand] {
    if let saved = work.fusion.takeSaved() {
      switch saved {
      case .success(let line): session.message = .info(line)
      case .failure(let error): session.message = .error("\(error)")
      }
      panelFramesLeft = 3
    }
    guard let outcome = work.fusion.take() else { return [] }
    panelFramesLeft = 3
    switch outcome {
    case .fused(let result, let inputs):
      let mesh = result.mesh
      work.model = ShownModel(scene: SceneMesh(mesh, backend: backend), fusion: result)
      session.message = .info(
        String(
          format: "fused %d frames into %@ triangles at %.0f mm voxels in %.1f s",
          result.frameIndices.count, ViewerPanels.grouped(mesh.triangles.count),
          result.voxelSizeMeters * 1000,
          result.integrationSeconds + result.waitingSeconds + result.extractionSeconds))
      return [
        .model(
          .fused(
            ModelSummary(
              inputs: inputs, vertices: mesh.vertexCount, triangles: mesh.triangles.count,
              voxelMeters: result.voxelSizeMeters)))
      ]
    case .failed(let reason):
      session.message = .error("fusion failed: \(reason)")
      return [.model(.fuseFailed(reason))]
    case .cancelled:
      session.message = .info("fusion cancelled")
      return [.model(.fuseCancelled)]
    }
  }

  /// The command that shows an opened mesh file's triangles, once the file is read.
  func takeOpenedMesh() -> [ViewerCommand] {
    guard work.model == nil, session.state.model.shown == nil,
      case .cloud(let cloud) = session.document?.kind, let mesh = cloud.mesh
    else { return [] }
    work.model = ShownModel(scene: SceneMesh(mesh, backend: backend), fusion: nil)
    panelFramesLeft = 3
    return [
      .model(
        .meshOpened(
          ModelSummary(
            inputs: nil, vertices: mesh.vertexCount, triangles: mesh.triangles.count,
            voxelMeters: nil)))
    ]
  }

  /// Writes the fused mesh in the background.
  private func saveModel(to path: String) {
    guard let fusion = work.model?.fusion, let document = session.document else {
      session.message = .error("no fused mesh to export")
      return
    }
    do {
      guard try work.fusion.save(fusion, to: path, recordingPath: document.path) else {
        session.message = .error("the mesh is being written; wait for it")
        return
      }
      session.message = .info("writing the mesh to \(path)")
    } catch {
      session.message = .error("\(error)")
    }
  }

  /// The panel's view of the fusion under way, nil when none runs.
  func fusionJob() -> ModelPanel.Job? {
    guard work.fusion.isRunning else { return nil }
    let progress = work.fusion.progress
    return ModelPanel.Job(
      fraction: progress.fraction, stage: progress.stage, cancelling: work.fusion.isCancelling)
  }

  /// The title's word on the model: fusing, or what of the mesh shows ("mesh", "mesh
  /// and points") and whether it is stale.
  func modelLine() -> String {
    let state = session.state
    if state.model.fusing != nil { return "fusing" }
    guard state.model.shown != nil, state.display.surface != .points else { return "" }
    let shown = state.display.surface == .both ? "mesh and points" : "mesh"
    return state.modelIsStale ? shown + " (stale)" : shown
  }
}
