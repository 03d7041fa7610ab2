import Foundation
import CloudScrubCore

/// `cloudscrub synth OUT.ply`: writes a synthetic coloured cloud of an analytic scene.
enum SynthCommand {
  static let help = """
    usage: cloudscrub synth OUT.ply [--points N] [--seed S] [--normals] [--ascii]

    Samples a room corner with a sphere (floor, two walls; metres, y up) into a
    coloured point cloud, the same for the same seed on every machine.

    options:
      --points N  how many points (default 100000)
      --seed S    random seed (default 1)
      --normals   also write unit normals
      --ascii     write ASCII PLY instead of binary
      -h, --help  show this help
    """

  static let spec = ArgumentSpec(
    valueOptions: ["--points": "points", "--seed": "seed"],
    flags: ["--normals": "normals", "--ascii": "ascii", "--help": "help", "-h": "help"],
    positionals: 1...1)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("help") { return Terminal.out(help) }
    let count = try parsed.value("points").map { try positiveInteger($0, option: "--points") }
    let seed = try parsed.value("seed").map { value in
      guard let seed = UInt64(value) else { throw UsageError("--seed needs a whole number") }
      return seed
    }
    let cloud = SyntheticCloud.scene(
      count: count ?? 100_000, seed: seed ?? 1, normals: parsed.has("normals"))
    let options = PLYWriteOptions(
      format: parsed.has("ascii") ? .ascii : .binaryLittleEndian,
      attributes: parsed.has("normals") ? .all : .none,
      comments: ["synthetic room corner by CloudScrub, seed \(seed ?? 1)"])
    try PLYWriter.write(cloud, to: parsed.positionals[0], options: options)
  }

  static func positiveInteger(_ value: String, option: String) throws -> Int {
    guard let number = Int(value.replacingOccurrences(of: "_", with: "")), number > 0 else {
      throw UsageError("\(option) needs a positive whole number, not '\(value)'")
    }
    return number
  }
}
