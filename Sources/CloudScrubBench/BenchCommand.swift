import CloudScrubCLI
import CloudScrubSession
import Foundation

/// `cloudscrub bench MODE`: runs one of the modes `BenchUsage.modes` lists (usage,
/// prose and options are the command line's; `cloudscrub`'s `main.swift` hands the
/// subcommand here).
package enum BenchCommand {
  /// The default folder of the real capture the recording benchmarks use.
  static let deskCapture = "../shared/data/record3d-exr-desk"

  /// What runs each mode, by the mode's name in `BenchUsage.modes`.
  static let runners: [String: @Sendable (ParsedArguments) throws -> Void] = [
    "ply": runPLY,
    "ingest": { parsed in
      try IngestBenchmark(
        path: recording(parsed), repeats: try repeats(parsed),
        open3DScript: parsed.value("open3d-script") ?? "bench/open3d_ingest.py"
      ).run()
    },
    "fuse": { parsed in
      try inScratchFolder("fuse") { folder in
        try FuseBenchmark(
          path: recording(parsed), voxelSizeMeters: try parsed.metres("voxel") ?? 0.01,
          repeats: try repeats(parsed), folder: folder,
          open3DScript: parsed.value("open3d-script") ?? "bench/open3d_fuse.py"
        ).run()
      }
    },
    "video": { parsed in
      try inScratchFolder("video") { folder in
        try VideoBenchmark(path: recording(parsed), folder: folder).run()
      }
    },
    "clean": { parsed in
      try inScratchFolder("clean") { folder in
        try CleanBenchmark(
          voxelPoints: 10_000_000, outlierPoints: 1_000_000, voxelSizeMeters: 0.006,
          repeats: try repeats(parsed), folder: folder,
          open3DScript: parsed.value("open3d-script") ?? "bench/open3d_clean.py"
        ).run()
      }
    },
    "view": { parsed in
      var recordings = [(name: "sample", path: try ViewerBenchmarkSample.path())]
      let real = recording(parsed)
      if FileManager.default.fileExists(atPath: real) {
        recordings.append((name: "real capture", path: real))
      }
      try ViewerBenchmark(
        recordings: recordings, repeats: try repeats(parsed),
        binary: ViewerBenchmarkSample.binary
      ).run()
    },
    "render": { parsed in
      try RenderBenchmark(
        points: try parsed.count("points") ?? 20_000_000, widthPixels: 1280, heightPixels: 720,
        repeats: try repeats(parsed), binary: ViewerBenchmarkSample.binary
      ).run()
    },
    "lzfse": { parsed in
      try LZFSEBenchmark(
        folder: "Tests/CloudScrubFormatsTests/Fixtures/lzfse", repeats: try repeats(parsed),
        peerScript: "scripts/make-lzfse-vectors.py"
      ).run()
    },
    "formats": { parsed in
      try inScratchFolder("formats") { folder in
        try FormatsBenchmark(frameCount: 60, repeats: try repeats(parsed), folder: folder).run()
        try CloudFormatsBenchmark(
          points: try parsed.count("points") ?? 10_000_000, repeats: try repeats(parsed),
          folder: folder
        ).run()
      }
    },
    "clouds": { parsed in
      try inScratchFolder("clouds") { folder in
        let points = try parsed.count("points") ?? 10_000_000
        try CloudFormatsBenchmark(points: points, repeats: try repeats(parsed), folder: folder)
          .run()
        try LAZBenchmark(points: points, repeats: try repeats(parsed), folder: folder).run()
      }
    },
    "e57": { parsed in
      try inScratchFolder("e57") { folder in
        try E57Benchmark(
          pointCount: try parsed.count("points") ?? 10_000_000, folder: folder,
          repeats: try repeats(parsed)
        ).run()
      }
    },
    "scale": { parsed in
      try inScratchFolder("scale") { folder in
        try ScaleBenchmark(
          recording: parsed.positionals.dropFirst().first,
          frames: try parsed.count("frames") ?? 600, binary: ViewerBenchmarkSample.binary,
          folder: folder, steps: try ScaleBenchmark.steps(parsed.value("steps"))
        ).run()
      }
    },
    "lod": { parsed in
      try ScaleBenchmark(
        recording: recording(parsed), frames: 0, binary: ViewerBenchmarkSample.binary,
        folder: ""
      ).runLevelOfDetail()
    },
    "huge": { parsed in
      let given = parsed.value("dir")
      let folder = try given ?? scratchFolder("huge")
      defer { if given == nil { try? FileManager.default.removeItem(atPath: folder) } }
      try HugePLYBenchmark(
        path: parsed.positionals.dropFirst().first,
        points: try parsed.count("points") ?? 100_000_000, folder: folder,
        binary: ViewerBenchmarkSample.binary,
        steps: try HugePLYBenchmark.steps(parsed.value("steps"))
      ).run()
    },
    "drift": { parsed in
      try DriftBenchmark(path: recording(parsed), repeats: try repeats(parsed)).run()
    },
    "cancel": { parsed in
      try inScratchFolder("cancel") { folder in
        try CancelBenchmark(path: recording(parsed), folder: folder).run()
      }
    },
  ]

  package static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: BenchUsage.spec)
    if parsed.has("help") { return Terminal.out(BenchUsage.spec.help) }
    let names = BenchUsage.modes.map(\.name)
    let mode = parsed.positionals.first ?? names[0]
    guard let runner = runners[mode], mode != "ply" || parsed.positionals.count <= 1 else {
      throw UsageError(
        "bench runs one of \(names.joined(separator: ", ")), "
          + "not '\(parsed.positionals.joined(separator: " "))'")
    }
    try runner(parsed)
  }

  /// The recording a mode was given, or the real desk capture.
  private static func recording(_ parsed: ParsedArguments) -> String {
    parsed.positionals.dropFirst().first ?? deskCapture
  }

  private static func repeats(_ parsed: ParsedArguments) throws -> Int {
    try parsed.count("repeat") ?? 3
  }

  /// A new folder in /tmp for one benchmark's files; the caller removes it.
  static func scratchFolder(_ name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cloudscrub-bench-\(name)-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Runs `body` in a new scratch folder, removed after.
  private static func inScratchFolder(_ name: String, _ body: (String) throws -> Void) throws {
    let folder = try scratchFolder(name)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
  }

  /// `bench ply`: PLY read and write speed, in `--dir` or a scratch folder.
  private static func runPLY(_ parsed: ParsedArguments) throws {
    let given = parsed.value("dir")
    let folder =
      given
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "cloudscrub-bench-\(getpid())"
      ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { if given == nil { try? FileManager.default.removeItem(atPath: folder) } }
    try PLYBenchmark(
      pointCount: try parsed.count("points") ?? 10_000_000, folder: folder,
      repeats: try repeats(parsed),
      open3DScript: parsed.value("open3d-script") ?? "bench/open3d_ply.py"
    ).run()
  }
}
