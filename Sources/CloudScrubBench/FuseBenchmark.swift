import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub bench fuse`: integration and extraction speed of the fusion at 1 cm
/// voxels on a real capture, with the frames decoded beforehand, beside Open3D's tensor
/// `VoxelBlockGrid` on the same filtered frames, voxel, truncation and poses; memory of
/// the voxel storage; how far apart the two meshes lie.
struct FuseBenchmark {
  let path: String
  let voxelSizeMeters: Float
  let maxDepthMeters: Float = 3
  let repeats: Int
  let folder: String
  let open3DScript: String
  /// Open3D's `GetUniqueBlockCoordinates` lists blocks from every 4th pixel each way.
  static let open3DListingStride = 4

  func run() throws {
    let source = try InputDetector.openRecording(path)
    let options = FusionOptions(voxelSizeMeters: voxelSizeMeters)
    // Depths past 3 m (Open3D's usual limit) are noise at 1 cm voxels: both sides leave
    // them out.
    let unprojection = UnprojectionOptions(depthRangeMeters: 0...maxDepthMeters)
    let fusion = RecordingFusion(
      loader: InputLoader.loader(source, selection: FrameSelection(), unprojection: unprojection),
      options: options)
    let count = source.frameCount
    let truncation = voxelSizeMeters * FusionOptions.truncationVoxels
    Terminal.out("CloudScrub fusion benchmark: \(path)")
    Terminal.out(
      "\(count) frames, depth \(source.description.depthWidth)×\(source.description.depthHeight),"
        + " depths to \(maxDepthMeters) m, voxel \(voxelSizeMeters) m, truncation"
        + " \(truncation) m; cores: "
        + "\(Parallel.cores), best of \(repeats) runs")
    var frames: [FusionFrame] = []
    let decode = try Stopwatch.best(runs: 1) {
      frames = try (0..<count).map { index throws(FrameLoadError) in try fusion.frame(index) }
    }
    // The frames into a fresh volume, best of `repeats` runs.
    func integrated(listingStride: Int?) throws -> (TSDFVolume, seconds: Double) {
      var volume = TSDFVolume(voxelSize: voxelSizeMeters, truncation: truncation, maxBlocks: 0)
      let seconds = try Stopwatch.best(runs: repeats) {
        volume = TSDFVolume(
          voxelSize: voxelSizeMeters, truncation: truncation,
          maxBlocks: options.memoryLimitBytes / TSDFVolume.bytesPerBlock,
          listingStride: listingStride)
        try volume.integrate(frames)
      }
      return (volume, seconds)
    }
    let (volume, integrate) = try integrated(listingStride: nil)
    var mesh = TriangleMesh()
    let extract = try Stopwatch.best(runs: repeats) { mesh = volume.extractMesh() }
    let whole = try Stopwatch.best(runs: 1) { _ = try fusion.run() }
    // The same frames with blocks listed as Open3D lists them, so that what parts the
    // meshes can be told from how the blocks are chosen.
    let (sparse, sparseIntegrate) = try integrated(listingStride: Self.open3DListingStride)
    let oursPath = folder + "/ours.ply"
    let sparsePath = folder + "/ours-sparse.ply"
    for (made, path) in [(mesh, oursPath), (sparse.extractMesh(), sparsePath)] {
      try MeshFormats.write(
        made, to: path, writer: MeshFormats.writer(forPath: path), comment: "bench")
    }
    try writeFramesForPeer(frames, voxel: voxelSizeMeters, truncation: truncation, to: folder)
    let peer = PythonPeer(script: open3DScript, name: "Open3D").run(arguments: [
      "--frames", folder, "--ours", oursPath, "--ours-sparse", sparsePath,
      "--output", folder + "/open3d.ply",
    ])

    var report = BenchReport()
    let fps = Double(count) / integrate
    report.section("CloudScrub")
    report.row("decode and filter", "\(PLYBenchmark.fixed(Double(count) / decode, 1)) frames/s")
    report.row(
      "integration", "\(PLYBenchmark.fixed(fps, 1)) frames/s", "frames decoded beforehand",
      target: fps >= 300, goal: "≥ 300 frames/s")
    report.row("extraction", PLYBenchmark.seconds(extract))
    report.row(
      "whole fusion", "\(PLYBenchmark.fixed(Double(count) / whole, 1)) frames/s",
      "decoding on every core beside integration, then extraction")
    let megabytes = Double(volume.blockCount * TSDFVolume.bytesPerBlock) / 1e6
    report.row(
      "voxel storage", "\(PLYBenchmark.fixed(megabytes, 1)) MB",
      "\(volume.blockCount) blocks of 8³ voxels, \(TSDFVolume.bytesPerBlock / TSDFVolume.voxelsPerBlock) bytes a voxel"
    )
    report.row("mesh", "\(mesh.vertexCount) vertices", "\(mesh.triangles.count) triangles")
    switch peer {
    case .unavailable(let reason):
      report.section("peers")
      report.row("Open3D", "not measured", reason)
    case .measured(let name, let figures):
      report.section(name)
      let theirFPS = figures["integrate_fps"] ?? .nan
      report.row(
        "integration", "\(PLYBenchmark.fixed(theirFPS, 1)) frames/s",
        "ours \(PLYBenchmark.fixed(fps / theirFPS, 1))× faster", target: fps >= 5 * theirFPS,
        goal: "≥ 5× Open3D")
      let theirExtract = figures["extract_seconds"] ?? .nan
      report.row(
        "extraction", PLYBenchmark.seconds(theirExtract),
        "ours \(PLYBenchmark.fixed(theirExtract / extract, 1))× faster")
      let theirMB = figures["grid_mb"] ?? .nan
      report.row(
        "voxel storage", "\(PLYBenchmark.fixed(theirMB, 1)) MB",
        "\(Int(figures["blocks"] ?? 0)) blocks in use, 20 bytes a voxel; process peak "
          + "\(Int(figures["peak_mb"] ?? 0)) MB", target: megabytes <= theirMB,
        goal: "ours ≤ Open3D's")
      report.row(
        "mesh", "\(Int(figures["vertices"] ?? 0)) vertices",
        "\(Int(figures["triangles"] ?? 0)) triangles")
      let apart = max(
        figures["ours_to_theirs_median_mm"] ?? .nan, figures["theirs_to_ours_median_mm"] ?? .nan)
      report.row(
        "meshes apart (median)", "\(PLYBenchmark.fixed(apart, 2)) mm",
        "the larger of ours→theirs and theirs→ours, 200,000 points sampled on each",
        target: apart <= 2, goal: "≤ 2 mm")
      let coverage = (figures["coverage_of_theirs"] ?? .nan) * 100
      let secondLayer = (figures["uncovered_second_layer"] ?? .nan) * 100
      report.row(
        "their surface ours covers", "\(PLYBenchmark.fixed(coverage, 1)) %",
        "within one voxel; \(PLYBenchmark.fixed(secondLayer, 0)) % of the rest is a second layer"
          + " (Open3D has surface within a voxel of ours there too)", target: coverage >= 90,
        goal: "≥ 90 %")
      sparseRows(
        figures, blocks: sparse.blockCount, fps: Double(count) / sparseIntegrate,
        theirFPS: theirFPS, into: &report)
      rangeRows(figures, into: &report)
    }
    try truth(into: &report)
    Terminal.out(report.text)
  }

  /// Ours with blocks listed from every 4th pixel, as Open3D lists them, against Open3D.
  private func sparseRows(
    _ figures: [String: Double], blocks: Int, fps: Double, theirFPS: Double,
    into report: inout BenchReport
  ) {
    report.section(
      "CloudScrub with Open3D's block listing (every \(Self.open3DListingStride)th pixel)")
    report.row(
      "integration", "\(PLYBenchmark.fixed(fps, 1)) frames/s",
      "\(blocks) blocks; \(PLYBenchmark.fixed(fps / theirFPS, 1))× Open3D's rate")
    let apart = max(
      figures["sparse_ours_to_theirs_median_mm"] ?? .nan,
      figures["sparse_theirs_to_ours_median_mm"] ?? .nan)
    report.row(
      "meshes apart (median)", "\(PLYBenchmark.fixed(apart, 2)) mm",
      "area \(PLYBenchmark.fixed(figures["sparse_area_m2"] ?? .nan, 1)) m²")
    report.row(
      "their surface it covers",
      "\(PLYBenchmark.fixed((figures["sparse_coverage_of_theirs"] ?? .nan) * 100, 1)) %",
      "within one voxel")
  }

  /// How far apart the meshes lie by distance from the first camera (the depth noise
  /// grows with it), and each mesh's area.
  private func rangeRows(_ figures: [String: Double], into report: inout BenchReport) {
    let area = { (key: String) in PLYBenchmark.fixed(figures[key] ?? .nan, 1) }
    report.section(
      "the meshes apart by distance from the first camera (areas: ours "
        + "\(area("ours_area_m2")) m², Open3D's \(area("their_area_m2")) m²)")
    for range in ["0_1", "1_2", "2_3", "3_5"] {
      let suffix = "_\(range)m"
      guard let share = figures["theirs_to_ours_share" + suffix] else { continue }
      func figure(_ key: String, _ scale: Double, _ digits: Int) -> String {
        PLYBenchmark.fixed((figures[key + suffix] ?? .nan) * scale, digits)
      }
      report.row(
        range.replacingOccurrences(of: "_", with: "–") + " m",
        "\(figure("theirs_to_ours_median_mm", 1, 2)) mm",
        "Open3D's surface to ours (\(PLYBenchmark.fixed(share * 100, 0)) % of it, "
          + "\(figure("theirs_to_ours_within_voxel", 100, 1)) % within a voxel); ours to "
          + "Open3D's \(figure("ours_to_theirs_median_mm", 1, 2)) mm")
    }
  }

  /// The synthetic room (60 frames, exact poses and depths) fused by both at 2 cm
  /// voxels: each mesh's median and 90th-percentile distance to the room's true
  /// surfaces.
  private func truth(into report: inout BenchReport) throws {
    let voxel: Float = 0.02
    let room = SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 60))
    let fusion = RecordingFusion(
      loader: RecordingLoader(source: room), options: FusionOptions(voxelSizeMeters: voxel))
    let frames = try (0..<room.frameCount).map { index throws(FrameLoadError) in
      try fusion.frame(index)
    }
    let truncation = voxel * FusionOptions.truncationVoxels
    let volume = TSDFVolume(voxelSize: voxel, truncation: truncation, maxBlocks: 1 << 20)
    try volume.integrate(frames)
    let roomFolder = folder + "/room"
    try FileManager.default.createDirectory(atPath: roomFolder, withIntermediateDirectories: true)
    let oursPath = roomFolder + "/ours.ply"
    let theirsPath = roomFolder + "/open3d.ply"
    let mesh = volume.extractMesh()
    try MeshFormats.write(
      mesh, to: oursPath, writer: MeshFormats.writer(forPath: oursPath), comment: "bench")
    try writeFramesForPeer(frames, voxel: voxel, truncation: truncation, to: roomFolder)
    let peer = PythonPeer(script: open3DScript, name: "Open3D").run(arguments: [
      "--frames", roomFolder, "--ours", oursPath, "--output", theirsPath,
    ])
    func distances(_ positions: [Point3]) -> String {
      let sorted = positions.map {
        SyntheticScene.standard.distanceToNearestSurface(
          SIMD3(Double($0.x), Double($0.y), Double($0.z)))
      }.sorted()
      guard !sorted.isEmpty else { return "no vertices" }
      return "median \(PLYBenchmark.fixed(sorted[sorted.count / 2] * 1000, 2)) mm, 90 % "
        + "\(PLYBenchmark.fixed(sorted[sorted.count * 9 / 10] * 1000, 2)) mm"
    }
    report.section("the synthetic room, 60 frames at 2 cm voxels: vertices to the true surfaces")
    report.row("CloudScrub", distances(mesh.positions))
    if case .measured = peer {
      report.row("Open3D", distances(try PLYReader.read(path: theirsPath).cloud.positions))
    }
  }

  /// The filtered frames as Open3D reads them: depth as 16-bit millimetre PNGs, colour as
  /// RGB PNGs at the depth size, and `frames.json` with each frame's pinhole intrinsics
  /// (a capture's focal length and centre change from frame to frame) and
  /// camera-from-world matrix. Open3D's integration takes the pixel a point projects to by
  /// truncating its coordinates, so pixel u covers [u, u + 1) with its centre at u + 0.5,
  /// as `FusionFrame` counts them; at a stride s the kept pixel nearest the projection
  /// is column ⌊fx·x/z/s + cx/s + 0.5 − 0.5/s⌋, as `VoxelIntegrator` takes it.
  private func writeFramesForPeer(
    _ frames: [FusionFrame], voxel: Float, truncation: Float, to folder: String
  ) throws {
    var entries: [[String: Any]] = []
    var deepest: Float = 0
    for (k, frame) in frames.enumerated() {
      let depthName = "depth-\(k).png"
      let colorName = "color-\(k).png"
      let depths = frame.pixels.map(\.depth)
      let millimetres = depths.map { UInt16(clamping: Int(($0 * 1000).rounded())) }
      deepest = max(deepest, depths.max() ?? 0)
      try Data(
        PNGCodec.encodeGray16(
          Gray16Image(width: frame.width, height: frame.height, samples: millimetres))
      ).write(to: URL(fileURLWithPath: folder + "/" + depthName))
      let pixels = frame.pixels.flatMap { [$0.color.r, $0.color.g, $0.color.b] }
      try PNGCodec.write(
        RGBImage(width: frame.width, height: frame.height, pixels: pixels),
        to: folder + "/" + colorName)
      let c = frame.cameraFromWorld.columns
      let rows = (0..<4).map { r in [c.0[r], c.1[r], c.2[r], c.3[r]] }
      let scale = 1 / Double(frame.stride)
      let offset = 0.5 - 0.5 * scale
      let intrinsic: [[Double]] = [
        [Double(frame.fx) * scale, 0, Double(frame.cx) * scale + offset],
        [0, Double(frame.fy) * scale, Double(frame.cy) * scale + offset], [0, 0, 1],
      ]
      entries.append([
        "depth": depthName, "color": colorName, "intrinsic": intrinsic, "extrinsic": rows,
      ])
    }
    let json: [String: Any] = [
      "voxel": Double(voxel), "truncation": Double(truncation), "depth_max": Double(deepest) + 0.01,
      "frames": entries,
    ]
    try JSONSerialization.data(withJSONObject: json).write(
      to: URL(fileURLWithPath: folder + "/frames.json"))
  }
}
