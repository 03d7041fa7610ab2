import CloudScrubCore
import CloudScrubFormats
import CloudScrubRender
import Foundation

/// `cloudscrub render`: draws a cloud or a recording into a PNG with no window and no
/// X server (EGL surfaceless), with the same renderer as the window.
enum RenderCommand {
  static let help = """
    usage: cloudscrub render PATH -o OUT.png [options]

    Draws PATH (a PLY file or a recording) the way the viewer shows it and writes the
    picture as PNG. Needs no display: it renders with EGL.

    options:
      -o, --output OUT.png  the picture to write
      --frames FIRST-LAST   the frames to show (default: all); the frustum is LAST's
      --size WxH            picture size in pixels (default 1280x720)
      --color rgb|height|depth|confidence|frame
                            what colours the points (default rgb)
      --point-size PX       point size in pixels (default 2)
      --min-confidence low|medium|high
                            hide points below this confidence (default low: show all)
      --camera orbit:AZIMUTH,ELEVATION,DISTANCE
                            view from these angles in degrees and this distance in
                            metres from the cloud's centre (DISTANCE 0 or absent:
                            fit the cloud)
      --camera capture:N    view through frame N's capture camera
      --edl                 eye-dome lighting
      --overlays on|off     grid, axes, trajectory and frustum (default on)
      --merge SIZE_M        while loading, keep only the first point in each voxel of
                            this size in metres (default: every point)
      --budget POINTS       draw in passes of at most this many points, as the window
                            refines a picture (default: every point in one pass; the
                            finished picture is the same)
      --renderer auto|gl|cpu
                            who draws the points: OpenGL, or the CPU point
                            rasterizer (default auto: the CPU when OpenGL is a
                            software renderer such as Mesa's llvmpipe)
      --skip-untracked      leave out the leading frames recorded before tracking
                            started (exactly zero translation; `info` lists them)
    \(PosesFlag.help)
      -h, --help            show this help
    """

  static let spec = ArgumentSpec(
    valueOptions: [
      "-o": "output", "--output": "output", "--frames": "frames", "--size": "size",
      "--color": "color", "--point-size": "point-size", "--camera": "camera",
      "--min-confidence": "min-confidence", "--overlays": "overlays", "--budget": "budget",
      "--merge": "merge", "--renderer": "renderer",
    ].merging(PosesFlag.valueOptions) { a, _ in a },
    flags: ["--help": "help", "-h": "help", "--edl": "edl"].merging(RecordingFlags.flags) { a, _ in
      a
    },
    positionals: 1...1)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("help") { return Terminal.out(help) }
    guard let output = parsed.value("output") else {
      throw UsageError("render needs an output file: -o OUT.png")
    }
    let path = parsed.positionals[0]
    let request = try RenderRequest(parsed)
    let (content, loaded) = try RenderRequest.load(
      path, frames: request.frames, skipUntracked: request.skipUntracked,
      mergeMeters: request.mergeMeters, poses: parsed.value("poses"))
    let image = try HeadlessRenderer.render(content: content, commands: loaded, request: request)
    try PNGCodec.write(image, to: output, protecting: [path])
  }
}

/// The render command's choices, parsed.
struct RenderRequest {
  var frames: ClosedRange<Int>?
  var skipUntracked = false
  var width = 1280
  var height = 720
  var commands: [ViewerCommand] = []
  var camera: CameraChoice = .fit
  /// Points a pass may hold; nil draws every point in one pass.
  var budgetPoints: Int?
  /// The ingest-time merge's voxel size; nil keeps every point.
  var mergeMeters: Float?
  var renderer: PointRendererChoice = .auto

  enum CameraChoice: Equatable {
    case fit
    case orbit(azimuthDegrees: Float, elevationDegrees: Float, distanceMeters: Float)
    case capture(frame: Int)
  }

  init(_ parsed: ParsedArguments) throws {
    if let text = parsed.value("frames") {
      frames = try RecordingFlags.frameRange(text)
    }
    skipUntracked = parsed.has("skip-untracked")
    if let text = parsed.value("size") {
      let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
      guard parts.count == 2, (16...8192).contains(parts[0]), (16...8192).contains(parts[1]) else {
        throw UsageError("--size needs WxH with each side 16 to 8192, not '\(text)'")
      }
      (width, height) = (parts[0], parts[1])
    }
    if let text = parsed.value("color") {
      guard let mode = PointColorMode(rawValue: text) else {
        throw UsageError("--color is rgb, height, depth, confidence or frame, not '\(text)'")
      }
      // The window gets each frame's alignment error from its provider; render has no
      // source of the errors yet, and a picture of grey points would say nothing.
      guard mode != .alignmentError else {
        throw UsageError(
          "--color error needs each frame's alignment error, which render does not compute yet")
      }
      commands.append(.display(.setColorMode(mode)))
    }
    mergeMeters = try RecordingFlags.ingestMerge(parsed)
    if let text = parsed.value("budget") {
      guard let points = Int(text), points >= 1 else {
        throw UsageError("--budget needs a whole number of points, at least 1, not '\(text)'")
      }
      budgetPoints = points
    }
    if let text = parsed.value("point-size") {
      guard let size = Float(text), size >= 1, size <= 32 else {
        throw UsageError("--point-size needs a number of pixels from 1 to 32, not '\(text)'")
      }
      commands.append(.display(.setPointSize(size)))
    }
    if let text = parsed.value("min-confidence") {
      guard let level = ConfidenceLevel.named(text) else {
        throw UsageError("--min-confidence is low, medium or high, not '\(text)'")
      }
      commands.append(.display(.setMinConfidence(level)))
    }
    if parsed.has("edl") { commands.append(.display(.toggleEyeDomeLighting)) }
    if let text = parsed.value("overlays") {
      guard text == "on" || text == "off" else {
        throw UsageError("--overlays is on or off, not '\(text)'")
      }
      if text == "off" {
        commands += [
          .display(.toggleGrid), .display(.toggleAxes), .display(.toggleTrajectory),
          .display(.toggleFrustum),
        ]
      }
    }
    if let text = parsed.value("camera") { camera = try Self.camera(text) }
    if let text = parsed.value("renderer") { renderer = try Self.renderer(text) }
  }

  /// The `--renderer` value `text`, as `render` and `view` spell it.
  static func renderer(_ text: String) throws -> PointRendererChoice {
    guard let choice = PointRendererChoice(rawValue: text) else {
      throw UsageError("--renderer is auto, gl or cpu, not '\(text)'")
    }
    return choice
  }

  static func camera(_ text: String) throws -> CameraChoice {
    if text.hasPrefix("capture:"), let frame = Int(text.dropFirst("capture:".count)), frame >= 0 {
      return .capture(frame: frame)
    }
    if text.hasPrefix("orbit:") {
      let numbers = text.dropFirst("orbit:".count).split(separator: ",").map { Float($0) }
      if (2...3).contains(numbers.count), numbers.allSatisfy({ $0?.isFinite == true }) {
        let values = numbers.compactMap { $0 }
        return .orbit(
          azimuthDegrees: values[0], elevationDegrees: values[1],
          distanceMeters: values.count == 3 ? values[2] : 0)
      }
    }
    throw UsageError("--camera is orbit:AZIMUTH,ELEVATION[,DISTANCE] or capture:N, not '\(text)'")
  }

  /// Loads the frames to draw: all of a PLY file, or `frames` of a recording.
  static func load(
    _ path: String, frames: ClosedRange<Int>?, skipUntracked: Bool = false,
    mergeMeters: Float? = nil, poses: String? = nil
  ) throws -> (ViewerContent, [ViewerCommand]) {
    var content = ViewerContent()
    var commands: [ViewerCommand] = []
    switch try InputLoader.open(path, poses: poses) {
    case .cloud(let input):
      commands = content.absorb(StreamingLoad(cloud: input.cloud).take())
    case .recording(let recordingPath, let source):
      content.worldUp = source.description.worldUp
      var selection = FrameSelection(range: frames)
      if skipUntracked {
        selection = try RecordingFlags.skippingUntracked(selection, source: source)
      }
      try RecordingFlags.checkSelectsFrames(
        selection, frameCount: source.frameCount, path: recordingPath)
      let loader = RecordingLoader(
        source: source, selection: selection, decoder: TurboJPEGDecoder(),
        ingestMergeMeters: mergeMeters)
      let progress = Terminal.progress("loading \(recordingPath)")
      defer { progress?.finish() }
      var batch: [LoadedFrame] = []
      try loader.stream { position, total, frameIndex, points in
        let info = try source.frameInfo(at: frameIndex)
        batch.append(
          LoadedFrame(
            frameIndex: frameIndex, timestampSeconds: info.timestampSeconds, info: info,
            points: points))
        progress?.update(Double(position + 1) / Double(max(total, 1)))
        // Into the store a few frames at a time, so the points are held once.
        if batch.count == 64 {
          commands += content.absorb(batch)
          batch = []
        }
        return true
      }
      commands += content.absorb(batch)
    }
    return (content, commands)
  }
}
