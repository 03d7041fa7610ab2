/// Every option and positional argument of the command line, each declared once: the
/// parser (`ParsedArguments`), every `--help` text, `cloudscrub help --markdown` and the
/// guide's tables (docs/guide) are built from these rows. Adding an option is adding a
/// row here (or to one of the shared groups in `OptionTable+Loading.swift`) and reading
/// its value in the command.
enum OptionTable {
  /// The subcommands that load a recording, and so take every recording option.
  static let loading: Set<String> = ["export", "render", "view", "mesh", "video"]
  /// The subcommands that take every cleaning option (`view` seeds its cleaning panel
  /// with them).
  static let cleaning: Set<String> = ["export", "render", "view", "video"]

  static let rows: [OptionRow] =
    arguments + outputs + video + recording + fusion + cleaningRows + drawing + others

  /// The positional arguments.
  static let arguments: [OptionRow] = [
    .positional(
      "PATH", "a PLY file or a recording, detected by content",
      commands: ["info", "export", "render", "video"]),
    .positional(
      "PATH", "a PLY file or a recording; the synthetic sample recording when absent",
      commands: ["view"], optional: true),
    .positional(
      "OUT", "a recording (any name not ending in .ply) or a point cloud (OUT.ply)",
      commands: ["synth"]),
    .positional("PATH", "a recording, detected by content", commands: ["refine", "mesh"]),
    .positional(
      "KIND",
      "ply (the default), ingest, clean, view, render, lzfse, formats, scale, lod, e57, drift,"
        + " cancel, fuse or video",
      commands: ["bench"], optional: true),
    .positional(
      "RECORDING",
      "the recording that ingest, view, scale, lod, drift, cancel, fuse and video measure",
      commands: ["bench"],
      optional: true),
  ]

  /// Where and how a command writes.
  static let outputs: [OptionRow] = [
    .value(
      "output", short: "o", "OUT", default: nil,
      "where to write (required); its extension chooses the format: .ply .pcd .las .laz .e57 .xyz"
        + " .txt .csv .copc.laz",
      commands: ["export"], window: "Export › file name"),
    .value(
      "format", "ply|pcd|las|laz|e57|xyz|csv|copc", default: "OUT's extension",
      "write this format whatever OUT's extension", commands: ["export"]),
    .value(
      "output", short: "o", "OUT.png", default: nil, "the picture to write (required)",
      commands: ["render"]),
    .value(
      "output", short: "o", "POSES.txt", default: nil,
      "the TUM trajectory to write (required)", commands: ["refine"]),
    .value(
      "poses", "POSES.txt", default: "the recording's own poses",
      "use this TUM trajectory (as `refine` writes it) instead of the recording's poses;"
        + " frames matched by line order, and its pose count must equal the recording's"
        + " frame count (view: for the recording named on the command line)",
      commands: ["export", "render", "view", "info", "refine", "mesh", "video"]),
    .flag(
      "refine",
      "refine the recording's poses first (as `cloudscrub refine` does, starting from"
        + " --poses when given) and export with them",
      commands: ["export", "mesh"]),
    .flag(
      "hold-tilt",
      "refine yaw and translation only, keeping each frame's recorded tilt off gravity (the"
        + " recording's world is gravity-aligned; ARKit's drift is mostly yaw and"
        + " translation): steadies long open walks, but a drift that really tilts keeps its"
        + " tilt",
      commands: ["refine", "export", "mesh"]),
    .flag(
      "local",
      "refine each frame against the frames before it only, without closing loops (faster;"
        + " drift that builds up before the camera comes back stays)",
      commands: ["refine", "export", "mesh"]),
    .flag(
      "alignment",
      "for a recording, also measure every frame's alignment error (how far registering it"
        + " to the frames of the 2 s before it moves its points; this decodes every frame's"
        + " depth) and print its median and the worst stretches of frames: frames, times,"
        + " millimetres; then refine the poses as `refine` does and print the loops it"
        + " closed, the pose jumps it found and the ghosting before and after",
      commands: ["info"]),
    .value(
      "alignment", "on|off", default: "on",
      "once a recording has loaded, measure each frame's alignment error in the background"
        + " for the timeline's curve, the error colours and the pick panel",
      commands: ["view"], window: "Timeline › the error curve"),
    .flag("ascii", "write ASCII PLY (or PCD) instead of binary", commands: ["export"]),
    .value(
      "e57-scans", "one|frames", default: "one",
      "E57 from a recording: one scan of every point, or one scan a frame, posed with its"
        + " camera's camera-to-world pose and holding its points in that camera's"
        + " coordinates (a merged point goes with the frame of its voxel's first point)",
      commands: ["export"]),
    .flag("ascii", "write ASCII PLY instead of binary", commands: ["synth"]),
    .value(
      "attributes", "LIST", default: "none",
      "also write these fields, comma-separated: 'normal' and any attribute the cloud carries"
        + " ('confidence' and 'frame' for recordings), or 'all' or 'none'",
      commands: ["export"]),
    .flag(
      "json", "print one JSON object (keys in a fixed order) instead of text",
      commands: ["info"]),
    .value(
      "read", "points|header|auto", default: "auto",
      "LAS and LAZ: read every point (bounds, fields and frames from the points), or describe"
        + " the file from its header and VLRs alone (the header's count and bounds, the"
        + " fields its point format declares) in a moment; auto reads the points of files of"
        + " up to \(InfoCommand.pointsReadAtMost) points",
      commands: ["info"]),
  ]

  /// How `render` and `view` draw.
  static let drawing: [OptionRow] = [
    .value(
      "size", "WxH", default: "1280x720", "picture size in pixels, each side 16 to 8192",
      commands: ["render", "video"]),
    .value(
      "size", "WxH", default: "1280x800", "window size in pixels, at least 320x240",
      commands: ["view"]),
    .value(
      "color", "rgb|height|depth|confidence|frame|error|intensity",
      default:
        "rgb; height, with eye-dome lighting, for points with no colour; intensity for"
        + " points with intensity and no colour",
      "what colours the points (error: each frame's alignment error, as `info --alignment` "
        + "measures it, blue to red; intensity: a scan's intensity in greys, its 1st to 99th "
        + "percentile black to white)", commands: ["render", "video"], window: "keys 1–7"),
    .value(
      "point-size", "PX", default: "2", "point size in pixels, 1 to 32",
      commands: ["render", "video"],
      window: "Points › size (px); +/− keys"),
    .value(
      "camera", "orbit:AZIMUTH,ELEVATION[,DISTANCE]|capture:N", default: "fit the cloud",
      "view from these angles in degrees and this distance in metres from the cloud's centre"
        + " (DISTANCE 0 or absent: fit the cloud), or through frame N's capture camera",
      commands: ["render"], window: "mouse drags; View › Capture (C)"),
    .flag(
      "edl", "eye-dome lighting", commands: ["render", "video"],
      window: "Points › eye-dome lighting; E key"),
    .value(
      "overlays", "on|off", default: "on", "grid, axes, trajectory and frustum",
      commands: ["render", "video"],
      window: "View › grid, axes, trajectory, frustum; G, A, T, K keys"),
    .value(
      "budget", "POINTS", default: "every point in one pass",
      "draw through a level of detail in passes of at most this many points, coarse first,"
        + " each over the last, as the window refines a picture (the finished picture is the"
        + " same)",
      commands: ["render"]),
    .value(
      "surface", "points|mesh|both", default: "mesh",
      "what a mesh file (OBJ, glTF) shows: its triangles, its vertices as points, or both",
      commands: ["render", "video"], window: "Model › points, mesh, both; S key"),
    .value(
      "renderer", "auto|gl|cpu",
      default: "auto: the CPU when OpenGL is a software renderer such as Mesa's llvmpipe",
      "who draws the points: OpenGL, or the CPU point rasterizer",
      commands: ["render", "view", "video"], window: "the OpenGL / CPU switch"),
    .value(
      "level-of-detail", "on|off", default: "on",
      "draw through a spatial level of detail built while the points load (nodes in view by"
        + " size on screen, coarse first, GPU memory as a cache of nodes); off draws every"
        + " k-th frame a pass from the whole store",
      commands: ["view"]),
    .value(
      "gpu-cache", "SIZE", default: "2G",
      "GPU memory the level of detail's nodes may hold (K, M, G suffixes: 512M, 2G); past it"
        + " the least recently used nodes are evicted and uploaded again when needed; at least"
        + " 1M",
      commands: ["view", "render", "video"]),
    .flag(
      "exit-after-first-frame",
      "print how long the first frame with points took to reach the screen, then close (for"
        + " benchmarks)",
      commands: ["view"]),
  ]

  /// The options of `synth` and `bench`, and help.
  static let others: [OptionRow] = [
    .value(
      "frames", "N", default: "60", "recording: how many frames", commands: ["synth"]),
    .value(
      "noise", "M", default: "0: exact", "recording: depth noise, σ = M × depth² metres",
      commands: ["synth"]),
    .value(
      "color", "jpeg|rgb", default: "jpeg, as phones store it",
      "recording: colour as JPEG or raw RGB", commands: ["synth"]),
    .value(
      "points", "N", default: "100000", "point cloud: how many points", commands: ["synth"]),
    .flag("normals", "point cloud: also write unit normals", commands: ["synth"]),
    .value("seed", "S", default: "1", "random seed", commands: ["synth"]),
    .flag(
      "loop", "recording: the camera goes out along its arc and comes back to its start",
      commands: ["synth"]),
    .value(
      "drift", "METRES,DEGREES", default: "none",
      "recording: add a known tracking drift to the stored poses (depth is rendered from"
        + " the true ones): zero at frame 0, growing with the smoothstep 3s² − 2s³ of the"
        + " time fraction s to METRES along world +x and DEGREES about the vertical (+y) line"
        + " through the first camera centre at the last frame",
      commands: ["synth"]),
    .value(
      "points", "N", default: "10000000; 20000000 for render", "points to generate",
      commands: ["bench"]),
    .value(
      "dir", "DIR", default: "a folder in /tmp, removed afterwards",
      "where to write the files", commands: ["bench"]),
    .value(
      "repeat", "R", default: "3", "timed runs per measurement; the best is kept",
      commands: ["bench"]),
    .value(
      "frames", "N", default: "600", "scale: frames of the synthetic capture made first",
      commands: ["bench"]),
    .value(
      "voxel", "SIZE_M", default: "0.01", "fuse: the fusion's voxel size in metres",
      commands: ["bench"]),
    .value(
      "steps", "LIST", default: "all",
      "scale: the steps to run, comma-separated, of cat, raw (the raw export), voxel, merge,"
        + " render, lod, window and ply (leave the slow ones out on a huge capture); huge: of"
        + " first, window and process",
      commands: ["bench"]),
    .value(
      "open3d-script", "PATH",
      default:
        "bench/open3d_ply.py, or bench/open3d_ingest.py, bench/open3d_clean.py or"
        + " bench/open3d_fuse.py",
      "the Open3D side", commands: ["bench"]),
    .flag(
      "help", short: "h", "show this help",
      commands: ["info", "export", "render", "view", "refine", "mesh", "video", "synth", "bench"]),
  ]

  /// The subcommands' usage lines and prose, by name.
  static func command(_ name: String) -> CommandSpec {
    switch name {
    case "export": return ExportCommand.spec
    case "render": return RenderCommand.spec
    case "view": return ViewCommand.spec
    case "info": return InfoCommand.spec
    case "synth": return SynthCommand.spec
    case "refine": return RefineCommand.spec
    case "mesh": return MeshCommand.spec
    case "video": return VideoCommand.spec
    default: return BenchUsage.spec
    }
  }

  /// The names of the subcommands with options, in the order help lists them.
  static let commandNames = [
    "info", "export", "render", "view", "refine", "mesh", "video", "synth", "bench",
  ]

  /// Every subcommand's table as Markdown, what `cloudscrub help --markdown` prints
  /// and docs/guide holds, a command a page, between its `options` markers.
  static var markdown: String {
    commandNames.map { command($0).markdown }.joined(separator: "\n\n")
  }
}
