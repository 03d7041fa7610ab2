import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

// Tests over the PLY files in `../shared/data/ply`, gathered from other PLY parsers' test
// suites. Every expected value below was written from the files themselves (headers and
// ASCII bodies read as text, binary bodies decoded with Python's struct), never from this
// reader's output. ASCII values are compared with the Float nearest the decimal text;
// binary values are literals that round-trip to the exact stored bits.

/// Helpers shared by the tests over the shared PLY files.
enum SharedPLY {
  /// The path of a file under `../shared/data/ply`.
  static func path(_ relative: String) throws -> String {
    try #require(TestData.shared("ply/" + relative))
  }

  static func read(_ relative: String) throws -> PLYDocument {
    try PLYReader.read(path: path(relative))
  }

  static func cloud(_ relative: String) throws -> PointCloud {
    try read(relative).cloud
  }

  /// The reason reading `relative` fails, after checking that it fails with a
  /// `PLYFileError` naming the file.
  static func readFailure(_ relative: String) throws -> PLYError? {
    let path = try path(relative)
    do {
      _ = try PLYReader.read(path: path)
      Issue.record("\(relative) loaded, but it should not")
      return nil
    } catch let error as PLYFileError {
      #expect(error.path == path)
      return error.reason
    }
  }

  /// The values of the `float` attribute `name`, or `nil` when there is none of that type.
  static func floats(_ cloud: PointCloud, _ name: String) -> [Float]? {
    guard case .float32(let values)? = cloud.attribute(named: name)?.values else { return nil }
    return values
  }

  /// The values of the `uchar` attribute `name`, or `nil` when there is none of that type.
  static func bytes(_ cloud: PointCloud, _ name: String) -> [UInt8]? {
    guard case .uint8(let values)? = cloud.attribute(named: name)?.values else { return nil }
    return values
  }

  /// A point from `double` coordinates, each narrowed to the nearest Float.
  static func point(doubles x: Double, _ y: Double, _ z: Double) -> Point3 {
    Point3(Float(x), Float(y), Float(z))
  }

  /// The eight corners of the unit cube in the order of Greg Turk's example (and of the
  /// files copied from it).
  static let unitCubeCorners: [Point3] = [
    Point3(0, 0, 0), Point3(0, 0, 1), Point3(0, 1, 1), Point3(0, 1, 0),
    Point3(1, 0, 0), Point3(1, 0, 1), Point3(1, 1, 1), Point3(1, 1, 0),
  ]
}

// MARK: - Header facts of every file

/// What the header of one shared PLY file declares, and what reading the file throws
/// when it cannot give points.
struct SharedPLYHeaderCase: Sendable, CustomTestStringConvertible {
  var path: String
  var format: PLYFormat
  /// The offset of the first byte after the `end_header` line.
  var bodyOffset: Int
  var elements: [PLYElement]
  var comments: [String]
  var objInfo: [String]
  var error: PLYError?

  init(
    _ path: String, _ format: PLYFormat, bodyOffset: Int, elements: [PLYElement],
    comments: [String] = [], objInfo: [String] = [], error: PLYError? = nil
  ) {
    self.path = path
    self.format = format
    self.bodyOffset = bodyOffset
    self.elements = elements
    self.comments = comments
    self.objInfo = objInfo
    self.error = error
  }

  var testDescription: String { path }

  /// The records that are points: those of `vertex`, or in the ply-rs files that have no
  /// `vertex` element, those of `point`; a header without elements gives none.
  var pointCount: Int {
    (elements.first { $0.name == "vertex" } ?? elements.first { $0.name == "point" })?.count ?? 0
  }
}

@Suite("Shared PLY files: headers and load outcome", .enabled(if: TestData.sharedData != nil))
struct SharedPLYHeaderTests {
  @Test func tableListsEveryPLYFileInTheSharedFolder() throws {
    let root = try #require(TestData.sharedData).appendingPathComponent("ply")
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
    let found = Set(enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".ply") })
    #expect(found == Set(SharedPLYHeaderCase.all.map(\.path)))
    #expect(SharedPLYHeaderCase.all.count == 53)
  }

  @Test(arguments: SharedPLYHeaderCase.all)
  func headerDeclaresFormatElementsPropertiesAndComments(_ expected: SharedPLYHeaderCase) throws {
    let header = try PLYReader.readHeader(path: SharedPLY.path(expected.path))
    #expect(header.format == expected.format)
    #expect(header.version == "1.0")
    #expect(header.elements.map(\.name) == expected.elements.map(\.name))
    #expect(header.elements.map(\.count) == expected.elements.map(\.count))
    #expect(header.elements == expected.elements)
    #expect(header.comments == expected.comments)
    #expect(header.objInfo == expected.objInfo)
    #expect(header.bodyOffset == expected.bodyOffset)
  }

  @Test(arguments: SharedPLYHeaderCase.all)
  func fileGivesOnePointPerPointRecordOrTheErrorItDeserves(
    _ expected: SharedPLYHeaderCase
  ) throws {
    if let error = expected.error {
      #expect(try SharedPLY.readFailure(expected.path) == error)
      return
    }
    let document = try SharedPLY.read(expected.path)
    #expect(document.header.format == expected.format)
    #expect(document.header.elements == expected.elements)
    #expect(document.cloud.count == expected.pointCount)
    #expect(document.cloud.isConsistent)
  }
}
