import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub synth OUT`: writes synthetic data of an analytic scene — a recording in
/// CloudScrub's format, or (for an `OUT` ending in `.ply`) a coloured point cloud.
package enum SynthCommand {
  /// Usage and prose of `synth --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "synth",
    synopsis: [
      "synth OUT.csrec [--frames N] [--noise M] [--drift M,DEG] [--loop] [--color jpeg|rgb] [--seed S]",
      "synth OUT.ply [--points N] [--normals] [--ascii] [--seed S]",
    ],
    about: """
      Recording (any OUT not ending in .ply): renders a capture of a room with textured
      walls, a box and a sphere, the camera moving on an arc through it, as a phone would
      record it: 256×192 depth in metres, confidence maps (low at depth edges, medium at
      grazing angles and beyond 3 m), 640×480 colour, intrinsics given for the colour size,
      OpenGL-axes poses, 30 frames per second. Written in CloudScrub's recording format.

      Point cloud (OUT.ply): samples a room corner with a sphere (floor, two walls; metres,
      y up) into a coloured point cloud. Past 1,048,576 points (binary) it is written in
      pieces of that many, each sampled with its own seed, so any size streams to disk.

      The same seed gives the same file on every run.
      """)

  package static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    let seed = UInt64(try parsed.count("seed", atLeast: 0) ?? 1)
    let output = parsed.positionals[0]
    if output.lowercased().hasSuffix(".ply") {
      try writeCloud(parsed, to: output, seed: seed)
    } else {
      try writeRecording(parsed, to: output, seed: seed)
    }
  }

  private static func writeCloud(_ parsed: ParsedArguments, to output: String, seed: UInt64) throws
  {
    let count = try parsed.count("points") ?? 100_000
    let progress = Terminal.progress("writing \(output)")
    defer { progress?.finish() }
    try SyntheticFiles.writeCloud(
      count: count, seed: seed, normals: parsed.has("normals"), ascii: parsed.has("ascii"),
      to: output, progress: progress.handler)
  }

  private static func writeRecording(
    _ parsed: ParsedArguments, to output: String, seed: UInt64
  ) throws {
    var options = SyntheticRecordingOptions(seed: seed)
    if let frames = try parsed.count("frames") { options.frameCount = frames }
    if let noise = parsed.value("noise") {
      guard let meters = Double(noise), meters >= 0, meters.isFinite else {
        throw UsageError("--noise needs a non-negative number of metres, not '\(noise)'")
      }
      options.depthNoiseMeters = meters
    }
    if parsed.has("loop") { options.path = .loop }
    if let drift = try parsed.numbers(
      "drift", count: 2, syntax: "METRES,DEGREES (finite numbers, |DEGREES| ≤ 180)",
      isValid: { abs($0[1]) <= 180 })
    {
      options.drift = SyntheticDrift(
        translationMeters: drift[0], rotationRadians: drift[1] * Double.pi / 180)
    }
    let jpeg = (try parsed.choice("color", among: ["jpeg", "rgb"]) ?? "jpeg") == "jpeg"
    let progress = Terminal.progress("rendering \(output)")
    defer { progress?.finish() }
    try SyntheticFiles.writeRecording(options, jpeg: jpeg, to: output, progress: progress.handler)
  }
}
