import CloudScrubCore
import CloudScrubFormats
import Foundation
import FuzzTargets
import TestSupport
import Testing

/// The mesh writers' files, read back byte by byte against a hand-made tetrahedron.
@Suite struct MeshFormatsTests {
  static let tetrahedron = MeshTargets.seedMesh()

  static func written(_ name: String) throws -> (bytes: [UInt8], folder: URL) {
    let folder = try TestData.makeTemporaryDirectory()
    let path = folder.appendingPathComponent(name).path
    try MeshFormats.write(
      tetrahedron, to: path, writer: MeshFormats.writer(forPath: path), comment: "test mesh")
    return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), folder)
  }

  static func float(_ bytes: [UInt8], at offset: Int) -> Float {
    Float(
      bitPattern: UInt32(
        littleEndian: bytes[offset..<offset + 4].withUnsafeBytes {
          $0.loadUnaligned(as: UInt32.self)
        }))
  }

  static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(
      littleEndian: bytes[offset..<offset + 4].withUnsafeBytes {
        $0.loadUnaligned(as: UInt32.self)
      })
  }

  @Test func normalsOfTheTetrahedronPointOutwards() {
    let centre = SIMD3<Float>(0.25, 0.25, 0.25)
    for (p, n) in zip(Self.tetrahedron.positions, Self.tetrahedron.normals) {
      let out = SIMD3(p.x, p.y, p.z) - centre
      #expect((out * SIMD3(n.x, n.y, n.z)).sum() > 0)
    }
  }

  @Test func plyHasVerticesThenFaces() throws {
    let (bytes, folder) = try Self.written("t.ply")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = String(decoding: bytes, as: UTF8.self)
    let headerEnd = try #require(text.range(of: "end_header\n"))
    let header = String(text[..<headerEnd.upperBound])
    #expect(header.contains("format binary_little_endian 1.0\ncomment test mesh\n"))
    #expect(header.contains("element vertex 4\n"))
    #expect(header.contains("property float nx\n"))
    #expect(header.contains("element face 4\nproperty list uchar int vertex_indices\n"))
    let body = header.utf8.count
    // 4 vertices of 3 + 3 floats and 3 bytes, then 4 faces of a count byte and 3 ints.
    #expect(bytes.count == body + 4 * 27 + 4 * 13)
    #expect(Self.float(bytes, at: body + 27) == 1)  // second vertex's x
    #expect(Array(bytes[body + 24..<body + 27]) == [255, 0, 0])
    let faces = body + 4 * 27
    #expect(bytes[faces] == 3)
    #expect(
      [1, 5, 9].map { Self.uint32(bytes, at: faces + $0) } == [0, 2, 1])
    // Our own reader takes the vertices and walks past the faces.
    let read = try PLYReader.read(data: bytes)
    #expect(read.cloud.positions == Self.tetrahedron.positions)
    #expect(read.cloud.colors == Self.tetrahedron.colors)
  }

  @Test func objHasColouredVerticesNormalsAndOneBasedFaces() throws {
    let (bytes, folder) = try Self.written("t.obj")
    defer { try? FileManager.default.removeItem(at: folder) }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    #expect(lines[0] == "# test mesh")
    let vertices = lines.filter { $0.hasPrefix("v ") }
    #expect(vertices.count == 4)
    #expect(vertices[1] == "v 1.0 0.0 0.0 0.0000 1.0000 0.0000")
    #expect(lines.filter { $0.hasPrefix("vn ") }.count == 4)
    let faces = lines.filter { $0.hasPrefix("f ") }
    #expect(
      faces == ["f 1//1 3//3 2//2", "f 1//1 2//2 4//4", "f 1//1 4//4 3//3", "f 2//2 3//3 4//4"])
  }

  @Test func glbChunksHoldTheMesh() throws {
    let (bytes, folder) = try Self.written("t.glb")
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(Array(bytes[0..<4]) == Array("glTF".utf8))
    #expect(Self.uint32(bytes, at: 4) == 2)
    #expect(Int(Self.uint32(bytes, at: 8)) == bytes.count)
    let jsonLength = Int(Self.uint32(bytes, at: 12))
    #expect(Array(bytes[16..<20]) == Array("JSON".utf8))
    #expect(jsonLength % 4 == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[20..<20 + jsonLength])) as? [String: Any])
    let binary = 20 + jsonLength
    let binaryLength = Int(Self.uint32(bytes, at: binary))
    #expect(Array(bytes[binary + 4..<binary + 8]) == [0x42, 0x49, 0x4E, 0x00])
    #expect(binary + 8 + binaryLength == bytes.count)
    let asset = try #require(json["asset"] as? [String: Any])
    #expect(asset["version"] as? String == "2.0")
    let accessors = try #require(json["accessors"] as? [[String: Any]])
    let views = try #require(json["bufferViews"] as? [[String: Any]])
    #expect(accessors.count == 4)
    #expect(accessors[0]["min"] as? [Double] == [0, 0, 0])
    #expect(accessors[0]["max"] as? [Double] == [1, 1, 1])
    #expect(views.map { $0["byteLength"] as? Int } == [48, 48, 16, 48])
    #expect(views.reduce(0) { $0 + ($1["byteLength"] as? Int ?? 0) } == binaryLength)
    let data = binary + 8
    #expect(Self.float(bytes, at: data + 12) == 1)  // second position's x
    #expect(Array(bytes[data + 96..<data + 100]) == [255, 0, 0, 255])  // first colour
    #expect((0..<3).map { Self.uint32(bytes, at: data + 112 + 4 * $0) } == [0, 2, 1])
  }

  @Test func formatsAreChosenByExtensionOrName() throws {
    #expect(try MeshFormats.writer(forPath: "a.OBJ").name == "obj")
    #expect(try MeshFormats.writer(forPath: "a.ply", name: "glb").name == "glb")
    #expect(throws: MeshFormatError.self) { try MeshFormats.writer(forPath: "a.las") }
  }

  @Test func anInputIsNeverOverwritten() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("input.ply").path
    try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: (any Error).self) {
      try MeshFormats.write(
        Self.tetrahedron, to: path, writer: MeshFormats.writer(forPath: path), comment: "x",
        protecting: [path])
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["input.ply"])
  }
}
