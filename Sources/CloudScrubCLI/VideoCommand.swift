import CloudScrubCore
import CloudScrubFormats
import CloudScrubRender
import CloudScrubSession
import Foundation

/// `cloudscrub video`: draws a recording's timeline as it plays, a turntable about a
/// cloud, or a camera path, frame after frame with no window, and encodes the frames.
package enum VideoCommand {
  /// Usage and prose of `video --help`; the options are `OptionTable`'s rows.
  package static let spec = CommandSpec(
    name: "video",
    synopsis: ["video PATH -o OUT.mp4|OUT.webm|OUT.mkv|OUT.gif|DIR/ [options]"],
    about: """
      Draws PATH (a recording or a point-cloud file) frame after frame as the viewer shows
      it, with no display, and encodes the frames: a recording's timeline as it plays (the
      cloud accumulating), one orbit about the cloud (--turntable), or a camera path
      (--path). The recording, cleaning and drawing options are those of `render`. The
      file is written under a temporary name and renamed into place once complete;
      Ctrl+C leaves nothing behind.
      """)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    guard let output = parsed.value("output") else {
      throw UsageError("video needs an output: -o OUT.mp4 (or .webm, .mkv, .gif, or DIR/)")
    }
    guard VideoOutput.kind(of: output) != nil else {
      throw UsageError(
        "-o \(output): a video's name ends in .mp4, .webm, .mkv or .gif, or in / for a folder"
          + " of PNG pictures")
    }
    let path = parsed.positionals[0]
    var request = try VideoRequest(parsed)
    let (width, height) = (request.render.width, request.render.height)
    if let format = VideoFormat(path: output), format == .mp4 || format == .webm,
      width % 2 != 0 || height % 2 != 0
    {
      throw UsageError(
        "--size: \(format.rawValue.uppercased()) video keeps colour at half resolution and"
          + " needs even sides, not \(width)x\(height)")
    }
    let input = try RenderRequest.loadInput(path, choices: request.render.load)
    try request.settle(isRecording: input.source != nil)
    let errors =
      request.render.colorsByError
      ? try RenderAlignmentErrors.measure(
        path, choices: request.render.load, content: input.content)
      : nil
    let made = try VideoMaker.make(
      input: input, request: request, frameErrors: errors, output: output, protecting: [path])
    Terminal.out(
      "\(made.frames) frames, \(request.render.width)×\(request.render.height) at"
        + " \(request.shot.framesPerSecond) frames/s (\(VideoOutput.kind(of: output) ?? "")),"
        + " written to \(output)")
  }
}

/// The video command's choices, parsed.
package struct VideoRequest {
  /// What each picture draws, as `render` reads it.
  package var render: RenderRequest
  package var shot: VideoShot
  var sideBySide: Bool
  /// Whether `--timeline`, `--turntable` or `--path` chose the motion.
  private var motionGiven: Bool

  package init(_ parsed: ParsedArguments) throws {
    render = try RenderRequest(parsed, command: "video")
    let fps = try parsed.number("fps", in: 1...120, unit: "frames a second").map { Int($0) } ?? 30
    let speed = Double(try parsed.number("speed", in: 0.01...100, unit: "times") ?? 1)
    let camera: VideoShot.Camera =
      parsed.value("camera").flatMap { VideoShot.Camera(rawValue: $0) } ?? .orbit
    var motions: [VideoShot.Motion] = []
    if parsed.has("timeline") { motions.append(.timeline(speed: speed)) }
    if let seconds = try parsed.number("turntable", in: 0.1...3600, unit: "seconds") {
      motions.append(.turntable(seconds: Double(seconds)))
    }
    if let posesPath = parsed.value("path") {
      motions.append(.path(try TUMTrajectory.read(path: posesPath), speed: speed))
    }
    guard motions.count <= 1 else {
      throw UsageError("--timeline, --turntable and --path each make a whole video: give one")
    }
    motionGiven = !motions.isEmpty
    shot = VideoShot(
      motion: motions.first ?? .timeline(speed: speed), camera: camera, framesPerSecond: fps)
    sideBySide = parsed.has("side-by-side")
    if let mode = parsed.value("mode") {
      render.commands += try Self.mode(mode)
    }
  }

  /// `--mode`'s commands.
  static func mode(_ text: String) throws -> [ViewerCommand] {
    switch text {
    case "up-to": return [.playback(.setMode(.upToPlayhead))]
    case "frame": return [.playback(.setMode(.currentFrameOnly))]
    default:
      guard text.hasPrefix("last:"), let count = Int(text.dropFirst(5)), count >= 1 else {
        throw UsageError("--mode is up-to, frame or last:N (N at least 1), not '\(text)'")
      }
      return [.playback(.setMode(.lastFrames)), .playback(.setLastFramesCount(count))]
    }
  }

  /// Settles what the input decides: a point-cloud file has no timeline, so it turns
  /// about itself unless told otherwise; the capture cameras and the side image need a
  /// recording.
  package mutating func settle(isRecording: Bool) throws {
    guard !isRecording else { return }
    if case .timeline = shot.motion {
      if motionGiven { throw UsageError("--timeline needs a recording; a cloud file has none") }
      shot.motion = .turntable(seconds: 8)
    }
    if shot.camera != .orbit {
      throw UsageError("--camera \(shot.camera.rawValue) needs a recording's capture cameras")
    }
    if sideBySide { throw UsageError("--side-by-side needs a recording's colour images") }
  }
}
