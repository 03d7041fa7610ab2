import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// The mesh readers on our writers' files, on other writers' forms, and on damage.
@Suite struct MeshReaderTests {
  static func encoded(_ format: String, _ mesh: TriangleMesh = MeshFormatsTests.tetrahedron)
    throws -> [UInt8]
  {
    var bytes: [UInt8] = []
    try MeshFormats.writer(forPath: "m.\(format)").encode(mesh, comment: "test") { bytes += $0 }
    return bytes
  }

  static func glb(_ bytes: [UInt8]) throws -> TriangleMesh {
    try bytes.withUnsafeBytes { buffer throws in try GLBReader.read(bytes: buffer) }
  }

  static func obj(_ text: String) throws -> TriangleMesh {
    try Array(text.utf8).withUnsafeBytes { buffer throws in try OBJReader.read(bytes: buffer) }
  }

  @Test func glbRoundTripsExactly() throws {
    let mesh = MeshFormatsTests.tetrahedron
    #expect(try Self.glb(try Self.encoded("glb")) == mesh)
  }

  /// OBJ keeps colours to 1/10000 and positions and normals as their shortest text.
  @Test func objRoundTrips() throws {
    let mesh = MeshFormatsTests.tetrahedron
    let read = try Self.obj(String(decoding: try Self.encoded("obj"), as: UTF8.self))
    #expect(read == mesh)
  }

  @Test func objReadsPolygonsNegativeReferencesAndPlainVertices() throws {
    let read = try Self.obj(
      """
      # a square and a triangle
      o thing
      v 0 0 0
      v 1 0 0
      v 1 1 0
      v 0 1 0
      vt 0 0
      f 1/1 2/1 3/1 4/1
      f -4 -3 -1
      """)
    #expect(read.vertexCount == 4)
    #expect(read.triangles == [SIMD3(0, 1, 2), SIMD3(0, 2, 3), SIMD3(0, 1, 3)])
    #expect(read.colors == Array(repeating: FramePoints.noColor, count: 4))
    #expect(read.normals.isEmpty)
  }

  @Test func badInputNamesWhatIsWrong() throws {
    #expect(throws: OBJError.badLine(2, "reference '5' to 1 items")) {
      try Self.obj("v 0 0 0\nf 1 1 5\n")
    }
    #expect(throws: OBJError.badLine(1, "'v' needs finite numbers")) { try Self.obj("v 0 nan 0\n") }
    let good = try Self.encoded("glb")
    #expect(throws: GLBError.truncated(needed: good.count, size: good.count - 1)) {
      try Self.glb(Array(good.dropLast()))
    }
    // The last index (a uint32 at the end) pointed past the 4 vertices.
    var outOfRange = good
    outOfRange[outOfRange.count - 4] = 9
    #expect(throws: GLBError.invalid("meshes[0].primitives[0]", "index 9 of 4 vertices")) {
      try Self.glb(outOfRange)
    }
    #expect(throws: GLBError.notGLB) { try Self.glb(Array("glTX\u{2}\0\0\0".utf8)) }
  }

  /// Our GLB with its JSON changed by `edit`, the binary chunk kept.
  static func editedGLB(_ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
    let bytes = try encoded("glb")
    let jsonLength = Int(MeshFormatsTests.uint32(bytes, at: 12))
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[20..<20 + jsonLength])) as? [String: Any])
    edit(&json)
    var text = [UInt8](try JSONSerialization.data(withJSONObject: json))
    while text.count % 4 != 0 { text.append(0x20) }
    let binary = Array(bytes[(20 + jsonLength)...])
    func word(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(v).littleEndian) { Array($0) } }
    return Array("glTF".utf8) + word(2) + word(20 + text.count + binary.count) + word(text.count)
      + Array("JSON".utf8) + text + binary
  }

  /// Two nodes place the tetrahedron: one moved by (1, 2, 3), one scaled by 2 about the
  /// origin, in a parent turned a quarter about z.
  @Test func glbNodesPlaceTheirMeshes() throws {
    let bytes = try Self.editedGLB { json in
      json["nodes"] = [
        ["children": [1, 2], "rotation": [0, 0, 0.5.squareRoot(), 0.5.squareRoot()]],
        ["mesh": 0, "translation": [1, 2, 3]],
        ["mesh": 0, "scale": [2, 2, 2]],
      ]
      json["scenes"] = [["nodes": [0]]]
    }
    let read = try Self.glb(bytes)
    #expect(read.vertexCount == 8)
    #expect(read.triangles.count == 8)
    func near(_ p: Point3, _ x: Float, _ y: Float, _ z: Float) -> Bool {
      abs(p.x - x) < 1e-6 && abs(p.y - y) < 1e-6 && abs(p.z - z) < 1e-6
    }
    // (1, 0, 0) moved by (1, 2, 3) is (2, 2, 3), then turned about z: (−2, 2, 3).
    #expect(near(read.positions[1], -2, 2, 3))
    // (1, 0, 0) scaled by 2 is (2, 0, 0), turned: (0, 2, 0).
    #expect(near(read.positions[5], 0, 2, 0))
    #expect(read.triangles[4] == SIMD3(4, 6, 5))
  }

  /// A node that is its own child is walked a bounded number of times.
  @Test func glbNodeLoopsEnd() throws {
    let bytes = try Self.editedGLB { json in
      json["nodes"] = [["mesh": 0, "children": [0, 0]]]
    }
    let read = try Self.glb(bytes)
    #expect(read.vertexCount > 0 && read.vertexCount <= 4 * 20_000)
  }

  @Test func filesAreDetectedByContent() throws {
    #expect(CloudFileFormats.formatName(of: try Self.encoded("glb")) == "glTF binary")
    #expect(CloudFileFormats.formatName(of: try Self.encoded("obj")) == "OBJ")
    #expect(CloudFileFormats.formatName(of: Array("1 2 3\n4 5 6\n".utf8)) == "XYZ text")
  }
}
