import CloudScrubCore
import Foundation

/// Wavefront OBJ text: `v x y z r g b` (colour from 0 to 1, the vertex-colour extension
/// MeshLab, Blender and trimesh read), `vn` normals when the mesh has them, and faces
/// `f a//a b//b c//c` (1-based; `f a b c` without normals).
struct MeshOBJWriter: MeshFormatWriter {
  var name: String { "obj" }
  var extensions: [String] { ["obj"] }

  func encode(_ mesh: TriangleMesh, comment: String, _ write: ([UInt8]) throws -> Void) throws {
    let normals = mesh.normals.count == mesh.vertexCount
    try write(Array("# \(comment.replacingNewlines())\n".utf8))
    try write(
      Array("# \(mesh.vertexCount) vertices, \(mesh.triangles.count) triangles\n".utf8))
    for start in stride(from: 0, to: mesh.vertexCount, by: meshPieceSize) {
      var text = ""
      for k in start..<min(start + meshPieceSize, mesh.vertexCount) {
        let p = mesh.positions[k]
        let c = mesh.colors.indices.contains(k) ? mesh.colors[k] : FramePoints.noColor
        text += "v \(p.x) \(p.y) \(p.z) "
        text += String(
          format: "%.4f %.4f %.4f\n", Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255)
        if normals {
          let n = mesh.normals[k]
          text += "vn \(n.x) \(n.y) \(n.z)\n"
        }
      }
      try write(Array(text.utf8))
    }
    for start in stride(from: 0, to: mesh.triangles.count, by: meshPieceSize) {
      var text = ""
      for t in mesh.triangles[start..<min(start + meshPieceSize, mesh.triangles.count)] {
        let (a, b, c) = (Int(t.x) + 1, Int(t.y) + 1, Int(t.z) + 1)
        text += normals ? "f \(a)//\(a) \(b)//\(b) \(c)//\(c)\n" : "f \(a) \(b) \(c)\n"
      }
      try write(Array(text.utf8))
    }
  }
}
