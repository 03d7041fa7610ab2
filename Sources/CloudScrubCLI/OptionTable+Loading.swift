/// The shared groups of rows: the recording options (which frames and depth pixels are
/// loaded) and the cleaning options, accepted alike by every command that loads.
extension OptionTable {
  static let recording: [OptionRow] = [
    .value(
      "frames", "FIRST-LAST", default: "all",
      "frames to use, 0-based and inclusive; FIRST,LAST too; render's frustum is LAST's",
      commands: loading, group: .recording, window: "Timeline"),
    .value(
      "every", "N", default: "1", "use every N-th frame of those", commands: loading,
      group: .recording),
    .value(
      "min-confidence", "low|medium|high", default: "low: keep all",
      "skip depth pixels below this confidence; frames without confidence always pass",
      commands: loading, group: .recording,
      window: "Points › minimum confidence (hides, keeps loaded)"),
    .value(
      "depth-range", "MIN-MAX", default: "all",
      "keep depths in this range, in metres; MIN,MAX too", commands: loading, group: .recording),
    .value(
      "flying-pixels", "on|off", default: "on", "drop pixels smeared across depth edges",
      commands: loading, group: .recording),
    .value(
      "stride", "N", default: "1", "use every N-th depth pixel in each direction",
      commands: loading, group: .recording),
    .value(
      "merge", "SIZE_M", default: "keep every point",
      "while loading, keep only the first point in each voxel of this size in metres, so"
        + " memory follows the scene, not the capture's length",
      commands: loading.subtracting(["view", "mesh"]), group: .recording),
    .value(
      "merge", "SIZE_M|auto|off", default: "auto",
      "while a recording loads, keep only the first point in each voxel of this size in"
        + " metres; auto merges at 5 mm only when every point would not fit the viewer's"
        + " memory (a quarter of this machine's, at most 4 GB), and says so in the window",
      commands: ["view"], group: .recording),
    .flag(
      "skip-untracked",
      "leave out the leading frames recorded before tracking started (exactly zero"
        + " translation; `info` lists them)",
      commands: loading, group: .recording, window: "Timeline › hide the untracked frames"),
  ]

  /// Fusion into a surface: `mesh`, and `export --fuse`.
  static let fusion: [OptionRow] = [
    .value(
      "output", short: "o", "OUT", default: nil,
      "where to write (required); its extension chooses the format: .ply (binary, with"
        + " faces), .obj (vertex colours as v x y z r g b) or .glb (binary glTF)",
      commands: ["mesh"]),
    .value(
      "format", "ply|obj|glb", default: "OUT's extension",
      "write this format whatever OUT's extension", commands: ["mesh"]),
    .flag(
      "fuse",
      "fuse the frames into a surface (as `mesh` does) and write its points, one layer"
        + " thick, with colour and normals, instead of every depth pixel's point; the cleaning"
        + " options then apply to them",
      commands: ["export"], group: .fusion),
    .value(
      "voxel", "SIZE_M", default: "auto",
      "voxel size of the fusion in metres; auto: two depth pixels' footprint at the frames'"
        + " median depth, rounded to the millimetre, within 2 mm–10 cm",
      commands: ["mesh"], group: .fusion),
    .value(
      "fuse-voxel", "SIZE_M", default: "auto",
      "with --fuse, the fusion's voxel size in metres (auto as `mesh --voxel`)",
      commands: ["export"], group: .fusion),
    .value(
      "truncation", "SIZE_M", default: "4 voxels",
      "how far in front of and behind the depth a frame updates the distances, in metres;"
        + " at most 32 voxels",
      commands: ["mesh", "export"], group: .fusion),
    .value(
      "min-piece", "N", default: "0: keep all",
      "remove connected pieces of the surface with fewer than N triangles",
      commands: ["mesh", "export"], group: .fusion),
  ]

  static let cleaningRows: [OptionRow] = [
    .value(
      "crop", "XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX", default: "keep all",
      "keep points inside this box (world metres)", commands: cleaning, group: .cleaning,
      window: "Clean › crop box"),
    .value(
      "height-band", "MIN-MAX", default: "keep all",
      "keep points whose height is in this range, along the recording's up axis (y; z for"
        + " ARKitScenes; y for PLY); MIN,MAX too, negative numbers too (-1.5-0.8)",
      commands: cleaning, group: .cleaning, window: "Clean › height band"),
    .value(
      "voxel", "SIZE_M", default: "off",
      "merge the points of each voxel into one (mean position and colour, highest confidence)",
      commands: cleaning, group: .cleaning, window: "Clean › voxel merge"),
    .value(
      "sor", "K,STD", default: "off",
      "statistical outlier removal: drop points whose mean distance to their K nearest"
        + " neighbours (not counting themselves) exceeds the mean by STD standard deviations",
      commands: cleaning, group: .cleaning, window: "Clean › statistical outliers"),
    .value(
      "radius-outlier", "R_M,MIN_N", default: "off",
      "drop points with fewer than MIN_N other points within R_M", commands: cleaning,
      group: .cleaning, window: "Clean › radius outliers"),
    .flag(
      "normals",
      "estimate normals (20 neighbours), facing the capturing camera (the origin for PLY"
        + " input); written as nx ny nz",
      commands: cleaning, group: .cleaning, window: "Clean › normals"),
    .flag(
      "dry-run", "print how many points each stage keeps; write nothing", commands: ["export"],
      group: .cleaning),
  ]
}
