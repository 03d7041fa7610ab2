import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// Small files written by hand, one feature of the format each.
@Suite struct PLYReaderFeatureTests {
  private func read(_ text: String) throws -> PLYDocument {
    try PLYReader.read(data: Clouds.bytes(text))
  }

  /// Header lines then a little-endian body given as bytes.
  private func readBinary(_ header: String, _ body: [UInt8]) throws -> PLYDocument {
    try PLYReader.read(data: Clouds.bytes(header) + body)
  }

  @Test func faceBeforeVertexIsWalkedPast() throws {
    let document = try read(
      """
      ply
      format ascii 1.0
      element face 2
      property list uchar int vertex_indices
      element vertex 3
      property float x
      property float y
      property float z
      end_header
      3 0 1 2
      4 0 1 2 0
      1 2 3
      4 5 6
      7 8 9

      """)
    #expect(document.cloud.positions == [Point3(1, 2, 3), Point3(4, 5, 6), Point3(7, 8, 9)])
    #expect(document.header.elements.map(\.name) == ["face", "vertex"])
  }

  @Test func binaryFaceBeforeVertexWithListsIsWalkedPast() throws {
    let header = """
      ply
      format binary_little_endian 1.0
      element face 2
      property list uchar ushort vertex_indices
      element vertex 1
      property float x
      property float y
      property float z
      end_header

      """
    // Faces: [1 item: 7], [2 items: 8, 9]; then one vertex (1, 2, 3).
    let faces: [UInt8] = [1, 7, 0, 2, 8, 0, 9, 0]
    let vertex: [UInt8] = [0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40]
    let document = try readBinary(header, faces + vertex)
    #expect(document.cloud.positions == [Point3(1, 2, 3)])
  }

  @Test func crlfCommentsAnywhereAndSpacesAreAccepted() throws {
    let text =
      "ply\r\nformat ascii 1.0\r\ncomment first\r\nelement vertex 2\r\ncomment between\r\n"
      + "obj_info made by hand\r\nproperty  float\tx\r\nproperty float y\r\nproperty float z\r\n"
      + "comment last\r\nend_header\r\n  1.5e1  -2E-1 +3 \r\n\t4 5 6  \r\n"
    let document = try read(text)
    #expect(document.header.comments == ["first", "between", "last"])
    #expect(document.header.objInfo == ["made by hand"])
    #expect(document.cloud.positions == [Point3(15, -0.2, 3), Point3(4, 5, 6)])
  }

  @Test func recordsMaySpanLines() throws {
    let document = try read(
      "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\n"
        + "property float z\nend_header\n1\n2\n3 4 5\n6\n")
    #expect(document.cloud.positions == [Point3(1, 2, 3), Point3(4, 5, 6)])
  }

  @Test func floatColoursAreScaledToBytes() throws {
    let document = try read(
      """
      ply
      format ascii 1.0
      element vertex 2
      property double x
      property double y
      property double z
      property float red
      property float green
      property float blue
      end_header
      0 0 0 1.0 0.5 0
      1 1 1 0.2 2.0 -1

      """)
    // 0.5 × 255 = 127.5 rounds to 128; 0.2 × 255 = 51; out of range clamps.
    #expect(document.cloud.colors == [RGB8(255, 128, 0), RGB8(51, 255, 0)])
  }

  @Test func diffuseColoursAlphaAndSixteenBitColours() throws {
    let diffuse = try read(
      """
      ply
      format ascii 1.0
      element vertex 1
      property float x
      property float y
      property float z
      property uchar diffuse_red
      property uchar diffuse_green
      property uchar diffuse_blue
      property uchar diffuse_alpha
      end_header
      0 0 0 9 8 7 6

      """)
    #expect(diffuse.cloud.colors == [RGB8(9, 8, 7)])
    #expect(diffuse.cloud.attribute(named: "alpha")?.values == .uint8([6]))
    let wide = try read(
      """
      ply
      format ascii 1.0
      element vertex 1
      property float x
      property float y
      property float z
      property ushort red
      property ushort green
      property ushort blue
      end_header
      0 0 0 65535 257 0

      """)
    #expect(wide.cloud.colors == [RGB8(255, 1, 0)])
  }

  @Test func normalsAndOtherScalarsAreKeptWithTheirTypes() throws {
    let document = try read(
      """
      ply
      format ascii 1.0
      element vertex 2
      property float x
      property float y
      property float z
      property float nx
      property float ny
      property float nz
      property uchar confidence
      property float intensity
      property list uchar int neighbours
      property int scalar_label
      end_header
      1 2 3 0 0 1 2 0.25 2 7 8 -5
      4 5 6 0 1 0 0 0.75 0 40000

      """)
    let cloud = document.cloud
    #expect(cloud.normals == [Point3(0, 0, 1), Point3(0, 1, 0)])
    #expect(cloud.attributes.map(\.name) == ["confidence", "intensity", "scalar_label"])
    #expect(cloud.attribute(named: "confidence")?.values == .uint8([2, 0]))
    #expect(cloud.attribute(named: "intensity")?.values == .float32([0.25, 0.75]))
    #expect(cloud.attribute(named: "scalar_label")?.values == .int32([-5, 40000]))
  }

  @Test func bigEndianDoublesAndEveryTypeNameAlias() throws {
    let header = """
      ply
      format binary_big_endian 1.0
      element vertex 1
      property float64 x
      property double y
      property float32 z
      property int8 a
      property uint8 b
      property int16 c
      property uint16 d
      property int32 e
      property uint32 f
      end_header

      """
    var body: [UInt8] = []
    body += [0x3F, 0xF8, 0, 0, 0, 0, 0, 0]  // 1.5
    body += [0xC0, 0x04, 0, 0, 0, 0, 0, 0]  // -2.5
    body += [0x40, 0x40, 0, 0]  // 3.0f
    body += [0xFF]  // int8 -1
    body += [0xFE]  // uint8 254
    body += [0xFF, 0xFE]  // int16 -2
    body += [0xFF, 0xFD]  // uint16 65533
    body += [0xFF, 0xFF, 0xFF, 0xFC]  // int32 -4
    body += [0xFF, 0xFF, 0xFF, 0xFB]  // uint32 4294967291
    let cloud = try readBinary(header, body).cloud
    #expect(cloud.positions == [Point3(1.5, -2.5, 3)])
    #expect(
      cloud.attributes.map { $0.values }
        == [
          .int8([-1]), .uint8([254]), .int16([-2]), .uint16([65533]), .int32([-4]),
          .uint32([4_294_967_291]),
        ])
  }

  @Test func listInsideBinaryVertexIsReadPast() throws {
    let header = """
      ply
      format binary_little_endian 1.0
      element vertex 2
      property float x
      property list uchar float extra
      property float y
      property float z
      property uchar red
      property uchar green
      property uchar blue
      end_header

      """
    let one: [UInt8] = [0, 0, 0x80, 0x3F]
    let two: [UInt8] = [0, 0, 0, 0x40]
    let body =
      one + [2] + two + two + two + one + [1, 2, 3]  // (1, 2, 1) rgb 1 2 3, list of 2
      + two + [0] + one + two + [4, 5, 6]  // (2, 1, 2) rgb 4 5 6, empty list
    let cloud = try readBinary(header, body).cloud
    #expect(cloud.positions == [Point3(1, 2, 1), Point3(2, 1, 2)])
    #expect(cloud.colors == [RGB8(1, 2, 3), RGB8(4, 5, 6)])
  }

  @Test func twoDimensionalPointsReadWithZeroZ() throws {
    let document = try read(
      "ply\nformat ascii 1.0\nelement point 2\nproperty int x\nproperty int y\nend_header\n"
        + "-7 5\n3 4\n")
    #expect(document.cloud.positions == [Point3(-7, 5, 0), Point3(3, 4, 0)])
  }

  @Test func emptyElementsAndHeaderOnlyFilesAreEmptyClouds() throws {
    let empty = try read(
      "ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\n"
        + "property float y\nproperty float z\nelement face 0\nproperty list uchar int v\nend_header\n"
    )
    #expect(empty.cloud.count == 0)
    let headerOnly = try read("ply\nformat ascii 1.0\nend_header\n")
    #expect(headerOnly.cloud.count == 0)
    #expect(headerOnly.header.elements.isEmpty)
  }

  @Test func extraTokensAtTheEndsOfFaceLinesAreReadPast() throws {
    // Some writers put more values on a face line than the header declares.
    let document = try read(
      """
      ply
      format ascii 1.0
      element vertex 3
      property float x
      property float y
      property float z
      element face 2
      property list uchar int vertex_indices
      property uchar red
      end_header
      0 0 0
      1 0 0
      0 1 0
      3 0 1 2 9 1 1 1 1
      3 0 2 1 9 1 1 1 1

      """)
    #expect(document.cloud.count == 3)
  }
}
