import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import TestSupport
import Testing

/// The window opens a point-cloud file that is not a binary PLY (PCD, LAS, E57, XYZ,
/// ASCII PLY) by reading it in the background: `open` returns a document whose load
/// runs, and the points, the summary and the export's cloud come once it is read; a
/// file that cannot be read fails the load, naming the file, instead of `open`.
@Suite struct DocumentOpenerCloudTests {
  static func pcd(points rows: [String], declared: Int) -> String {
    """
    # .PCD v0.7
    VERSION 0.7
    FIELDS x y z
    SIZE 4 4 4
    TYPE F F F
    COUNT 1 1 1
    WIDTH \(declared)
    HEIGHT 1
    VIEWPOINT 0 0 0 1 0 0 0
    POINTS \(declared)
    DATA ascii
    \(rows.joined(separator: "\n"))

    """
  }

  @Test func aPCDFileIsReadInTheBackgroundAndKeptForTheExport() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("three.pcd").path
    try Self.pcd(points: ["1 2 3", "4 5 6", "7 8 9.5"], declared: 3)
      .write(toFile: path, atomically: true, encoding: .utf8)

    let document = try DocumentOpener().open(path)
    guard case .cloud(let opened) = document.kind else {
      Issue.record("a PCD file opened as a recording")
      return
    }
    guard case .reading = opened.points else {
      Issue.record("the PCD file was not read in the background")
      return
    }
    #expect(document.load.waitUntilStopped(timeout: 60))
    #expect(document.load.status == .finished(frames: 1))
    #expect(document.summary == "PCD 0.7 ascii, 3 points")
    let expected = [Point3(1, 2, 3), Point3(4, 5, 6), Point3(7, 8, 9.5)]
    #expect(opened.keptCloud?.positions == expected)
    #expect(try opened.wholeCloud().positions == expected)
    #expect(document.load.take().map(\.points.positions) == [expected])
  }

  @Test func aMeshFileKeepsItsTrianglesBesideItsVertices() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mesh = TriangleMesh(
      positions: [Point3(0, 0, 0), Point3(1, 0, 0), Point3(1, 1, 0), Point3(0, 1, 0)],
      colors: Array(repeating: RGB8(10, 20, 30), count: 4),
      triangles: [SIMD3(0, 1, 2), SIMD3(0, 2, 3)])
    for format in ["glb", "obj"] {
      let path = folder.appendingPathComponent("square.\(format)").path
      try MeshFormats.write(
        mesh, to: path, writer: MeshFormats.writer(forPath: path), comment: "a square")
      let document = try DocumentOpener().open(path)
      #expect(document.load.waitUntilStopped(timeout: 60))
      #expect(document.summary.hasSuffix(", 4 points, 2 triangles"), "\(document.summary)")
      guard case .cloud(let opened) = document.kind else {
        Issue.record("a mesh opened as a recording")
        continue
      }
      let read = try #require(opened.mesh, "\(format)")
      #expect(read.triangles == mesh.triangles)
      #expect(read.positions == mesh.positions)
      #expect(read.colors == mesh.colors)
    }
  }

  @Test func aFileThatCannotBeReadFailsTheLoadNamingIt() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("short.pcd").path
    // Five points promised, two given.
    try Self.pcd(points: ["1 2 3", "4 5 6"], declared: 5)
      .write(toFile: path, atomically: true, encoding: .utf8)

    let document = try DocumentOpener().open(path)
    #expect(document.load.waitUntilStopped(timeout: 60))
    guard case .failed(let reason) = document.load.status else {
      Issue.record("the load of a short PCD file did not fail: \(document.load.status)")
      return
    }
    #expect(reason.contains(path), "\(reason)")
    #expect(document.load.take().isEmpty)
    guard case .cloud(let opened) = document.kind else { return }
    #expect(throws: UsageError.self) { try opened.wholeCloud() }
  }

  @Test func posesGivenForAPointCloudAreRefusedAtOnce() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("one.pcd").path
    try Self.pcd(points: ["1 2 3"], declared: 1).write(
      toFile: path, atomically: true, encoding: .utf8)
    var opener = DocumentOpener()
    opener.choicesPath = path
    opener.choices.posesPath = folder.appendingPathComponent("poses.txt").path
    #expect(throws: UsageError.self) { try opener.open(path) }
  }
}
