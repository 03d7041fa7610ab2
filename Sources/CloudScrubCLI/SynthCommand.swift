import CloudScrubCore
import CloudScrubFormats
import Foundation

/// `cloudscrub synth OUT`: writes synthetic data of an analytic scene — a recording in
/// CloudScrub's format, or (for an `OUT` ending in `.ply`) a coloured point cloud.
enum SynthCommand {
  static let help = """
    usage: cloudscrub synth OUT.csrec [--frames N] [--noise M] [--color jpeg|rgb] [--seed S]
                                     [--drift METRES,DEGREES]
           cloudscrub synth OUT.ply [--points N] [--normals] [--ascii] [--seed S]

    Recording (any OUT not ending in .ply): renders a capture of a room with textured
    walls, a box and a sphere, the camera moving on an arc through it, as a phone would
    record it: 256×192 depth in metres, confidence maps (low at depth edges, medium at
    grazing angles and beyond 3 m), 640×480 colour, intrinsics given for the colour size,
    OpenGL-axes poses, 30 frames per second. Written in CloudScrub's recording format.

    Point cloud (OUT.ply): samples a room corner with a sphere (floor, two walls; metres,
    y up) into a coloured point cloud.

    The same seed gives the same file on every run.

    options:
      --frames N        recording: how many frames (default 60)
      --noise M         recording: depth noise, σ = M × depth² metres (default 0: exact)
      --color jpeg|rgb  recording: colour as JPEG (default, as phones store it) or raw RGB
      --drift METRES,DEGREES
                        recording: add a known tracking drift to the stored poses (depth
                        is rendered from the true ones): zero at frame 0, growing with
                        the smoothstep 3s² − 2s³ of the time fraction s to METRES along
                        world +x and DEGREES about the vertical (+y) line through the
                        first camera centre at the last frame
      --points N        point cloud: how many points (default 100000)
      --normals         point cloud: also write unit normals
      --ascii           point cloud: write ASCII PLY instead of binary
      --seed S          random seed (default 1)
      -h, --help        show this help
    """

  static let spec = ArgumentSpec(
    valueOptions: [
      "--points": "points", "--seed": "seed", "--frames": "frames", "--noise": "noise",
      "--color": "color", "--drift": "drift",
    ],
    flags: ["--normals": "normals", "--ascii": "ascii", "--help": "help", "-h": "help"],
    positionals: 1...1)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("help") { return Terminal.out(help) }
    let seed: UInt64 =
      try parsed.value("seed").map { value in
        guard let seed = UInt64(value) else { throw UsageError("--seed needs a whole number") }
        return seed
      } ?? 1
    let output = parsed.positionals[0]
    if output.lowercased().hasSuffix(".ply") {
      try writeCloud(parsed, to: output, seed: seed)
    } else {
      try writeRecording(parsed, to: output, seed: seed)
    }
  }

  private static func writeCloud(_ parsed: ParsedArguments, to output: String, seed: UInt64) throws
  {
    let count = try parsed.value("points").map { try positiveInteger($0, option: "--points") }
    let cloud = SyntheticCloud.scene(
      count: count ?? 100_000, seed: seed, normals: parsed.has("normals"))
    let options = PLYWriteOptions(
      format: parsed.has("ascii") ? .ascii : .binaryLittleEndian,
      attributes: parsed.has("normals") ? .all : .none,
      comments: ["synthetic room corner by CloudScrub, seed \(seed)"])
    try PLYWriter.write(cloud, to: output, options: options)
  }

  private static func writeRecording(
    _ parsed: ParsedArguments, to output: String, seed: UInt64
  ) throws {
    var options = SyntheticRecordingOptions(seed: seed)
    if let frames = parsed.value("frames") {
      options.frameCount = try positiveInteger(frames, option: "--frames")
    }
    if let noise = parsed.value("noise") {
      guard let meters = Double(noise), meters >= 0, meters.isFinite else {
        throw UsageError("--noise needs a non-negative number of metres, not '\(noise)'")
      }
      options.depthNoiseMeters = meters
    }
    if let drift = parsed.value("drift") {
      options.drift = try driftValue(drift)
    }
    let jpeg: Bool
    switch parsed.value("color") ?? "jpeg" {
    case "jpeg": jpeg = true
    case "rgb": jpeg = false
    case let other: throw UsageError("--color is jpeg or rgb, not '\(other)'")
    }
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

  /// `--drift METRES,DEGREES`.
  static func driftValue(_ text: String) throws -> SyntheticDrift {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let meters = Double(parts[0]), let degrees = Double(parts[1]),
      meters.isFinite, degrees.isFinite, abs(degrees) <= 180
    else {
      throw UsageError(
        "--drift needs METRES,DEGREES (finite numbers, |DEGREES| ≤ 180), not '\(text)'")
    }
    return SyntheticDrift(translationMeters: meters, rotationRadians: degrees * Double.pi / 180)
  }

  static func positiveInteger(_ value: String, option: String) throws -> Int {
    guard let number = Int(value.replacingOccurrences(of: "_", with: "")), number > 0 else {
      throw UsageError("\(option) needs a positive whole number, not '\(value)'")
    }
    return number
  }
}
