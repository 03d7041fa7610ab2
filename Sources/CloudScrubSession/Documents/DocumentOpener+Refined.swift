import CloudScrubCore
import Foundation

extension DocumentOpener {
  /// The window's export of a recording while refined poses show: the shown frames
  /// unprojected again with the refined poses, through the same loader, cleaning and
  /// writer as `cloudscrub export --poses POSES.txt --frames A-B --min-confidence C`, so
  /// the file is byte for byte the command line's for the same poses. The normals face
  /// the refined camera positions.
  ///
  /// - Throws: `TrajectoryError` when the poses do not match the recording's frames,
  ///   `CleaningCancelled` after a cancel (nothing written), or what the load, the
  ///   cleaning or the writer throw.
  public static func exportRefined(
    _ request: WindowExportRequest, poses: [CameraPose], source: any RecordingSource,
    job: ExportJob, writer: any CloudFormatWriter, progress: ExportProgress
  ) throws -> String {
    let refined = try InputLoader.replacingPoses(
      of: source, with: poses, naming: request.document.path)
    let selection =
      job.recordedFrames?.selection ?? FrameSelection(range: shownFrameRange(request))
    let unprojection = job.recordedFrames?.unprojection ?? UnprojectionOptions()
    let loader = InputLoader.loader(refined, selection: selection, unprojection: unprojection)
    var cancelled = false
    let store = try loader.load(onFrame: { _ in
      cancelled = progress.isCancelled
      return !cancelled
    })
    if cancelled { throw CleaningCancelled(step: "unprojecting the refined frames") }
    guard let cloud = store.cloud(stop: { progress.isCancelled }) else {
      throw CleaningCancelled(step: "frames")
    }
    return try Self.finishShown(
      cloud, frameIndices: store.frameIndices, source: refined, job: job, writer: writer,
      progress: progress, posesNote: " with the refined poses")
  }

  /// The recording frames the window shows, first to last.
  public static func shownFrameRange(_ request: WindowExportRequest) -> ClosedRange<Int> {
    let frames = request.content.frameIndices[shownPositions(request)]
    return (frames.first ?? 0)...(frames.last ?? 0)
  }
}
