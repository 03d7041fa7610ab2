import CloudScrubCLI
import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub bench video`: frames per second of a 1280×720 timeline video of a real
/// capture drawn by the CPU renderer, encoding included, beside the rate of drawing
/// alone in the same run; each output format; a turntable, which draws every point in
/// every frame.
struct VideoBenchmark {
  let path: String
  let folder: String
  /// The target: a minute of capture in about a minute.
  static let targetFramesPerSecond = 30.0

  func run() throws {
    Terminal.out("CloudScrub video benchmark: \(path)")
    Terminal.out(
      "1280×720, 30 frames/s, CPU renderer; cores: \(Parallel.cores)")
    let base = ["-o", "unused.mp4", "--renderer", "cpu", "--size", "1280x720"]
    var request = try VideoRequest(ParsedArguments([path] + base, command: VideoCommand.spec))
    var input: RenderRequest.Input?
    let load = try Stopwatch.best(runs: 1) {
      input = try RenderRequest.loadInput(path, choices: request.render.load)
    }
    guard let input else { return }
    try request.settle(isRecording: input.source != nil)
    let captureSeconds = Self.captureSeconds(input.commands)
    var report = BenchReport()
    report.section("loading")
    report.row(
      "load", "\(PLYBenchmark.fixed(load, 2)) s",
      "\(input.content.store.count) points in \(input.content.frameIndices.count) frames,"
        + " \(PLYBenchmark.fixed(captureSeconds, 2)) s of capture")
    report.section("timeline (the cloud accumulating, fixed orbit camera)")
    let drawn = try VideoMaker.make(
      input: input, request: request, frameErrors: nil, output: "frames", protecting: [path],
      sink: DiscardingSink())
    let renderOnly = Double(drawn.frames) / drawn.totalSeconds
    report.row(
      "render only", "\(PLYBenchmark.fixed(renderOnly, 1)) frames/s",
      "\(drawn.frames) frames drawn and read back, none encoded")
    for name in ["timeline.mp4", "timeline.webm", "timeline.gif", "timeline.mkv"] {
      let made = try VideoMaker.make(
        input: input, request: request, frameErrors: nil, output: folder + "/" + name,
        protecting: [path])
      let rate = Double(made.frames) / made.totalSeconds
      let drawRate = Double(made.frames) / max(made.drawSeconds, 1e-9)
      let size =
        (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size])
        as? Int ?? 0
      let isTarget = name.hasSuffix(".mp4")
      report.row(
        name, "\(PLYBenchmark.fixed(rate, 1)) frames/s",
        "\(made.frames) frames in \(PLYBenchmark.fixed(made.totalSeconds, 2)) s"
          + " (\(PLYBenchmark.fixed(rate / renderOnly, 2))× render only); drawing, with the"
          + " encoder beside, \(PLYBenchmark.fixed(drawRate, 1)) frames/s; \(size / 1024) KiB;"
          + " \(PLYBenchmark.fixed(captureSeconds / made.totalSeconds, 2))× the capture's pace",
        target: isTarget ? rate >= Self.targetFramesPerSecond : nil,
        goal: isTarget ? "≥ 30 frames/s" : "")
    }
    var follow = request
    follow.shot.camera = .follow
    var capture = request
    capture.shot.camera = .capture
    var turn = request
    turn.shot.motion = .turntable(seconds: 2)
    for (name, moving) in [
      ("camera follow (mp4)", follow), ("camera capture (mp4)", capture),
      ("turntable 2 s (mp4)", turn),
    ] {
      let made = try VideoMaker.make(
        input: input, request: moving, frameErrors: nil, output: folder + "/moving.mp4",
        protecting: [path])
      report.row(
        name, "\(PLYBenchmark.fixed(Double(made.frames) / made.totalSeconds, 1)) frames/s",
        "\(made.frames) frames, each drawn whole; drawing, with the encoder beside,"
          + " \(PLYBenchmark.fixed(Double(made.frames) / max(made.drawSeconds, 1e-9), 1))"
          + " frames/s")
    }
    Terminal.out(report.text)
  }

  /// The loaded frames' span in seconds, from the load's commands.
  static func captureSeconds(_ commands: [ViewerCommand]) -> Double {
    var state = ViewerState()
    for command in commands { state.apply(command) }
    let times = state.playback.frameTimestampsSeconds
    return (times.last ?? 0) - (times.first ?? 0)
  }
}

/// Takes frames and keeps none: drawing's rate without encoding.
private final class DiscardingSink: VideoFrameSink {
  func append(_ image: RGBImage) throws {}
  func finish() throws {}
  func abandon() {}
}
