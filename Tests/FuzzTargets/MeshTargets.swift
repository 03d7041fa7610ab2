import CloudScrubCore
import CloudScrubFormats

/// Targets for the mesh readers, glTF binary and OBJ, each also through the content
/// detection that picks it.
public enum MeshTargets {
  static let all: [FuzzTarget] = [glb, obj]

  /// A tetrahedron with corners (0,0,0), (1,0,0), (0,1,0), (0,0,1), wound outwards, with
  /// colours and normals: the seeds' mesh, and the mesh tests'.
  public static func seedMesh() -> TriangleMesh {
    var mesh = TriangleMesh(
      positions: [Point3(0, 0, 0), Point3(1, 0, 0), Point3(0, 1, 0), Point3(0, 0, 1)],
      colors: [RGB8(255, 0, 0), RGB8(0, 255, 0), RGB8(0, 0, 255), RGB8(10, 20, 30)],
      triangles: [SIMD3(0, 2, 1), SIMD3(0, 1, 3), SIMD3(0, 3, 2), SIMD3(1, 2, 3)])
    mesh.computeNormals()
    return mesh
  }

  static func encodeMesh(_ format: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    guard let writer = try? MeshFormats.writer(forPath: "seed.\(format)"),
      (try? writer.encode(seedMesh(), comment: "seed", { bytes += $0 })) != nil
    else { return nil }
    return bytes
  }

  static let glb = FuzzTarget(
    name: "glb", maxLength: 1 << 14,
    run: { bytes in
      _ = CloudFileFormats.format(of: Array(bytes.prefix(CloudFileFormats.prefixBytes)))
      _ = bytes.withUnsafeBytes { try? GLBReader.read(bytes: $0) }
    },
    seeds: { [encodeMesh("glb")].compactMap { $0 } })

  static let obj = FuzzTarget(
    name: "obj", maxLength: 1 << 14,
    run: { bytes in
      _ = CloudFileFormats.format(of: Array(bytes.prefix(CloudFileFormats.prefixBytes)))
      _ = bytes.withUnsafeBytes { try? OBJReader.read(bytes: $0) }
    },
    seeds: {
      [encodeMesh("obj")].compactMap { $0 }
        + [Array("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 -1/1/1\n".utf8)]
    })
}
