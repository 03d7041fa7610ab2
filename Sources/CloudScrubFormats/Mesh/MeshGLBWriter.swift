import CloudScrubCore
import Foundation

/// Binary glTF 2.0 (`.glb`): one mesh of one triangle primitive with `POSITION`,
/// `NORMAL` (when the mesh has normals), `COLOR_0` (normalised unsigned bytes, RGBA
/// with alpha 255, four bytes a vertex as vertex attributes need) and 32-bit indices,
/// all in the one binary chunk, with a matte white material the colours tint. A mesh
/// without triangles is a file with only its `asset`.
struct MeshGLBWriter: MeshFormatWriter {
  var name: String { "glb" }
  var extensions: [String] { ["glb"] }

  /// glTF's numbers for component types and buffer targets.
  private enum Code {
    static let float = 5126
    static let unsignedByte = 5121
    static let unsignedInt = 5125
    static let arrayBuffer = 34962
    static let elementArrayBuffer = 34963
  }

  func encode(_ mesh: TriangleMesh, comment: String, _ write: ([UInt8]) throws -> Void) throws {
    let n = mesh.vertexCount
    guard n <= Int(UInt32.max), mesh.triangles.count * 3 <= Int(UInt32.max) else {
      throw MeshFormatError.tooLarge(format: "glTF", count: max(n, mesh.triangles.count * 3))
    }
    let normals = mesh.normals.count == n
    var json: [String: Any] = [
      "asset": ["version": "2.0", "generator": "CloudScrub", "extras": ["source": comment]]
    ]
    // Buffer views in the binary chunk's order: positions, normals, colours, indices.
    var views: [(bytes: Int, target: Int)] = [(12 * n, Code.arrayBuffer)]
    if normals { views.append((12 * n, Code.arrayBuffer)) }
    views.append((4 * n, Code.arrayBuffer))
    views.append((12 * mesh.triangles.count, Code.elementArrayBuffer))
    let binaryLength = views.reduce(0) { $0 + $1.bytes }
    if !mesh.isEmpty {
      var offset = 0
      json["bufferViews"] = views.map { view -> [String: Any] in
        defer { offset += view.bytes }
        return ["buffer": 0, "byteOffset": offset, "byteLength": view.bytes, "target": view.target]
      }
      json["buffers"] = [["byteLength": binaryLength]]
      let bounds = mesh.bounds ?? Bounds3(min: .zero, max: .zero)
      var accessors: [[String: Any]] = [
        [
          "bufferView": 0, "componentType": Code.float, "count": n, "type": "VEC3",
          "min": [bounds.min.x, bounds.min.y, bounds.min.z].map(Double.init),
          "max": [bounds.max.x, bounds.max.y, bounds.max.z].map(Double.init),
        ]
      ]
      var attributes: [String: Int] = ["POSITION": 0]
      if normals {
        attributes["NORMAL"] = accessors.count
        accessors.append(
          ["bufferView": accessors.count, "componentType": Code.float, "count": n, "type": "VEC3"])
      }
      attributes["COLOR_0"] = accessors.count
      accessors.append([
        "bufferView": accessors.count, "componentType": Code.unsignedByte, "normalized": true,
        "count": n, "type": "VEC4",
      ])
      let indices = accessors.count
      accessors.append([
        "bufferView": indices, "componentType": Code.unsignedInt,
        "count": mesh.triangles.count * 3, "type": "SCALAR",
      ])
      json["accessors"] = accessors
      json["meshes"] = [
        ["primitives": [["attributes": attributes, "indices": indices, "mode": 4, "material": 0]]]
      ]
      json["materials"] = [
        [
          "pbrMetallicRoughness": [
            "baseColorFactor": [1, 1, 1, 1], "metallicFactor": 0, "roughnessFactor": 1,
          ],
          "doubleSided": true,
        ]
      ]
      json["nodes"] = [["mesh": 0]]
      json["scenes"] = [["nodes": [0]]]
      json["scene"] = 0
    }
    var jsonBytes = [UInt8](
      try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]))
    while jsonBytes.count % 4 != 0 { jsonBytes.append(0x20) }
    let hasBinary = !mesh.isEmpty
    var header = LittleEndianBytes()
    header.append(UInt32(0x4654_6C67))  // "glTF"
    header.append(UInt32(2))
    header.append(UInt32(12 + 8 + jsonBytes.count + (hasBinary ? 8 + binaryLength : 0)))
    header.append(UInt32(jsonBytes.count))
    header.append(UInt32(0x4E4F_534A))  // "JSON"
    try write(header.bytes + jsonBytes)
    guard hasBinary else { return }
    var chunk = LittleEndianBytes()
    chunk.append(UInt32(binaryLength))
    chunk.append(UInt32(0x004E_4942))  // "BIN\0"
    try write(chunk.bytes)
    try writeVertices(mesh, normals: normals, write)
  }

  /// The binary chunk's data: every 4-byte aligned, so it needs no padding.
  private func writeVertices(
    _ mesh: TriangleMesh, normals: Bool, _ write: ([UInt8]) throws -> Void
  ) throws {
    let n = mesh.vertexCount
    func pieces(_ count: Int, _ body: (inout LittleEndianBytes, Range<Int>) -> Void) throws {
      for start in stride(from: 0, to: count, by: meshPieceSize) {
        var out = LittleEndianBytes()
        body(&out, start..<min(start + meshPieceSize, count))
        try write(out.bytes)
      }
    }
    try pieces(n) { out, range in
      for p in mesh.positions[range] {
        out.append(p.x)
        out.append(p.y)
        out.append(p.z)
      }
    }
    if normals {
      try pieces(n) { out, range in
        for v in mesh.normals[range] {
          out.append(v.x)
          out.append(v.y)
          out.append(v.z)
        }
      }
    }
    try pieces(n) { out, range in
      for k in range {
        let c = mesh.colors.indices.contains(k) ? mesh.colors[k] : FramePoints.noColor
        out.bytes += [c.r, c.g, c.b, 255]
      }
    }
    try pieces(mesh.triangles.count) { out, range in
      for t in mesh.triangles[range] {
        out.append(t.x)
        out.append(t.y)
        out.append(t.z)
      }
    }
  }
}
