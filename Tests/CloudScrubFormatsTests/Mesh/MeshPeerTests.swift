import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// Our mesh files in trimesh and Open3D (`bench/format_peers.py`): the fused sphere in
/// every format, read back with the same counts, first vertex, face and colour. Each
/// test skips, saying so, when its peer does not import (`pip install trimesh open3d`).
@Suite struct MeshPeerTests {
  static let mesh: TriangleMesh = {
    let fusion = RecordingFusion(
      loader: RecordingLoader(source: SphereCapture.recording(count: 30, width: 80, height: 60)),
      options: FusionOptions(voxelSizeMeters: 0.02))
    do {
      return try fusion.run().mesh
    } catch {
      preconditionFailure("fusion failed: \(error)")
    }
  }()

  static func check(peer: String, format: String) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("sphere.\(format)").path
    try MeshFormats.write(
      mesh, to: path, writer: MeshFormats.writer(forPath: path), comment: "peer test")
    let read = try FormatPeers.json(try FormatPeers.run(["read-mesh", peer, path]))
    #expect(read["vertices"] as? Int == mesh.vertexCount)
    #expect(read["faces"] as? Int == mesh.triangles.count)
    let first = mesh.positions[0]
    let got = read["first_vertex"] as? [Double] ?? []
    #expect(got.count == 3)
    for (value, want) in zip(got, [first.x, first.y, first.z]) {
      #expect(abs(value - Double(want)) <= 1e-6)
    }
    let t = mesh.triangles[0]
    #expect(read["first_face"] as? [Int] == [Int(t.x), Int(t.y), Int(t.z)])
    let c = mesh.colors[0]
    let color = read["first_color"] as? [Int] ?? []
    #expect(color.count == 3)
    // OBJ keeps colour to four decimals of 0…1.
    for (value, want) in zip(color, [c.r, c.g, c.b]) { #expect(abs(value - Int(want)) <= 1) }
  }

  @Test(
    .enabled(
      if: FormatPeers.available.contains("trimesh"), "trimesh does not import: pip install trimesh"),
    arguments: ["ply", "obj", "glb"])
  func trimeshReadsOurMesh(format: String) throws {
    try Self.check(peer: "trimesh", format: format)
  }

  @Test(
    .enabled(
      if: FormatPeers.available.contains("open3d"), "Open3D does not import: pip install open3d"),
    arguments: ["ply", "obj", "glb"])
  func open3DReadsOurMesh(format: String) throws {
    try Self.check(peer: "open3d", format: format)
  }
}
