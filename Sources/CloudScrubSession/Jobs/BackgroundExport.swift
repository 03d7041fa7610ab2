import CloudScrubCore
import Foundation

/// The window's export, as a background job so the frame loop keeps drawing and
/// answering input: one at a time, with its progress for the Export panel and a cancel.
public final class BackgroundExport {
  public init() {}

  /// What the Export panel shows while an export runs.
  public struct Status: Equatable {
    public var outputPath: String
    public var progress: ExportProgress.Snapshot
  }

  /// Hands a request and the opener to the worker thread. The request is a snapshot
  /// (value types, and a load and a recording source that are thread-safe), and the
  /// frame loop touches neither while the export runs.
  private struct Job: @unchecked Sendable {
    var opener: any ViewerDocumentOpener
    var request: WindowExportRequest
  }

  /// The outcome, for the frame loop.
  private struct Finished: @unchecked Sendable {
    var result: Result<String, any Error>
  }

  private let work = BackgroundWork<Finished>()
  private var running: (outputPath: String, progress: ExportProgress)?

  /// Whether an export runs (or has finished and its result not yet been taken).
  public var isRunning: Bool { running != nil }

  /// The stage and fraction of the export running, if one is.
  public var status: Status? {
    running.map { Status(outputPath: $0.outputPath, progress: $0.progress.snapshot) }
  }

  /// Starts exporting `request` through `opener`.
  ///
  /// - Returns: false, starting nothing, when an export is running already.
  @discardableResult
  public func start(
    _ request: WindowExportRequest, opener: any ViewerDocumentOpener,
    progress: ExportProgress = ExportProgress()
  ) -> Bool {
    guard running == nil else { return false }
    let job = Job(opener: opener, request: request)
    let started = work.start {
      Finished(result: Result { try job.opener.export(job.request, progress: progress) })
    }
    if started { running = (request.outputPath, progress) }
    return started
  }

  /// Asks the running export to stop; it ends within about a second, writing nothing.
  public func cancel() {
    running?.progress.cancel()
  }

  /// The finished export's line or error, handed out once; with `seconds`, waits up to
  /// that long for the export to end.
  public func take(waitingUpTo seconds: TimeInterval = 0) -> Result<String, any Error>? {
    guard let finished = work.take(waitingUpTo: seconds) else { return nil }
    running = nil
    return finished.result
  }
}
