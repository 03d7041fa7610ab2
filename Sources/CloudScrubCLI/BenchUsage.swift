/// `cloudscrub bench`'s interface, which `--help` and the guide's options table show:
/// its modes, each with its usage line, and what each measures. The benchmarks
/// themselves are the `CloudScrubBench` target, which runs a mode of this table.
package enum BenchUsage {
  /// Every mode, in the order `bench --help` lists them; the first runs when none is
  /// named.
  package static let modes: [(name: String, synopsis: String)] = [
    ("ply", "bench [ply] [--points N] [--dir DIR] [--repeat R] [--open3d-script PATH]"),
    ("ingest", "bench ingest [RECORDING] [--repeat R] [--open3d-script PATH]"),
    ("clean", "bench clean [--repeat R] [--open3d-script PATH]"),
    ("view", "bench view [RECORDING] [--repeat R]"),
    ("render", "bench render [--points N] [--repeat R]"),
    ("lzfse", "bench lzfse [--repeat R]"),
    ("formats", "bench formats [--repeat R] [--points N]"),
    ("clouds", "bench clouds [--repeat R] [--points N]"),
    ("e57", "bench e57 [--repeat R] [--points N]"),
    ("scale", "bench scale [RECORDING] [--frames N] [--steps LIST]"),
    ("lod", "bench lod [RECORDING]"),
    ("huge", "bench huge [PLY] [--points N] [--dir DIR] [--steps LIST]"),
    ("drift", "bench drift [RECORDING] [--repeat R]"),
    ("cancel", "bench cancel [RECORDING]"),
    ("fuse", "bench fuse [RECORDING] [--voxel SIZE_M] [--repeat R] [--open3d-script PATH]"),
    ("video", "bench video [RECORDING]"),
  ]

  /// Usage and prose of `bench --help`; the options are `OptionTable`'s rows.
  package static let spec = CommandSpec(
    name: "bench",
    synopsis: modes.map(\.synopsis),
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
      the ghosting (frames 120 apart against frames 6 apart) of the recorded poses,
      refine --local, refine, refine with polishing, and Open3D's multiway
      registration of the same keyframes (bench/open3d_multiway.py, when Open3D is
      installed), and of each far pair registered alone (about the lowest any poses
      reach); pairs of frames 6, 30 and 60 apart each registered alone (how much of
      the depth's error frames share with those just before them); the loops closed
      and the times;
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

      clouds: only the point-cloud half of formats (no recording ingest), then LAZ
      decompression of --points points in point formats 1, 3, 6 and 7 beside lazrs
      (pip install laspy lazrs, which also writes the files; bench/laz_peers.py).

      e57: write and read speed of E57 on --points points (default 10000000), beside
      pye57 (pip install pye57) on the same files (bench/pye57_e57.py).

      fuse: fusion of RECORDING (default ../shared/data/record3d-exr-desk) at --voxel
      (default 0.01 m): integration frames per second with the frames decoded beforehand
      (target ≥ 300), extraction time, voxel storage and the mesh's size, beside Open3D's
      tensor VoxelBlockGrid on the same filtered frames (bench/open3d_fuse.py; target:
      integration ≥ 5× Open3D's, storage ≤ Open3D's, the meshes ≤ 2 mm apart, ours
      covering ≥ 90 % of Open3D's surface); then ours again with blocks listed from every
      4th pixel, as Open3D lists them.

      video: videos of RECORDING (default ../shared/data/record3d-exr-desk) at 1280×720 and
      30 frames a second with the CPU renderer: the timeline in each format, frames per
      second with encoding (target ≥ 30 for MP4) beside drawing alone in the same run;
      the follow and capture cameras; a turntable, which draws every point each frame.

      lzfse: LZFSE decoding in MB/s of output on the test vectors (run from the project's
      root), beside liblzfse through Python (pip install pyliblzfse) when installed.

      With python3 and Open3D installed, Open3D runs on the same data in the same run.
      """)
}
