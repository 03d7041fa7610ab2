import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `cloudscrub mesh` and `export --fuse` on a synthetic recording of the analytic room,
/// and their refusals.
@Suite struct MeshCommandTests {
  /// A folder with a 6-frame synthetic recording; the caller removes it.
  static func recording() throws -> (folder: URL, path: String) {
    let folder = try TestData.makeTemporaryDirectory()
    let path = folder.appendingPathComponent("scene.csrec").path
    let synth = try CommandRunner.run(["synth", path, "--frames", "6"])
    #expect(synth.status == 0, "\(synth.standardError)")
    return (folder, path)
  }

  @Test func meshLiesOnTheRoomInEveryFormat() throws {
    let (folder, recording) = try Self.recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    for format in ["ply", "obj", "glb"] {
      let output = folder.appendingPathComponent("room.\(format)").path
      let run = try CommandRunner.run(["mesh", recording, "-o", output, "--voxel", "0.03"])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardOutput.contains("triangles written to \(output)"))
      #expect(run.standardError.contains("fused 6 frames at 0.03 m voxels (truncation 0.12 m"))
      #expect(FileManager.default.fileExists(atPath: output))
    }
    let ply = try PLYReader.read(path: folder.appendingPathComponent("room.ply").path)
    #expect(ply.header.elements.first { $0.name == "face" }.map { $0.count > 10_000 } == true)
    let scene = SyntheticScene.standard
    let distances = ply.cloud.positions.map {
      scene.distanceToNearestSurface(SIMD3(Double($0.x), Double($0.y), Double($0.z)))
    }.sorted()
    #expect(distances[distances.count / 2] < 0.003)
  }

  /// `render` draws a mesh file's triangles, the same with OpenGL and the CPU (within
  /// the renderers' agreement tolerance, `MeshAgreementTests`), and its vertices as
  /// points with `--surface points`.
  @Test func renderDrawsAMeshFileAsTriangles() throws {
    let (folder, recording) = try Self.recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mesh = folder.appendingPathComponent("room.glb").path
    #expect(try CommandRunner.run(["mesh", recording, "-o", mesh, "--voxel", "0.03"]).status == 0)
    func picture(_ options: [String]) throws -> RGBImage {
      let output = folder.appendingPathComponent("picture.png").path
      let run = try CommandRunner.run(
        ["render", mesh, "-o", output, "--size", "320x200", "--overlays", "off"] + options)
      #expect(run.status == 0, "\(run.standardError)")
      return try PNGCodec.decodeRGB(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    }
    let gl = try picture(["--renderer", "gl"])
    let cpu = try picture(["--renderer", "cpu"])
    let points = try picture(["--renderer", "cpu", "--surface", "points"])
    func differing(_ a: RGBImage, _ b: RGBImage) -> Double {
      ImageBaseline.compare(a, b, channelThreshold: 8).differingFraction
    }
    #expect(differing(gl, cpu) <= 0.01)
    // The room's walls fill most of the view as triangles; as 2-pixel points, at 3 cm
    // spacing, they leave gaps.
    #expect(differing(cpu, points) > 0.1)
  }

  /// `export --fuse` writes the mesh's vertices, with normals, and the cleaning options
  /// then apply to them.
  @Test func exportFuseWritesTheSurfacesPoints() throws {
    let (folder, recording) = try Self.recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mesh = folder.appendingPathComponent("room.ply").path
    let points = folder.appendingPathComponent("points.ply").path
    let merged = folder.appendingPathComponent("merged.ply").path
    #expect(try CommandRunner.run(["mesh", recording, "-o", mesh, "--voxel", "0.03"]).status == 0)
    let fused = try CommandRunner.run([
      "export", recording, "--fuse", "--fuse-voxel", "0.03", "-o", points,
    ])
    #expect(fused.status == 0, "\(fused.standardError)")
    let meshVertices = try PLYReader.read(path: mesh).cloud
    let cloud = try PLYReader.read(path: points).cloud
    #expect(cloud.positions == meshVertices.positions)
    #expect(cloud.colors == meshVertices.colors)
    #expect(cloud.normals?.count == cloud.count)
    let voxel = try CommandRunner.run([
      "export", recording, "--fuse", "--fuse-voxel", "0.03", "--voxel", "0.2", "-o", merged,
    ])
    #expect(voxel.status == 0, "\(voxel.standardError)")
    let thinned = try PLYReader.read(path: merged).cloud.count
    #expect(thinned > 0 && thinned < cloud.count / 10)
  }

  @Test func refusalsNameWhatIsWrong() throws {
    let (folder, recording) = try Self.recording()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.ply").path
    let cases: [([String], Int32, String)] = [
      (["mesh", recording], 2, "mesh needs an output file"),
      (
        ["mesh", recording, "-o", folder.appendingPathComponent("a.las").path], 2,
        "no mesh format for '.las'"
      ),
      (["mesh", TestData.samplePLY, "-o", output], 2, "fusion needs a recording's depth frames"),
      (["mesh", recording, "-o", output, "--voxel", "-1"], 2, "--voxel"),
      (["mesh", recording, "-o", output, "--frames", "50-60"], 2, "50-60"),
      (
        ["export", recording, "-o", output, "--truncation", "0.1"], 2,
        "--truncation applies with --fuse"
      ),
      (
        ["export", recording, "-o", output, "--fuse", "--merge", "0.01"], 2,
        "--merge does not apply with --fuse"
      ),
    ]
    for (arguments, status, message) in cases {
      let run = try CommandRunner.run(arguments)
      #expect(run.status == status, "\(arguments)")
      #expect(run.standardError.contains(message), "\(arguments): \(run.standardError)")
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
