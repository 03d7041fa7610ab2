import CloudScrubCore
import CloudScrubSession
import Foundation

/// `cloudscrub bench`: PLY read and write speed against the machine's own limits
/// (`cat` and `cp` of the same files, measured in the same run) and, where it is
/// installed, Open3D on the same files.
enum BenchCommand {
  /// Usage and prose of `bench --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "bench",
    synopsis: [
      "bench [ply] [--points N] [--dir DIR] [--repeat R] [--open3d-script PATH]",
      "bench ingest [RECORDING] [--repeat R] [--open3d-script PATH]",
      "bench clean [--repeat R] [--open3d-script PATH]",
      "bench view [RECORDING] [--repeat R]",
      "bench render [--points N] [--repeat R]",
      "bench lzfse [--repeat R]",
      "bench formats [--repeat R] [--points N]",
      "bench clouds [--repeat R] [--points N]",
      "bench e57 [--repeat R] [--points N]",
      "bench scale [RECORDING] [--frames N] [--steps LIST]",
      "bench lod [RECORDING]",
      "bench huge [PLY] [--points N] [--dir DIR] [--steps LIST]",
      "bench drift [RECORDING] [--repeat R]",
      "bench cancel [RECORDING]",
    ],
    about: """
      ply (the default): generates a coloured cloud (xyz float + rgb uchar), writes it as
      binary and ASCII PLY, and prints read and write speeds in MB/s and points per
      second, memory in bytes per point, and ratios to 'cat' and 'cp' of the same files
      from the page cache.

      ingest: loads a recording (default ../shared/data/record3d-exr-desk) and prints
      frames per second of the whole ingest beside decoding alone, and bytes per point.

      view: bytes uploaded per loaded point, CPU time per frame while scrubbing 10
      million points (no GPU work), and the time from launch to the first frame on
      screen for the synthetic sample and RECORDING (default ../shared/data/
      record3d-exr-desk), in a window (the display, or a private Xvfb) and headless.

      render: points per second of the CPU point rasterizer (one core, every core) and
      of OpenGL on --points random points (default 20000000) at 1280×720 with every
      point drawn, beside a single-core reference loop in the same run; whole frames
      with either renderer; and the wall time of 'cloudscrub render' of a PLY file of
      that many points with either.

      clean: voxel merging of 10 million points and statistical outlier removal (k 20,
      std 2) of 1 million, on synthetic data.

      scale: export (raw, --voxel 0.005, --merge 0.005) and render (--merge 0.005) of a
      long capture, each a child process: wall time and peak resident memory, beside
      reading the file with 'cat' and what holding every raw point takes; then, in this
      process, the level of detail's build rate (up to 20 M points) and the time to its
      first picture (one frame-loop turn's points, planned, drawn on the CPU), and the
      window's figures (below). RECORDING defaults to a synthetic capture of --frames N
      frames (default 600) made first. --steps picks the steps (cat, raw, voxel, merge,
      render, lod, window, ply; default all), e.g. '--steps raw,voxel' on a 36,000-frame
      capture; each export and render row also gives the child's processor seconds.

      lod: only scale's level-of-detail figures for RECORDING (default ../shared/data/
      record3d-exr-desk): the build rate on one thread and on every core, the first
      picture, and the window under a private Xvfb (time to load, idle CPU, time from an
      xdotool drag to the first changed screenshot, peak resident memory).

      huge: only scale's huge-PLY figures, on PLY (a binary PLY) or on a synthetic scene
      of --points points (default 100000000, 15 bytes each) written into --dir (default
      a folder in /tmp) and removed after: the window's first frame on it beside a
      1,000-point file's (the window's own start-up, in the same run); the window's load,
      idle CPU, drag answer and peak memory as for lod; then the first picture, the level
      of detail complete and peak memory in this process. The figures so far go to
      standard error after each step. --steps picks them (first, window, process).

      drift: the alignment pass on RECORDING (default ../shared/data/record3d-exr-desk):
      frames per second of reading and subsampling the frames, of the alignment error
      alone and of refinement (on frames already read), and of the whole refine pass;
      how far refinement moved and tilted the capture's cameras; the camera-centre error
      and tilt of a synthetic capture with a known drift (a yaw and a shift, then the
      same tilted 2° off gravity) before and after refinement; peak memory.

      cancel: the window's export of RECORDING (default ../shared/data/record3d-exr-desk)
      with --voxel 0.005 --sor 20,2 --normals, cancelled at 10, 50 and 90 % of each
      stage (gathering the shown points, each cleaning step, the write), and the write
      alone in every format cancelled halfway: the time from the cancel to the export's
      return (target ≤ 1 s), and whether an earlier output was left as it was.

      formats: ingest speed of every recording format on the same 60 synthetic frames,
      then write and read speed of every point-cloud format (PLY, PCD binary and ASCII,
      LAS, E57, XYZ) on --points points (default 10000000), beside Open3D (binary and
      ASCII PCD, XYZ), numpy.loadtxt (XYZ) and laspy (LAS) (bench/format_peers.py) and
      pye57 (E57, bench/pye57_e57.py) on the same files.

      clouds: only the point-cloud half of formats (no recording ingest).

      e57: write and read speed of E57 on --points points (default 10000000), beside
      pye57 (pip install pye57) on the same files (bench/pye57_e57.py).

      lzfse: LZFSE decoding in MB/s of output on the test vectors (run from the project's
      root), beside liblzfse through Python (pip install pyliblzfse) when installed.

      With python3 and Open3D installed, Open3D runs on the same data in the same run.
      """)

  /// A new folder in /tmp for one benchmark's files; the caller removes it.
  static func scratchFolder(_ name: String) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cloudscrub-bench-\(name)-\(getpid())"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    let mode = parsed.positionals.first ?? "ply"
    if mode == "ingest" {
      return try IngestBenchmark(
        path: parsed.positionals.dropFirst().first ?? "../shared/data/record3d-exr-desk",
        repeats: try parsed.count("repeat") ?? 3,
        open3DScript: parsed.value("open3d-script") ?? "bench/open3d_ingest.py"
      ).run()
    }
    if mode == "view" {
      var recordings = [(name: "sample", path: try ViewerBenchmarkSample.path())]
      let real = parsed.positionals.dropFirst().first ?? "../shared/data/record3d-exr-desk"
      if FileManager.default.fileExists(atPath: real) {
        recordings.append((name: "real capture", path: real))
      }
      return try ViewerBenchmark(
        recordings: recordings,
        repeats: try parsed.count("repeat") ?? 3,
        binary: ViewerBenchmarkSample.binary
      ).run()
    }
    if mode == "render" {
      return try RenderBenchmark(
        points: try parsed.count("points") ?? 20_000_000,
        widthPixels: 1280, heightPixels: 720,
        repeats: try parsed.count("repeat") ?? 3,
        binary: ViewerBenchmarkSample.binary
      ).run()
    }
    if mode == "clean" {
      let folder = try scratchFolder("clean")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      return try CleanBenchmark(
        voxelPoints: 10_000_000, outlierPoints: 1_000_000, voxelSizeMeters: 0.006,
        repeats: try parsed.count("repeat") ?? 3, folder: folder,
        open3DScript: parsed.value("open3d-script") ?? "bench/open3d_clean.py"
      ).run()
    }
    if mode == "formats" {
      let folder = try scratchFolder("formats")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let repeats = try parsed.count("repeat") ?? 3
      try FormatsBenchmark(frameCount: 60, repeats: repeats, folder: folder).run()
      return try CloudFormatsBenchmark(
        points: try parsed.count("points") ?? 10_000_000, repeats: repeats, folder: folder
      ).run()
    }
    if mode == "clouds" {
      let folder = try scratchFolder("clouds")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      return try CloudFormatsBenchmark(
        points: try parsed.count("points") ?? 10_000_000,
        repeats: try parsed.count("repeat") ?? 3, folder: folder
      ).run()
    }
    if mode == "e57" {
      let folder = try scratchFolder("e57")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      return try E57Benchmark(
        pointCount: try parsed.count("points") ?? 10_000_000, folder: folder,
        repeats: try parsed.count("repeat") ?? 3
      ).run()
    }
    if mode == "scale" {
      let folder = try scratchFolder("scale")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      return try ScaleBenchmark(
        recording: parsed.positionals.dropFirst().first,
        frames: try parsed.count("frames") ?? 600,
        binary: ViewerBenchmarkSample.binary, folder: folder,
        steps: try ScaleBenchmark.steps(parsed.value("steps"))
      ).run()
    }
    if mode == "huge" {
      let folder = try parsed.value("dir") ?? scratchFolder("huge")
      defer {
        if parsed.value("dir") == nil { try? FileManager.default.removeItem(atPath: folder) }
      }
      return try HugePLYBenchmark(
        path: parsed.positionals.dropFirst().first,
        points: try parsed.count("points") ?? 100_000_000, folder: folder,
        binary: ViewerBenchmarkSample.binary,
        steps: try HugePLYBenchmark.steps(parsed.value("steps"))
      ).run()
    }
    if mode == "lod" {
      return try ScaleBenchmark(
        recording: parsed.positionals.dropFirst().first ?? "../shared/data/record3d-exr-desk",
        frames: 0, binary: ViewerBenchmarkSample.binary, folder: ""
      ).runLevelOfDetail()
    }
    if mode == "drift" {
      return try DriftBenchmark(
        path: parsed.positionals.dropFirst().first ?? "../shared/data/record3d-exr-desk",
        repeats: try parsed.count("repeat") ?? 3
      ).run()
    }
    if mode == "cancel" {
      let folder = try scratchFolder("cancel")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      return try CancelBenchmark(
        path: parsed.positionals.dropFirst().first ?? "../shared/data/record3d-exr-desk",
        folder: folder
      ).run()
    }
    if mode == "lzfse" {
      return try LZFSEBenchmark(
        folder: "Tests/CloudScrubFormatsTests/Fixtures/lzfse",
        repeats: try parsed.count("repeat") ?? 3,
        peerScript: "scripts/make-lzfse-vectors.py"
      ).run()
    }
    guard mode == "ply", parsed.positionals.count == 1 || parsed.positionals.isEmpty else {
      throw UsageError(
        "bench runs 'ply', 'ingest' or 'clean', not '\(parsed.positionals.joined(separator: " "))'")
    }
    let count =
      try parsed.count("points") ?? 10_000_000
    let repeats =
      try parsed.count("repeat") ?? 3
    let folder =
      parsed.value("dir")
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
