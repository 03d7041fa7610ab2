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
    let count = try parsed.count("points")
    let comments = ["synthetic room corner by CloudScrub, seed \(seed)"]
    if let count, count > SyntheticCloud.streamedPiecePoints, !parsed.has("ascii") {
      // Large clouds are written piece by piece, never held whole.
      let progress = Terminal.progress("writing \(output)")
      defer { progress?.finish() }
      return try SyntheticCloud.writeScene(
        count: count, seed: seed, normals: parsed.has("normals"), comments: comments,
        to: output, progress: progress.handler)
    }
    let cloud = SyntheticCloud.scene(
      count: count ?? 100_000, seed: seed, normals: parsed.has("normals"))
    let options = PLYWriteOptions(
      format: parsed.has("ascii") ? .ascii : .binaryLittleEndian,
      attributes: parsed.has("normals") ? .all : .none,
      comments: comments)
    try PLYWriter.write(cloud, to: output, options: options)
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
    let source = SyntheticRecordingSource(options: options)
    // Written under a temporary name and renamed into place, like every export.
    let url = URL(fileURLWithPath: output)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
    let writer = try CloudScrubRecordingWriter(
      path: temporary,
      metadata: RecordingMetadata(
        appName: "CloudScrub synth", deviceModel: "synthetic scene, seed \(seed)",
        framesPerSecond: options.framesPerSecond, depthSensor: .lidar))
    let progress = Terminal.progress("rendering \(output)")
    defer { progress?.finish() }
    do {
      let encoder = TurboJPEGEncoder(quality: 92)
      for index in 0..<source.frameCount {
        var frame = try source.frame(at: index)
        if jpeg, case .rgb(let image) = frame.color {
          frame.color = .jpeg(try encoder.encode(image))
        }
        try writer.append(frame, orientation: .landscapeRight)
        progress?.update(Double(index + 1) / Double(source.frameCount))
      }
      try writer.finish()
      guard rename(temporary, output) == 0 else {
        throw FileError(.cannotWrite(String(cString: strerror(errno))), path: output)
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }
}
