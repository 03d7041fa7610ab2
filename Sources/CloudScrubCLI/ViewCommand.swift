import CloudScrubApp
import CloudScrubCore
import CloudScrubRender
import Foundation

/// `cloudscrub view [PATH]`: the viewer window.
enum ViewCommand {
  static let help = """
    usage: cloudscrub view [PATH] [--size WxH] [--merge SIZE_M|auto|off]
                           [--renderer auto|gl|cpu]

    Opens the viewer window on PATH (a PLY file or a recording), or on the synthetic
    sample recording when PATH is absent. Files can also be dropped on the window.

    Keys: space play/pause · ←/→ step (shift: 10) · Home/End · M timeline mode ·
    F fit · R reset view · C look through the capture camera · 1–5 colour mode
    (rgb, height, depth, confidence, frame) · +/− point size · E eye-dome lighting ·
    G grid · A axes · T trajectory · K frustum.
    Mouse: left-drag orbits, right- or middle-drag (or shift+left) pans, the wheel
    zooms toward the cursor.

    With no display (DISPLAY and WAYLAND_DISPLAY unset) it says so and exits with
    status 1; 'cloudscrub render' draws pictures with no display.

    options:
      --size WxH   window size (default 1280x800)
      --merge SIZE_M|auto|off
                   while a recording loads, keep only the first point in each voxel
                   of this size in metres; auto (the default) merges at 5 mm only
                   when every point would not fit the viewer's memory (a quarter of
                   this machine's, at most 4 GB), and says so in the window
      --renderer auto|gl|cpu
                   who draws the points: OpenGL, or the CPU point rasterizer
                   (default auto: the CPU when OpenGL is a software renderer such
                   as Mesa's llvmpipe); the View panel shows it and can switch
      --level-of-detail on|off
                   draw through a spatial level of detail built while the points
                   load (nodes in view by size on screen, coarse first, GPU memory
                   as a cache of nodes; the default); off draws every k-th frame a
                   pass from the whole store, as before
      --exit-after-first-frame
                   print how long the first frame with points took to reach the
                   screen, then close (for benchmarks)
      -h, --help   show this help
    """

  static let spec = ArgumentSpec(
    valueOptions: [
      "--size": "size", "--merge": "merge", "--renderer": "renderer",
      "--level-of-detail": "level-of-detail",
    ],
    flags: ["--help": "help", "-h": "help", "--exit-after-first-frame": "exit-after-first-frame"],
    positionals: 0...1)

  /// The name `view` uses for the built-in sample.
  static let samplePath = "sample:"

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("help") { return Terminal.out(help) }
    var options = ViewerOptions(
      path: parsed.positionals.first ?? samplePath,
      exitAfterFirstFrame: parsed.has("exit-after-first-frame"))
    if let text = parsed.value("renderer") { options.renderer = try RenderRequest.renderer(text) }
    if let text = parsed.value("level-of-detail") {
      guard text == "on" || text == "off" else {
        throw UsageError("--level-of-detail takes on or off, not '\(text)'")
      }
      options.levelOfDetail = text == "on"
    }
    if let text = parsed.value("size") {
      let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
      guard parts.count == 2, (320...8192).contains(parts[0]), (240...8192).contains(parts[1])
      else {
        throw UsageError("--size needs WxH with at least 320x240, not '\(text)'")
      }
      (options.widthPixels, options.heightPixels) = (parts[0], parts[1])
    }
    var opener = CommandLineDocumentOpener()
    switch parsed.value("merge") {
    case nil, "auto": opener.merge = .automatic
    case "off": opener.merge = .off
    default: opener.merge = .voxel(meters: try RecordingFlags.ingestMerge(parsed) ?? 0)
    }
    guard hasDisplay else {
      throw ViewerError(
        "no display: DISPLAY and WAYLAND_DISPLAY are unset; use 'cloudscrub render' for a picture")
    }
    try ViewerApp.run(options: options, opener: opener)
  }

  static var hasDisplay: Bool {
    let environment = ProcessInfo.processInfo.environment
    return !(environment["DISPLAY"] ?? "").isEmpty
      || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
  }
}
