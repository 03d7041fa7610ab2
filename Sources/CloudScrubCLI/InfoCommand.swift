import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession

/// `cloudscrub info PATH [--json]`: what a file holds.
enum InfoCommand {
  /// Usage and prose of `info --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "info",
    synopsis: [
      "info PATH [--json] [--read points|header|auto]"
    ],
    about: """
      Describes a PLY point cloud (format, point count, bounds, the fields and attributes
      each point carries, the file's elements and comments, and its frames when points
      carry a 'frame' property) or a recording (format and app, frames, duration, frame
      rate, depth and colour sizes, world up axis, intrinsics, trajectory length and the
      camera's bounds, frames recorded before tracking started, and the importer's notes,
      such as missing frame files). The format is detected from the content; a folder
      holding one recording one level down opens that one. A .r3d holding only its
      metadata is described from the metadata. A LAS or LAZ file of more than ten million
      points is described from its header and VLRs unless --read points.
      """)

  /// The most points `--read auto` reads from a LAS or LAZ file (about two seconds).
  static let pointsReadAtMost = 10_000_000

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    if let summary = try lasSummary(parsed) {
      let info = LASHeaderInfo(path: parsed.positionals[0], summary: summary)
      return Terminal.out(parsed.has("json") ? info.json.rendered() : info.text)
    }
    let input: Input
    do {
      input = try CommandInput.open(
        parsed.positionals[0], choices: LoadChoices(posesPath: parsed.value("poses")))
    } catch let error as R3DError {
      guard case .metadataOnly = error.reason else { throw error }
      // A .r3d with no frames still says what its metadata holds.
      let info = try metadataOnlyInfo(error.path, error: error)
      return Terminal.out(parsed.has("json") ? info.json.rendered() : info.text)
    }
    switch input {
    case .cloud(let input):
      Terminal.out(parsed.has("json") ? json(input).rendered() : text(input))
    case .recording(let path, let source):
      var info = try RecordingInfo(path: path, source: source)
      if parsed.has("alignment") {
        let progress = Terminal.progress("measuring and refining \(path)")
        let result = try DriftAlignment.run(
          source, refine: true, progress: progress.handler, measuresRecordedPoses: true)
        progress?.finish()
        info.alignment = (result.recordedErrors ?? result.errors, result.timestampsSeconds)
        info.refinement = try RefinementQuality(result, source: source)
      }
      Terminal.out(parsed.has("json") ? info.json.rendered() : info.text)
    }
  }

  /// The header summary of the LAS or LAZ file `info` was given, when `--read` says to
  /// describe it from its header; nil for every other file, and for a LAS or LAZ file
  /// whose points are to be read.
  ///
  /// - Throws: `UsageError` for a `--read` value that is not one of the three; the
  ///   reader's errors for a LAS file whose header cannot be read.
  static func lasSummary(_ parsed: ParsedArguments) throws -> LASReader.Summary? {
    let mode = parsed.value("read") ?? "auto"
    guard ["points", "header", "auto"].contains(mode) else {
      throw UsageError("--read takes points, header or auto, not '\(mode)'")
    }
    let path = parsed.positionals[0]
    guard mode != "points",
      (try? InputDetector.kind(of: path)) == .cloud(format: LASFileFormat.name)
    else { return nil }
    let summary = try LASReader.summary(path: path)
    return mode == "header" || summary.header.points > pointsReadAtMost ? summary : nil
  }

  /// What the `metadata` of a `.r3d` without frames says: its sizes, rate and
  /// intrinsics, and the trajectory of its poses; no frames.
  static func metadataOnlyInfo(_ path: String, error: R3DError) throws -> RecordingInfo {
    let metadata = try R3DRecording.readMetadata(path: path)
    let infos = metadata.worldFromCameraPoses.indices.map { number in
      FrameInfo(
        timestampSeconds: metadata.timestampSeconds(frame: number),
        intrinsics: metadata.intrinsics(frame: number),
        pose: CameraPose(worldFromCamera: metadata.worldFromCameraPoses[number], axes: .openGL))
    }
    var notes = [error.reason.description]
    notes.append(
      "duration, intrinsics and trajectory are those of the \(infos.count) poses in the metadata")
    if !metadata.hasDepthSize {
      notes.append(
        "metadata has no dw/dh: depth size taken as \(metadata.depthWidth)×\(metadata.depthHeight)")
    }
    let description = RecordingDescription(
      format: R3DFormat.name + " (metadata only)", app: "Record3D",
      framesPerSecond: metadata.framesPerSecond, depthWidth: metadata.depthWidth,
      depthHeight: metadata.depthHeight, colorWidth: metadata.colorWidth,
      colorHeight: metadata.colorHeight, notes: notes)
    return RecordingInfo(path: path, description: description, frameCount: 0, infos: infos)
  }

  // MARK: - JSON

  static func json(_ input: LoadedInput) -> JSON {
    let cloud = input.cloud
    let header = input.header
    let bounds: JSON =
      cloud.bounds.map { bounds in
        .object([
          ("min", .array([.float(bounds.min.x), .float(bounds.min.y), .float(bounds.min.z)])),
          ("max", .array([.float(bounds.max.x), .float(bounds.max.y), .float(bounds.max.z)])),
        ])
      } ?? .null
    let common: [(String, JSON)] = [
      ("points", .int(cloud.count)),
      ("bounds", bounds),
      ("fields", .array(InfoTable.fields(cloud).map(JSON.string))),
      (
        "attributes",
        .array(
          cloud.attributes.map {
            .object([("name", .string($0.name)), ("type", .string($0.values.scalarType.plyName))])
          })
      ),
    ]
    let timelineFrames =
      InfoTable.timeline(cloud).map { [("timeline_frames", JSON.int($0.frames))] } ?? []
    guard let header else {
      let triangles = input.triangles.map { [("triangles", JSON.int($0.count))] } ?? []
      return .object(
        [("path", .string(input.path)), ("format", .string(input.format))] + common + triangles
          + [("comments", .array(input.comments.map(JSON.string)))] + timelineFrames)
    }
    return .object(
      [
        ("path", .string(input.path)),
        ("format", .string("ply")),
        ("encoding", .string(header.format.rawValue)),
        ("version", .string(header.version)),
      ] + common + [
        (
          "elements",
          .array(
            header.elements.map { element in
              .object([
                ("name", .string(element.name)),
                ("count", .int(element.count)),
                (
                  "properties",
                  .array(
                    element.properties.map {
                      .object([("name", .string($0.name)), ("type", .string($0.kind.plyName))])
                    })
                ),
              ])
            })
        ),
        ("comments", .array(header.comments.map(JSON.string))),
        ("obj_info", .array(header.objInfo.map(JSON.string))),
      ] + timelineFrames)
  }

  // MARK: - Text

  static func text(_ input: LoadedInput) -> String {
    let cloud = input.cloud
    let header = input.header
    var rows: [(String, String)] = [
      ("format", input.format),
      ("points", String(cloud.count)),
    ]
    if let triangles = input.triangles {
      rows[1] = ("vertices", String(cloud.count))
      rows.append(("faces", "\(triangles.count) triangles (the vertices are the points)"))
    }
    if let bounds = cloud.bounds {
      let size = Point3(
        bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y, bounds.max.z - bounds.min.z)
      rows.append(
        (
          "bounds",
          "min (\(bounds.min.x), \(bounds.min.y), \(bounds.min.z))"
            + "  max (\(bounds.max.x), \(bounds.max.y), \(bounds.max.z))"
        ))
      rows.append(("size", "\(size.x) × \(size.y) × \(size.z)"))
    } else {
      rows.append(("bounds", "none (no finite points)"))
    }
    rows.append(("fields", InfoTable.fields(cloud).joined(separator: ", ")))
    if let timeline = InfoTable.timeline(cloud) {
      rows.append(
        (
          "timeline",
          "\(timeline.frames) frames (values \(timeline.first)–\(timeline.last) of 'frame'), "
            + "opened as a timeline by view and render"
        ))
    }
    for (index, element) in (header?.elements ?? []).enumerated() {
      let properties = element.properties.map { "\($0.name) \($0.kind.plyName)" }
      rows.append(
        (
          index == 0 ? "elements" : "",
          "\(element.name) \(element.count): \(properties.joined(separator: ", "))"
        ))
    }
    for (index, comment) in input.comments.enumerated() {
      rows.append((index == 0 ? "comments" : "", comment))
    }
    for (index, info) in (header?.objInfo ?? []).enumerated() {
      rows.append((index == 0 ? "obj_info" : "", info))
    }
    return InfoTable.table(input.path, rows)
  }
}

extension PLYPropertyKind {
  /// The type as a PLY header spells it: `float`, or `list uchar int`.
  var plyName: String {
    switch self {
    case .scalar(let type): type.plyName
    case .list(let count, let item): "list \(count.plyName) \(item.plyName)"
    }
  }
}
