import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

// MARK: - Files that hold points only (no faces, or empty)

@Suite("Shared PLY files: point sets and empty files", .enabled(if: TestData.sharedData != nil))
struct SharedPLYPointFilesTests {
  @Test func emptyVertexElementGivesAnEmptyCloudInASCIIAndBinary() throws {
    let ascii = try SharedPLY.cloud("Fluci+ply-rs/example_plys/empty_2_ok_ascii.ply")
    let binary = try SharedPLY.cloud("Fluci+ply-rs/example_plys/empty_2_ok_little_endian.ply")
    #expect(ascii.isEmpty)
    #expect(ascii.colors == nil)
    #expect(ascii.normals == nil)
    #expect(ascii.attributes.isEmpty)
    #expect(binary == ascii)
  }

  @Test(arguments: [
    "Fluci+ply-rs/example_plys/empty_ok_ascii.ply",
    "mikedh+trimesh/models/empty.ply",
    "mikedh+trimesh/models/emptyIO/ply_empty_ascii.ply",
    "mikedh+trimesh/models/emptyIO/ply_empty_bin.ply",
  ])
  func emptyVertexElementWithNormalsGivesEmptyNormals(_ path: String) throws {
    let cloud = try SharedPLY.cloud(path)
    #expect(cloud.isEmpty)
    #expect(cloud.normals == [])
    #expect(cloud.colors == nil)
    #expect(cloud.attributes.isEmpty)
  }

  @Test(arguments: [
    "Fluci+ply-rs/example_plys/header_min_ok_ascii.ply",
    "mikedh+trimesh/models/emptyIO/ply_empty_header.ply",
  ])
  func headerWithoutElementsGivesAnEmptyCloud(_ path: String) throws {
    let document = try SharedPLY.read(path)
    #expect(document.header.elements.isEmpty)
    #expect(document.cloud == PointCloud())
  }

  @Test func emptyTrimeshFilesAreTheSameInASCIIAndBinary() throws {
    let ascii = try SharedPLY.cloud("mikedh+trimesh/models/emptyIO/ply_empty_ascii.ply")
    let binary = try SharedPLY.cloud("mikedh+trimesh/models/emptyIO/ply_empty_bin.ply")
    #expect(binary == ascii)
  }

  @Test func assimpPointsHaveColoursBeforeNormals() throws {
    let cloud = try SharedPLY.cloud("assimp+assimp/test/models/PLY/points.ply")
    #expect(
      cloud.positions == [Point3(0, 0, 0), Point3(0, 0, 1), Point3(0, 1, 0), Point3(0, 1, 1)])
    let colors = [RGB8(255, 255, 255), RGB8(255, 0, 255), RGB8(255, 255, 0), RGB8(0, 255, 255)]
    #expect(cloud.colors == colors)
    #expect(cloud.normals == [Point3(0, 1, 0), Point3(0, 0, 1), Point3(1, 0, 0), Point3(1, 1, 0)])
    #expect(cloud.attributes.isEmpty)
  }

  /// The five points of trimesh's `points_*` files, as their ASCII text reads.
  static let trimeshPoints: [Point3] = [
    Point3(-0.06325, 0.0359793, 0.0420873),
    Point3(-0.06275, 0.0360343, 0.0425949),
    Point3(-0.0645, 0.0365101, 0.0404362),
    Point3(-0.064, 0.0366195, 0.0414512),
    Point3(-0.0635, 0.0367289, 0.0424662),
  ]

  @Test func asciiPointsWithoutFacesMatchTheirText() throws {
    let cloud = try SharedPLY.cloud("mikedh+trimesh/models/points_ascii.ply")
    #expect(cloud.positions == Self.trimeshPoints)
    #expect(cloud.colors == nil)
    #expect(cloud.normals == nil)
    #expect(cloud.attributes.isEmpty)
  }

  @Test func binaryPointsHoldTheSameFloatsAsTheASCIIText() throws {
    let binary = try SharedPLY.cloud("mikedh+trimesh/models/points_bin.ply")
    #expect(try binary == SharedPLY.cloud("mikedh+trimesh/models/points_ascii.ply"))
    // The first point's bytes: 37 89 81 bd, 08 5f 13 3d, bc 63 2c 3d (little-endian).
    let first = try #require(binary.positions.first)
    #expect(first.x.bitPattern == 0xBD81_8937)
    #expect(first.y.bitPattern == 0x3D13_5F08)
    #expect(first.z.bitPattern == 0x3D2C_63BC)
  }

  @Test func listsInAnotherElementAreReadPastWithoutDisturbingThePoints() throws {
    let cloud = try SharedPLY.cloud("mikedh+trimesh/models/points_ascii_with_lists.ply")
    #expect(cloud.positions == Self.trimeshPoints)
    #expect(cloud.attributes.isEmpty)
  }

  @Test func recordsBeyondTheDeclaredCountAreNotPoints() throws {
    // The header says 12 vertices and 0 faces; the body has a 13th line of three numbers.
    let cloud = try SharedPLY.cloud("mikedh+trimesh/models/points_emptyascii.ply")
    #expect(cloud.count == 12)
    #expect(cloud.positions.first == Point3(-0.010441, -0.013788, 0.0382))
    #expect(cloud.positions.last == Point3(-0.009691, -0.013861, 0.0384))
    #expect(!cloud.positions.contains(Point3(-0.009618, -0.013861, 0.0384)))
  }

  @Test func longDecimalsRoundToTheNearestFloat() throws {
    let cloud = try SharedPLY.cloud("mikedh+trimesh/models/points_emptyface.ply")
    #expect(cloud.count == 1024)
    #expect(cloud.positions.first == Point3(-86.01312256, 39.38998413, -32.02719879))
    #expect(cloud.positions.last == Point3(-63.02141953, -21.70986938, 1.68762136))
  }

  /// The corners of trimesh's `ply_points_*` cube, as the ASCII file lists them.
  static let trimeshCubeCorners: [Point3] = [
    Point3(1, 1, 1), Point3(-1, 1, 1), Point3(-1, -1, 1), Point3(1, -1, 1),
    Point3(1, -1, -1), Point3(-1, -1, -1), Point3(-1, 1, -1), Point3(1, 1, -1),
  ]

  @Test func pointsWithAnEmptyFaceElementLoadInASCII() throws {
    let cloud = try SharedPLY.cloud("mikedh+trimesh/models/emptyIO/ply_points_ascii.ply")
    #expect(cloud.positions == Self.trimeshCubeCorners)
    #expect(cloud.normals == nil)
  }

  @Test func binaryPointsWithZeroNormalsMatchTheASCIIPositions() throws {
    let cloud = try SharedPLY.cloud("mikedh+trimesh/models/emptyIO/ply_points_bin.ply")
    #expect(cloud.positions == Self.trimeshCubeCorners)
    #expect(cloud.normals == Array(repeating: Point3(0, 0, 0), count: 8))
    #expect(cloud.colors == nil)
    #expect(cloud.attributes.isEmpty)
  }
}
