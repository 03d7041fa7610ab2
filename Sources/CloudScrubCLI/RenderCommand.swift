import CloudScrubCore
import CloudScrubFormats
import CloudScrubRender
import CloudScrubSession
import Foundation

/// `cloudscrub render`: draws a cloud or a recording into a PNG with no window and no
/// X server (EGL surfaceless), with the same renderer as the window.
enum RenderCommand {
  /// Usage and prose of `render --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "render",
    synopsis: ["render PATH -o OUT.png [options]"],
    about: """
      Draws PATH (a PLY file or a recording) the way the viewer shows it and writes the
      picture as PNG. Needs no display: it renders with EGL. The recording and cleaning
      options load and clean the points as 'cloudscrub export' does.
      """)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    guard let output = parsed.value("output") else {
      throw UsageError("render needs an output file: -o OUT.png")
    }
    let path = parsed.positionals[0]
    let request = try RenderRequest(parsed)
    // `bench render` reads these marks for its breakdown of a render's time.
    StartupTrace.mark("render: started")
    let input = try RenderRequest.loadInput(path, choices: request.load)
    StartupTrace.mark("render: read")
    let errors =
      request.colorsByError
      ? try RenderAlignmentErrors.measure(path, choices: request.load, content: input.content)
      : nil
    let image = try HeadlessRenderer.render(
      content: input.content, commands: input.commands, request: request, frameErrors: errors,
      mesh: input.mesh)
    StartupTrace.mark("render: drawn")
    try PNGCodec.write(image, to: output, protecting: [path])
    StartupTrace.mark("render: written")
  }
}

/// The render command's choices, parsed.
package struct RenderRequest {
  /// The recording and cleaning options: which points are loaded, as `export` loads them.
  package var load = LoadChoices()
  var width = 1280
  var height = 720
  var commands: [ViewerCommand] = []
  var camera: CameraChoice = .fit
  /// Points a pass may hold, drawn through a level of detail; nil draws every point in
  /// one pass.
  var budgetPoints: Int?
  /// Bytes of GPU memory the level of detail's node cache may hold.
  var gpuCacheBytes = LODNodeCache.defaultLimitBytes
  var renderer: PointRendererChoice = .auto
  /// `--color error`: the points take their frame's alignment error's colour.
  var colorsByError = false
  /// `--surface`: what a mesh shows; nil: its triangles.
  var surface: SurfaceShown?

  var frames: ClosedRange<Int>? { load.selection.range }

  enum CameraChoice: Equatable {
    case fit
    case orbit(azimuthDegrees: Float, elevationDegrees: Float, distanceMeters: Float)
    case capture(frame: Int)
  }

  /// - Parameter command: the command parsed; `video` reads `--camera capture` and
  ///   `--camera follow` itself.
  init(_ parsed: ParsedArguments, command: String = "render") throws {
    load = try LoadChoices(parsed)
    if let size = try parsed.size("size", widths: 16...8192, heights: 16...8192) {
      (width, height) = size
    }
    if let mode = try parsed.choice("color", among: Self.colorModes.map(\.rawValue)) {
      let colorMode = PointColorMode(rawValue: mode) ?? .rgb
      colorsByError = colorMode == .alignmentError
      commands.append(.display(.setColorMode(colorMode)))
    }
    budgetPoints = try parsed.count("budget")
    gpuCacheBytes = try parsed.byteSize("gpu-cache", atLeast: 1 << 20) ?? gpuCacheBytes
    if let size = try parsed.number("point-size", in: 1...32, unit: "pixels") {
      commands.append(.display(.setPointSize(size)))
    }
    // The window's filter too, so that a PLY cloud's confidence attribute is filtered.
    if let level = try parsed.level("min-confidence") {
      commands.append(.display(.setMinConfidence(level)))
    }
    if parsed.has("edl") { commands.append(.display(.setEyeDomeLighting(true))) }
    if try parsed.onOff("overlays") == false {
      commands += [
        .display(.toggleGrid), .display(.toggleAxes), .display(.toggleTrajectory),
        .display(.toggleFrustum),
      ]
    }
    if let text = parsed.value("camera"),
      command != "video" || VideoShot.Camera(rawValue: text) == nil
    {
      camera = try Self.camera(text)
    }
    renderer = try parsed.choice("renderer", of: PointRendererChoice.self) ?? .auto
    surface = try parsed.choice("surface", of: SurfaceShown.self)
  }

  /// The colour modes `--color` offers: all of the window's (for `error`, render
  /// measures the errors itself, `RenderAlignmentErrors`).
  static let colorModes = PointColorMode.allCases

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
  package static func load(
    _ path: String, frames: ClosedRange<Int>?, skipUntracked: Bool = false,
    mergeMeters: Float? = nil
  ) throws -> (ViewerContent, [ViewerCommand]) {
    var choices = LoadChoices()
    choices.selection.range = frames
    choices.skipUntracked = skipUntracked
    choices.mergeMeters = mergeMeters
    return try load(path, choices: choices)
  }

  /// What `render` draws: the points, the commands their load produced, and a mesh
  /// file's triangles.
  package struct Input {
    package var content: ViewerContent
    package var commands: [ViewerCommand]
    /// The mesh of an OBJ or glTF file (its vertices are the content's points); nil for
    /// any other input, or when cleaning changed the points.
    package var mesh: TriangleMesh?
    /// The recording the points came from; nil for a point-cloud file.
    package var source: (any RecordingSource)?
  }

  /// `loadInput`'s points and commands.
  static func load(_ path: String, choices: LoadChoices) throws -> (ViewerContent, [ViewerCommand])
  {
    let input = try loadInput(path, choices: choices)
    return (input.content, input.commands)
  }

  /// Loads what `choices` pick of `path`: a point-cloud file's points (a mesh file's
  /// vertices, and its triangles), or a recording's selected frames filtered as
  /// `export` filters them; then cleaned, when a cleaning step was asked for, by the
  /// same pipeline as `export`.
  package static func loadInput(_ path: String, choices: LoadChoices) throws -> Input {
    var content = ViewerContent()
    var commands: [ViewerCommand] = []
    var mesh: TriangleMesh?
    // --min-confidence still hides a PLY's points by their confidence attribute.
    let opened = try CommandInput.opened(path, choices: choices, applying: ["min-confidence"])
    if !choices.cleans, opened.kind == .cloud(format: LASFileFormat.name),
      let octree = try InputLoader.openOctree(opened.path)
    {
      content.worldUp = .z
      let commands = try absorb(octree, into: &content, path: path)
      return Input(content: content, commands: commands)
    }
    switch opened.recording {
    case nil:
      let input = try InputLoader.loadCloud(opened.path)
      var cloud = input.cloud
      content.worldUp = input.worldUp
      if choices.cleans {
        cloud = try choices.clean(cloud, worldUp: input.worldUp, viewpoint: { _ in nil })
        if input.triangles != nil {
          Terminal.error("note: cleaning changed the mesh's vertices; its triangles are not drawn")
        }
      } else if let triangles = input.triangles {
        mesh = TriangleMesh(vertices: cloud, triangles: triangles)
      }
      commands = content.absorb(StreamingLoad(cloud: cloud).take())
    case let source?:
      let recordingPath = opened.path
      content.worldUp = source.description.worldUp
      let selection = try choices.frames(of: source, path: recordingPath)
      let loader = RecordingLoader(
        source: source, selection: selection, unprojection: choices.unprojection,
        decoder: TurboJPEGDecoder(), ingestMergeMeters: choices.mergeMeters)
      if choices.cleans {
        let cleaned = try loadCleaned(loader, path: recordingPath, choices, into: &content)
        return Input(content: content, commands: cleaned, source: source)
      }
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
      return Input(content: content, commands: commands, source: source)
    }
    return Input(content: content, commands: commands, mesh: mesh)
  }

  /// The levels of a COPC file's octree that fit the viewer, read as the window reads
  /// them (`DocumentOpener`): a picture of a cloud larger than the viewer's memory costs
  /// what the window's does, not a read of every point.
  private static func absorb(
    _ octree: (load: OctreeLevelLoad, summary: String, file: MappedFile),
    into content: inout ViewerContent,
    path: String
  ) throws -> [ViewerCommand] {
    Terminal.error("note: \(path): \(octree.summary)")
    let progress = Terminal.progress("loading \(path)")
    defer { progress?.finish() }
    let load = octree.load.start()
    var commands: [ViewerCommand] = []
    var taken = 0
    while true {
      // The load waits while what it delivered is not taken, so take as it comes.
      _ = load.waitForFrames(timeout: 60)
      let frames = load.take()
      taken += frames.reduce(0) { $0 + $1.points.count }
      progress?.update(Double(taken) / Double(max(octree.load.pointsRead, 1)))
      commands += content.absorb(frames)
      guard case .loading = load.status else { break }
    }
    commands += content.absorb(load.take())
    if case .failed(let message) = load.status {
      throw FileError(.cannotRead(message), path: path)
    }
    return commands
  }

  /// A recording's frames merged, cleaned, and split back into frames.
  private static func loadCleaned(
    _ loader: RecordingLoader, path: String, _ choices: LoadChoices,
    into content: inout ViewerContent
  ) throws -> [ViewerCommand] {
    let source = loader.source
    let progress = Terminal.progress("loading \(path)")
    let store = try loader.load(progress: { progress?.update($0.fraction) })
    progress?.finish()
    let cleaned = try choices.clean(
      store.cloud(), worldUp: source.description.worldUp,
      viewpoint: ExportSteps.viewpoint(source))
    return content.absorb(
      try LoadChoices.frames(of: cleaned, frameIndices: store.frameIndices, source: source))
  }
}
