import CloudScrubApp
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// `cloudscrub view [PATH]`: the viewer window.
enum ViewCommand {
  /// Usage and prose of `view --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "view",
    synopsis: ["view [PATH] [options]"],
    about: """
      Opens the viewer window on PATH (a PLY file or a recording), or on the synthetic
      sample recording when PATH is absent. Files can also be dropped on the window.

      Keys: space play/pause · ←/→ step (shift: 10) · Home/End · M timeline mode ·
      F fit · R reset view · C look through the capture camera · 1–7 colour mode
      (rgb, height, depth, confidence, frame, alignment error, intensity) · +/− point size ·
      E eye-dome lighting · G grid · A axes · T trajectory · K frustum.
      Mouse: left-drag orbits, right- or middle-drag (or shift+left) pans, the wheel
      zooms toward the cursor; a click without a drag picks the point under it.

      Once a recording has loaded, each frame's alignment error is measured in the
      background (as 'info --alignment' does) and drawn as a curve on the timeline;
      the timeline grows to hold it.

      With no display (DISPLAY and WAYLAND_DISPLAY unset) it says so and exits with
      status 1; 'cloudscrub render' draws pictures with no display.
      """)

  /// The name `view` uses for the built-in sample.
  static let samplePath = DocumentOpener.samplePath

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    var options = ViewerOptions(
      path: parsed.positionals.first ?? samplePath,
      exitAfterFirstFrame: parsed.has("exit-after-first-frame"))
    options.renderer = try parsed.choice("renderer", of: PointRendererChoice.self) ?? .auto
    if let levelOfDetail = try parsed.onOff("level-of-detail") {
      options.levelOfDetail = levelOfDetail
    }
    options.gpuCacheBytes =
      try parsed.byteSize("gpu-cache", atLeast: 1 << 20) ?? options.gpuCacheBytes
    if let size = try parsed.size("size", widths: 320...8192, heights: 240...8192) {
      (options.widthPixels, options.heightPixels) = size
    }
    var opener = DocumentOpener()
    opener.choices = try LoadChoices(parsed, readsMerge: false)
    opener.choicesPath = options.path
    options.cleaning = opener.choices.cleaning
    switch parsed.value("merge") {
    case nil, "auto": opener.merge = .automatic
    case "off": opener.merge = .off
    default: opener.merge = .voxel(meters: try RecordingFlags.ingestMerge(parsed) ?? 0)
    }
    guard hasDisplay else {
      throw ViewerError(
        "no display: DISPLAY and WAYLAND_DISPLAY are unset; use 'cloudscrub render' for a picture")
    }
    let measures = try parsed.onOff("alignment") ?? true
    try ViewerApp.run(
      options: options, opener: opener, alignment: measures ? BackgroundAlignment() : nil)
  }

  static var hasDisplay: Bool {
    let environment = ProcessInfo.processInfo.environment
    return !(environment["DISPLAY"] ?? "").isEmpty
      || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
  }
}
