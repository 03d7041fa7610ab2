import CloudScrubCore

/// Binary little-endian PLY with a vertex element (`x y z` float, `nx ny nz` float when
/// the mesh has normals, `red green blue` uchar) and a face element (`vertex_indices`
/// as a uchar count and int indices), the layout Blender, MeshLab, Open3D and trimesh
/// read.
struct MeshPLYWriter: MeshFormatWriter {
  var name: String { "ply" }
  var extensions: [String] { ["ply"] }

  func encode(_ mesh: TriangleMesh, comment: String, _ write: ([UInt8]) throws -> Void) throws {
    guard mesh.vertexCount <= Int(Int32.max) else {
      throw MeshFormatError.tooLarge(format: "PLY", count: mesh.vertexCount)
    }
    let normals = mesh.normals.count == mesh.vertexCount
    var header = "ply\nformat binary_little_endian 1.0\n"
    header += "comment \(comment.replacingNewlines())\n"
    header += "element vertex \(mesh.vertexCount)\n"
    header += "property float x\nproperty float y\nproperty float z\n"
    if normals { header += "property float nx\nproperty float ny\nproperty float nz\n" }
    header += "property uchar red\nproperty uchar green\nproperty uchar blue\n"
    header += "element face \(mesh.triangles.count)\n"
    header += "property list uchar int vertex_indices\nend_header\n"
    try write(Array(header.utf8))
    for start in stride(from: 0, to: mesh.vertexCount, by: meshPieceSize) {
      var out = LittleEndianBytes()
      for k in start..<min(start + meshPieceSize, mesh.vertexCount) {
        let p = mesh.positions[k]
        out.append(p.x)
        out.append(p.y)
        out.append(p.z)
        if normals {
          let n = mesh.normals[k]
          out.append(n.x)
          out.append(n.y)
          out.append(n.z)
        }
        let c = mesh.colors.indices.contains(k) ? mesh.colors[k] : FramePoints.noColor
        out.bytes += [c.r, c.g, c.b]
      }
      try write(out.bytes)
    }
    for start in stride(from: 0, to: mesh.triangles.count, by: meshPieceSize) {
      var out = LittleEndianBytes()
      for t in mesh.triangles[start..<min(start + meshPieceSize, mesh.triangles.count)] {
        out.bytes.append(3)
        out.append(Int32(t.x))
        out.append(Int32(t.y))
        out.append(Int32(t.z))
      }
      try write(out.bytes)
    }
  }
}
