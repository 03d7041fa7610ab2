import CloudScrubCore
import Foundation

/// `cloudscrub bench`: PLY read and write speed against the machine's own limits
/// (`cat` and `cp` of the same files, measured in the same run) and, where it is
/// installed, Open3D on the same files.
enum BenchCommand {
  static let help = """
    usage: cloudscrub bench [--points N] [--dir DIR] [--repeat R] [--open3d-script PATH]

    Generates a coloured cloud (xyz float + rgb uchar), writes it as binary and ASCII
    PLY, and prints read and write speeds in MB/s and points per second, memory in
    bytes per point, and ratios to 'cat' and 'cp' of the same files from the page
    cache. With python3 and Open3D installed, runs Open3D on the same files too.

    options:
      --points N            points to generate (default 10000000)
      --dir DIR             where to write the files (default: a folder in /tmp,
                            removed afterwards)
      --repeat R            timed runs per measurement; the best is kept (default 3)
      --open3d-script PATH  the Open3D side (default bench/open3d_ply.py)
      -h, --help            show this help
    """

  static let spec = ArgumentSpec(
    valueOptions: [
      "--points": "points", "--dir": "dir", "--repeat": "repeat",
      "--open3d-script": "open3d-script",
    ],
    flags: ["--help": "help", "-h": "help"], positionals: 0...0)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, spec: spec)
    if parsed.has("help") { return Terminal.out(help) }
    let count = try parsed.value("points").map {
      try SynthCommand.positiveInteger($0, option: "--points")
    } ?? 10_000_000
    let repeats = try parsed.value("repeat").map {
      try SynthCommand.positiveInteger($0, option: "--repeat")
    } ?? 3
    let folder = parsed.value("dir")
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "cloudscrub-bench-\(getpid())"
      ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer {
      if parsed.value("dir") == nil { try? FileManager.default.removeItem(atPath: folder) }
    }
    let benchmark = PLYBenchmark(
      pointCount: count, folder: folder, repeats: repeats,
      open3DScript: parsed.value("open3d-script") ?? "bench/open3d_ply.py")
    try benchmark.run()
  }
}
