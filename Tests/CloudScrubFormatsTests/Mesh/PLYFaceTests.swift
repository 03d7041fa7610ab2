import CloudScrubCore
import CloudScrubFormats
import Foundation
import Testing

/// A binary PLY mesh's faces: our writer's triangles read back exactly, other writers'
/// polygons cut into fans (either byte order, extra face properties walked past), and a
/// face naming a vertex the file lacks refused with its number.
@Suite struct PLYFaceTests {
  @Test func ourPLYMeshReadsBackItsTriangles() throws {
    let mesh = MeshFormatsTests.tetrahedron
    let document = try PLYReader.read(data: try MeshReaderTests.encoded("ply", mesh))
    #expect(document.triangles == mesh.triangles)
    #expect(document.cloud.positions == mesh.positions)
    #expect(document.header.hasFaces)
  }

  /// A binary PLY of four vertices and one face of `corners`, written as another tool
  /// might: a `flags` byte before the list, a `ushort` count and `uint` indices.
  static func quad(corners: [UInt32], bigEndian: Bool) -> [UInt8] {
    let order = bigEndian ? "binary_big_endian" : "binary_little_endian"
    var bytes = Array(
      """
      ply
      format \(order) 1.0
      element vertex 4
      property float x
      property float y
      property float z
      element face 1
      property uchar flags
      property list ushort uint vertex_index
      end_header

      """.utf8)
    func put<T: FixedWidthInteger>(_ value: T) {
      let stored = bigEndian ? value.bigEndian : value.littleEndian
      withUnsafeBytes(of: stored) { bytes += $0 }
    }
    for (x, y) in [(0, 0), (1, 0), (1, 1), (0, 1)] as [(Float, Float)] {
      for value in [x, y, 0] { put(value.bitPattern) }
    }
    bytes.append(7)
    put(UInt16(corners.count))
    for corner in corners { put(corner) }
    return bytes
  }

  @Test func polygonsAreCutIntoFansInEitherByteOrder() throws {
    for bigEndian in [false, true] {
      let document = try PLYReader.read(
        data: Self.quad(corners: [0, 1, 2, 3], bigEndian: bigEndian))
      #expect(document.triangles == [SIMD3(0, 1, 2), SIMD3(0, 2, 3)], "big endian \(bigEndian)")
      #expect(document.cloud.positions[2] == Point3(1, 1, 0))
    }
  }

  @Test func aFaceNamingAMissingVertexIsRefused() throws {
    #expect(throws: PLYError.badFaceIndex(face: 0, index: 4, vertexCount: 4)) {
      try PLYReader.read(data: Self.quad(corners: [0, 1, 4], bigEndian: false))
    }
    // A face cut short by the file's end.
    let short = Self.quad(corners: [0, 1, 2, 3], bigEndian: false).dropLast(3)
    #expect(throws: PLYError.self) { try PLYReader.read(data: Array(short)) }
    let message = "\(PLYError.badFaceIndex(face: 0, index: 4, vertexCount: 4))"
    #expect(message == "face 0 names vertex 4, but the file has 4 vertices")
  }
}
