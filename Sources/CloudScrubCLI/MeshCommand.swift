import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub mesh RECORDING -o OUT`: fuses a recording's depth frames into a coloured
/// surface mesh.
enum MeshCommand {
  /// Usage and prose of `mesh --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "mesh",
    synopsis: ["mesh PATH -o OUT.ply|OUT.obj|OUT.glb [--voxel SIZE_M] [options]"],
    about: """
      Fuses the selected depth frames of the recording at PATH into a truncated signed
      distance volume (sparse 8³ voxel blocks, each frame weighted by its pixels'
      confidence and distance, colour averaged alongside) and writes its zero crossing as
      a coloured triangle mesh with normals: binary PLY with faces, OBJ, or binary glTF.
      The frames, their filters and their poses are chosen as for `export`. The file is
      written under a temporary name and renamed into place; an input is never
      overwritten.
      """)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    guard let output = parsed.value("output") else {
      throw UsageError("mesh needs an output file: -o OUT.ply")
    }
    let writer = try MeshExport.writer(for: output, formatName: parsed.value("format"))
    let path = parsed.positionals[0]
    let fused = try fuse(parsed, path: path, voxelOption: "voxel")
    try MeshExport.write(fused.result, to: output, writer: writer, recordingPath: fused.path)
    let mesh = fused.result.mesh
    if mesh.isEmpty {
      Terminal.error(
        "note: the frames made no surface (no depth passed the filters, or no voxel was seen"
          + " from both sides of a surface)")
    }
    Terminal.out(
      "\(mesh.vertexCount) vertices, \(mesh.triangles.count) triangles written to \(output)")
  }

  /// Fuses the recording at `path` as the recording and fusion options say, with a
  /// progress line, and says what it made on standard error.
  ///
  /// - Parameter voxelOption: the option that gives the voxel size (`voxel` for `mesh`,
  ///   `fuse-voxel` for `export --fuse`).
  static func fuse(_ parsed: ParsedArguments, path: String, voxelOption: String) throws
    -> (result: RecordingFusion.Result, path: String, source: any RecordingSource)
  {
    var options = FusionOptions()
    options.voxelSizeMeters = try parsed.metres(voxelOption)
    options.truncationMeters = try parsed.metres("truncation")
    options.minPieceTriangles = try parsed.count("min-piece", atLeast: 0) ?? 0
    guard
      case .recording(let recordingPath, let recorded) = try InputLoader.open(
        path, poses: parsed.value("poses"))
    else {
      throw UsageError("fusion needs a recording's depth frames, not a point cloud: \(path)")
    }
    let (source, selection) = try RecordingFlags.frames(
      parsed, recorded: recorded, path: recordingPath)
    let fusion = RecordingFusion(
      loader: InputLoader.loader(
        source, selection: selection, unprojection: try RecordingFlags.unprojection(parsed)),
      options: options)
    let progress = Terminal.progress("fusing \(recordingPath)")
    let result = try fusion.run { done, total in
      progress?.update(Double(done) / Double(total))
    }
    progress?.finish()
    Terminal.error(
      String(
        format:
          "fused %d frames at %.4g m voxels (truncation %.4g m, %d blocks) in %.2f s"
          + " (%.2f s integrating, %.2f s waiting for decoded frames)",
        result.frameIndices.count, result.voxelSizeMeters, result.truncationMeters,
        result.blocks, result.waitingSeconds + result.integrationSeconds,
        result.integrationSeconds, result.waitingSeconds)
        + String(format: "; surface extracted in %.2f s", result.extractionSeconds))
    return (result, recordingPath, source)
  }
}
