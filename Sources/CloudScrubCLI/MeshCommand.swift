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
    let fused = try FusionFlags.fuse(parsed, path: path, voxelOption: "voxel")
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
}
