import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

// Mesh files from other PLY parsers' test suites: the points are the vertex records, and
// faces, edges and their colours are read past. Expected values were written from the
// files themselves; see SharedPLYFilesTests.swift.

// MARK: - ply-rs examples

@Suite("Shared PLY files: ply-rs examples", .enabled(if: TestData.sharedData != nil))
struct SharedPLYRsExampleTests {
  static let folder = "Fluci+ply-rs/example_plys/"

  @Test func gregTurkCubeGivesEightCornersInFileOrder() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "greg_turk_example1_ok_ascii.ply")
    #expect(cloud.positions == SharedPLY.unitCubeCorners)
    #expect(cloud.colors == nil)
    #expect(cloud.normals == nil)
    #expect(cloud.attributes.isEmpty)
  }

  @Test func gregTurkColouredCubeTakesVertexColoursAndSkipsEdgeColours() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "greg_turk_example2_ok_ascii.ply")
    #expect(cloud.positions == SharedPLY.unitCubeCorners)
    let red = RGB8(255, 0, 0)
    let blue = RGB8(0, 0, 255)
    #expect(cloud.colors == [red, red, red, red, blue, blue, blue, blue])
    #expect(cloud.attributes.isEmpty)
  }

  @Test func pointElementWithExponentsGivesOneFlatPoint() throws {
    // "element point 1" with float x and y only: "-7e-2 5e2".
    let cloud = try SharedPLY.cloud(Self.folder + "exponent_values_ok_ascii.ply")
    #expect(cloud.positions == [Point3(-7e-2, 5e2, 0)])
    #expect(cloud.attributes.isEmpty)
  }

  @Test func pointElementWithIntegerCoordinatesGivesOneFlatPoint() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "single_elements_ok_ascii.ply")
    #expect(cloud.positions == [Point3(-7, 5, 0)])
    #expect(cloud.attributes.isEmpty)
  }

  @Test func tabsAndSpacesAroundValuesAreSeparators() throws {
    // Four declared records over lines that begin with spaces and tabs; the fifth line,
    // "\t42 17" without a final newline, is beyond the declared count.
    let cloud = try SharedPLY.cloud(Self.folder + "leading_spaces_ok_ascii.ply")
    let expected = [Point3(21, 14, 0), Point3(1, 3, 0), Point3(11, 12, 0), Point3(1.2, 3.4, 0)]
    #expect(cloud.positions == expected)
  }

  @Test func pointElementWithoutCoordinatesNamesTheMissingX() throws {
    // "element point 1" with properties a…p, one of every type, and no x.
    let reason = try SharedPLY.readFailure(Self.folder + "all_atomic_types_ok_ascii.ply")
    #expect(reason == .missingProperty(name: "x", element: "point"))
  }

  static let housePositions = [
    Point3(1, -1, 0), Point3(-1, 1, 0), Point3(-1, -1, 0), Point3(1, 1, 0), Point3(0, 2, 0),
  ]

  @Test func houseLoadsIdenticallyFromASCIIAndLittleEndian() throws {
    let ascii = try SharedPLY.cloud(Self.folder + "house_2_ok_ascii.ply")
    let binary = try SharedPLY.cloud(Self.folder + "house_2_ok_little_endian.ply")
    #expect(ascii.positions == Self.housePositions)
    #expect(binary == ascii)
  }

  @Test func houseNormalsKeepTheSignOfNegativeZero() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "house_ok_ascii.ply")
    #expect(cloud.positions == Self.housePositions)
    let normals = try #require(cloud.normals)
    #expect(normals == Array(repeating: Point3(0, 0, 1), count: 5))
    #expect(normals[0].x.sign == .minus)  // "-0.000000"
    #expect(normals[4].x.sign == .plus)  // "0.000000"
  }
}

// MARK: - assimp

@Suite("Shared PLY files: assimp models", .enabled(if: TestData.sharedData != nil))
struct SharedPLYAssimpTests {
  static let folder = "assimp+assimp/test/models/PLY/"

  @Test func cubeWithTrailingSpacesInTheHeaderLoads() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "cube.ply")
    #expect(cloud.positions == SharedPLY.unitCubeCorners)
    #expect(cloud.attributes.isEmpty)
  }

  @Test func binaryCubeMatchesTheASCIICube() throws {
    let binary = try SharedPLY.cloud(Self.folder + "cube_binary.ply")
    #expect(binary.positions == SharedPLY.unitCubeCorners)
    #expect(try binary == SharedPLY.cloud(Self.folder + "cube.ply"))
  }

  @Test func binaryCubeWithCRLFAfterEndHeaderMatchesTheLFOne() throws {
    let crlf = try SharedPLY.read(Self.folder + "cube_binary_header_with_RN_newline.ply")
    #expect(crlf.header.bodyOffset == 196)
    #expect(try crlf.cloud == SharedPLY.cloud(Self.folder + "cube_binary.ply"))
  }

  @Test func cubeUVKeepsNormalsAndTextureCoordinates() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "cube_uv.ply")
    #expect(cloud.count == 24)
    #expect(cloud.attributes.map(\.name) == ["s", "t"])
    let normals = try #require(cloud.normals)
    let s = try #require(SharedPLY.floats(cloud, "s"))
    let t = try #require(SharedPLY.floats(cloud, "t"))
    // "1.000000 1.000000 -1.000000 0.000000 0.000000 -1.000000 0.000000 0.000000"
    #expect(cloud.positions[0] == Point3(1, 1, -1))
    #expect(normals[0] == Point3(0, 0, -1))
    #expect((s[0], t[0]) == (0, 0))
    // "0.999999 -1.000001 1.000000 0.000000 -0.000000 1.000000 0.000000 1.000000"
    #expect(cloud.positions[7] == Point3(0.999999, -1.000001, 1))
    #expect(normals[7] == Point3(0, 0, 1))
    #expect(normals[7].y.sign == .minus)
    #expect((s[7], t[7]) == (0, 1))
    // "-1.000000 1.000000 1.000000 0.000000 1.000000 0.000000 0.000000 1.000000"
    #expect(cloud.positions[23] == Point3(-1, 1, 1))
    #expect(normals[23] == Point3(0, 1, 0))
    #expect((s[23], t[23]) == (0, 1))
  }

  @Test func floatColoursScaleTo255AndAlphaStaysAFloatAttribute() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "float-color.ply")
    #expect(cloud.positions == [Point3(0, 0, 0), Point3(100, 0, 0), Point3(200, 200, 0)])
    #expect(cloud.colors == Array(repeating: RGB8(0, 0, 255), count: 3))
    #expect(cloud.attributes.map(\.name) == ["alpha"])
    #expect(SharedPLY.floats(cloud, "alpha") == [1, 1, 1])
  }
}

// MARK: - tinyply, rply, python-plyfile

@Suite("Shared PLY files: tinyply, rply and plyfile", .enabled(if: TestData.sharedData != nil))
struct SharedPLYOtherParsersTests {
  @Test func binaryIcosahedronKeepsTheExactNormalBits() throws {
    let cloud = try SharedPLY.cloud("ddiakopoulos+tinyply/assets/icosahedron.ply")
    #expect(cloud.count == 12)
    let normals = try #require(cloud.normals)
    #expect(cloud.positions.first == Point3(0, 0, -1))
    #expect(normals.first == Point3(Float(bitPattern: 0x3678_0000), 0, -4.1607757))
    #expect(normals.first?.z.bitPattern == 0xC085_2513)
    // Bytes d9 3d 39 3f, 96 95 06 bf, 5d f9 e4 be.
    #expect(cloud.positions[1] == Point3(0.7236, -0.52572, -0.447215))
    #expect(cloud.positions.last == Point3(0, 0, 1))
    #expect(normals.last == Point3(Float(bitPattern: 0xB678_0000), 0, 4.1607757))
    #expect(cloud.attributes.isEmpty)
  }

  @Test func asciiIcosahedronMatchesItsText() throws {
    let cloud = try SharedPLY.cloud("ddiakopoulos+tinyply/assets/icosahedron_ascii.ply")
    let normals = try #require(cloud.normals)
    #expect(cloud.positions.first == Point3(0, 0, -1))
    #expect(normals.first == Point3(3.69549e-06, 0, -4.16078))
    #expect(cloud.positions[1] == Point3(0.7236, -0.52572, -0.447215))
    #expect(normals[1] == Point3(3.0108, -2.18747, -1.86078))
    #expect(cloud.positions.last == Point3(0, 0, 1))
    #expect(normals.last == Point3(-3.69549e-06, 0, 4.16078))
  }

  @Test func icosahedronVariantsShareTheirPositionsAndNearlyTheirNormals() throws {
    // The ASCII file prints the normals with six significant digits only.
    let ascii = try SharedPLY.cloud("ddiakopoulos+tinyply/assets/icosahedron_ascii.ply")
    let binary = try SharedPLY.cloud("ddiakopoulos+tinyply/assets/icosahedron.ply")
    #expect(ascii.positions == binary.positions)
    let pairs = zip(try #require(ascii.normals), try #require(binary.normals))
    for (a, b) in pairs {
      #expect(abs(a.x - b.x) <= 1e-5 && abs(a.y - b.y) <= 1e-5 && abs(a.z - b.z) <= 1e-5)
    }
  }

  @Test func sofaLoadsAllTwelveThousandPoints() throws {
    let cloud = try SharedPLY.cloud("ddiakopoulos+tinyply/assets/sofa_ascii.ply")
    #expect(cloud.count == 12103)
    #expect(cloud.positions.first == Point3(-1023.32, 53.1683, 424.517))
    #expect(cloud.positions.last == Point3(-990, 47.4266, -443.635))
  }

  @Test func rplyInputWithLeadingZerosAndALateComment() throws {
    // "-1 0 0", "000 1 0", "1 0000 0"; after the one declared face comes a second one.
    let document = try SharedPLY.read("diegonehab+rply/etc/input.ply")
    #expect(document.cloud.positions == [Point3(-1, 0, 0), Point3(0, 1, 0), Point3(1, 0, 0)])
    #expect(document.header.comments.last == "this is our last comment")
  }

  @Test func plyfileTetrahedronColoursBelongToFacesNotPoints() throws {
    let cloud = try SharedPLY.cloud("dranjan+python-plyfile/examples/tet.ply")
    #expect(
      cloud.positions == [Point3(0, 0, 0), Point3(0, 1, 1), Point3(1, 0, 1), Point3(1, 1, 0)])
    #expect(cloud.colors == nil)
    #expect(cloud.attributes.isEmpty)
  }
}

// MARK: - trimesh

@Suite("Shared PLY files: trimesh models", .enabled(if: TestData.sharedData != nil))
struct SharedPLYTrimeshTests {
  static let folder = "mikedh+trimesh/models/"

  @Test func boxTexturedKeepsNormalsAndTextureCoordinates() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "BoxTextured.ply")
    #expect(cloud.count == 24)
    let normals = try #require(cloud.normals)
    let s = try #require(SharedPLY.floats(cloud, "s"))
    let t = try #require(SharedPLY.floats(cloud, "t"))
    #expect(cloud.positions.first == Point3(-0.5, -0.5, 0.5))
    #expect(normals.first == Point3(0, 0, 1))
    #expect((s[0], t[0]) == (6, 1))
    #expect(normals[3].x.sign == .minus)  // "-0.000000 0.000000 1.000000"
    #expect(cloud.positions.last == Point3(0.5, 0.5, -0.5))
    #expect(normals.last == Point3(0, 0, -1))
    #expect((s[23], t[23]) == (1, 0))
  }

  @Test func blenderCubeKeepsNormalsAndTextureCoordinates() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "cube_blender_uv.ply")
    let normals = try #require(cloud.normals)
    let s = try #require(SharedPLY.floats(cloud, "s"))
    let t = try #require(SharedPLY.floats(cloud, "t"))
    #expect(cloud.positions.first == Point3(0.5, 0.5, 0.5))
    #expect(normals.first == Point3(0, 0, 1))
    #expect((s[0], t[0]) == (0.625, 0.5))
    #expect(cloud.positions.last == Point3(0.5, 0.5, -0.5))
    #expect(normals.last == Point3(0, 1, 0))
    #expect((s[23], t[23]) == (0.375, 0.5))
  }

  @Test func meshlabCubeHasTheBlenderCubesPositionsAndTextureCoordinates() throws {
    let meshlab = try SharedPLY.cloud(Self.folder + "cube_blender_uv_meshlab.ply")
    let blender = try SharedPLY.cloud(Self.folder + "cube_blender_uv.ply")
    #expect(meshlab.attributes.map(\.name) == ["texture_u", "texture_v"])
    #expect(meshlab.normals == nil)
    #expect(meshlab.positions.first == Point3(0.5, 0.5, 0.5))
    #expect(meshlab.positions.last == Point3(0.5, 0.5, -0.5))
    #expect(meshlab.positions == blender.positions)
    #expect(SharedPLY.floats(meshlab, "texture_u") == SharedPLY.floats(blender, "s"))
    #expect(SharedPLY.floats(meshlab, "texture_v") == SharedPLY.floats(blender, "t"))
  }

  @Test func cycloidalGearHasWhiteOpaquePointsAndIgnoresFaceColours() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "cycloidal.ply")
    #expect(cloud.count == 21384)
    #expect(cloud.positions.first == Point3(0.239546, 0.598458, 1.383112))
    #expect(cloud.positions.last == Point3(1.422989, -0.247186, 1.508112))
    #expect(cloud.colors == Array(repeating: RGB8(255, 255, 255), count: 21384))
    #expect(cloud.attributes.map(\.name) == ["alpha"])
    #expect(SharedPLY.bytes(cloud, "alpha") == Array(repeating: 255, count: 21384))
  }

  @Test func fixedTopFaceColoursAreNotPointColours() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "fixed_top.ply")
    #expect(cloud.count == 2374)
    #expect(cloud.positions.first == Point3(-1.22465e-14, 0, -50))
    #expect(cloud.positions.last == Point3(18.7248, 9.60312, -46.2506))
    #expect(cloud.colors == nil)
    #expect(cloud.attributes.isEmpty)
  }

  @Test func fuzeFaceLinesLongerThanDeclaredDoNotStopThePointsLoading() throws {
    // Each face line ends "9 1 1 1 1 1 1 1 1 1" where the header declares four uchar (red
    // green blue alpha), so the faces only make sense one record a line.
    let cloud = try SharedPLY.cloud(Self.folder + "fuze_ascii.ply")
    #expect(cloud.count == 502)
    #expect(cloud.positions.first == Point3(0.002047, -0.002871, 0.004031))
    #expect(cloud.positions.last == Point3(-0.02359, -0.024429, 0.113014))
    #expect(cloud.colors == Array(repeating: RGB8(192, 192, 192), count: 502))
    #expect(cloud.attributes.map(\.name) == ["alpha"])
    #expect(SharedPLY.bytes(cloud, "alpha") == Array(repeating: 255, count: 502))
  }

  @Test func mirrorMatchesItsBinaryFloats() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "mirror.ply")
    #expect(cloud.count == 143)
    #expect(cloud.positions.first == Point3(-0.5222975, 6.22131, 7.69071))
    #expect(cloud.positions.last == Point3(-0.608235, 5.56506, 7.77921))
  }

  @Test func multiHasTextureCoordinatesThenColours() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "multi.ply")
    #expect(
      cloud.positions
        == [Point3(-1, -1, 0), Point3(1, -1, 0), Point3(1, 1, 0), Point3(-1, 1, 0)])
    #expect(SharedPLY.floats(cloud, "s") == [0, 1, 1, 0])
    #expect(SharedPLY.floats(cloud, "t") == [0, 0, 1, 1])
    let colors = [RGB8(255, 0, 0), RGB8(0, 255, 0), RGB8(0, 0, 255), RGB8(255, 255, 255)]
    #expect(cloud.colors == colors)
    #expect(cloud.normals == nil)
  }

  @Test func octagonalPocketKeepsTinyValues() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "octagonal_pocket.ply")
    #expect(cloud.count == 1658)
    // Bytes b5 83 cf a5, e4 4e ff 89, 4a 0c 82 3c.
    #expect(cloud.positions.first == Point3(-3.5998024e-16, -6.1463205e-33, 0.015875))
    #expect(cloud.positions.last == Point3(0.0047625, 0.16471462, 0.0047625))
  }

  @Test func planeQuadHasUpNormalsAndCornerTextureCoordinates() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "plane.ply")
    #expect(
      cloud.positions
        == [Point3(-1, -1, 0), Point3(1, -1, 0), Point3(1, 1, 0), Point3(-1, 1, 0)])
    #expect(cloud.normals == Array(repeating: Point3(0, 0, 1), count: 4))
    #expect(SharedPLY.floats(cloud, "s") == [0, 1, 1, 0])
    #expect(SharedPLY.floats(cloud, "t") == [0, 0, 1, 1])
  }

  @Test func triangulatedPlaneListsItsCornersInAnotherOrder() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "plane_tri.ply")
    #expect(
      cloud.positions
        == [Point3(1, -1, 0), Point3(-1, 1, 0), Point3(-1, -1, 0), Point3(1, 1, 0)])
    let normals = try #require(cloud.normals)
    #expect(normals == Array(repeating: Point3(0, 0, 1), count: 4))
    #expect(normals.allSatisfy { $0.x.sign == .minus })  // "-0.000000"
    #expect(SharedPLY.floats(cloud, "s") == [1, 0, 0, 1])
    #expect(SharedPLY.floats(cloud, "t") == [0, 1, 0, 1])
  }

  @Test func referenceKeepsPerPointColourAndAlpha() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "reference.ply")
    #expect(cloud.count == 845)
    let colors = try #require(cloud.colors)
    let alpha = try #require(SharedPLY.bytes(cloud, "alpha"))
    #expect(cloud.positions.first == Point3(-52.8256, -49.5309, -68.1303))
    #expect(colors.first == RGB8(192, 192, 192))
    #expect(alpha.first == 255)
    // Record 11 is the first that is not grey: green with alpha 0.
    #expect(cloud.positions[11] == Point3(-38.0782, -66.9499, -64.9298))
    #expect(colors[11] == RGB8(0, 255, 0))
    #expect(alpha[11] == 0)
    #expect(cloud.positions.last == Point3(19.2699, 59.2814, -16.8132))
    #expect(colors.last == RGB8(192, 192, 192))
    #expect(alpha.last == 255)
  }

  @Test func sphereMatchesItsText() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "sphere.ply")
    #expect(cloud.count == 642)
    #expect(cloud.positions.first == Point3(-0.525731, 0.850651, 0))
    #expect(cloud.positions.last == Point3(0.912982, 0.399607, -0.0823236))
  }

  @Test func suzanneKeepsNormalsAndTextureCoordinates() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "suzanne.ply")
    #expect(cloud.count == 1966)
    let normals = try #require(cloud.normals)
    let s = try #require(SharedPLY.floats(cloud, "s"))
    let t = try #require(SharedPLY.floats(cloud, "t"))
    #expect(cloud.positions.first == Point3(0.468750, 1.510122, 0.714372))
    #expect(normals.first == Point3(0.664993, -0.200752, 0.719363))
    #expect((s[0], t[0]) == (0.890955, 0.590063))
    #expect(cloud.positions.last == Point3(-0.773438, 1.127310, -0.168440))
    #expect(normals.last == Point3(0.247398, -0.923066, -0.294522))
    #expect((s[1965], t[1965]) == (0.325318, 0.656224))
  }

  @Test func binaryTetrahedronMatchesItsFloats() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "tet.ply")
    #expect(
      cloud.positions == [Point3(0, -1, 1), Point3(0, 1, 1), Point3(-1, 0, -1), Point3(1, 0, -1)])
    #expect(cloud.attributes.isEmpty)
  }
}

// MARK: - hapPLY

@Suite("Shared PLY files: hapPLY platonic shelf", .enabled(if: TestData.sharedData != nil))
struct SharedPLYHapplyTests {
  static let folder = "nmwsharp+happly/test/sampledata/"

  @Test func littleEndianDoublesAfterTheFacesNarrowToFloat() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "platonic_shelf.ply")
    #expect(cloud.count == 50)
    let first = try #require(cloud.positions.first)
    #expect(first == SharedPLY.point(doubles: -3.562626, -0.627972, 0.613591))
    #expect(first.x.bitPattern == 0xC064_0210)
    #expect(cloud.positions.last == SharedPLY.point(doubles: 6.068807, 0.985759, 0.056527))
    #expect(cloud.attributes.isEmpty)
  }

  @Test func asciiDoublesNarrowToTheSameFloats() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "platonic_shelf_ascii.ply")
    #expect(
      cloud.positions.first
        == SharedPLY.point(doubles: -3.5626259999999998, -0.62797199999999997, 0.613591))
    #expect(
      cloud.positions.last
        == SharedPLY.point(doubles: 6.0688069999999996, 0.98575900000000005, 0.056527000000000001))
    #expect(try cloud == SharedPLY.cloud(Self.folder + "platonic_shelf.ply"))
  }

  @Test func bigEndianWithVerticesFirstGivesTheSameCloud() throws {
    let cloud = try SharedPLY.cloud(Self.folder + "platonic_shelf_big_endian.ply")
    #expect(cloud.positions.first == SharedPLY.point(doubles: -3.562626, -0.627972, 0.613591))
    #expect(try cloud == SharedPLY.cloud(Self.folder + "platonic_shelf.ply"))
  }
}
