import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// Bad input of every class gets its own error, naming what is wrong and where.
@Suite struct PLYMalformedTests {
  private func error(_ bytes: [UInt8]) -> PLYError? {
    do {
      _ = try PLYReader.read(data: bytes)
      return nil
    } catch {
      return error
    }
  }

  private func error(_ text: String) -> PLYError? { error(Clouds.bytes(text)) }

  private let xyzHeader = """
    ply
    format ascii 1.0
    element vertex 3
    property float x
    property float y
    property float z
    end_header

    """

  @Test func notAPLYFile() {
    #expect(error("PLY\nformat ascii 1.0\nend_header\n") == .notPLY)
    #expect(error([UInt8]()) == .notPLY)
    #expect(error([0x89, 0x50, 0x4E, 0x47]) == .notPLY)
  }

  @Test func headerWithoutEnd() {
    let text = "ply\nformat ascii 1.0\nelement vertex 1\n"
    #expect(error(text) == .missingEndHeader(byteCount: text.utf8.count))
  }

  @Test func malformedHeaderLinesNameTheirLine() {
    guard
      case .malformedHeader(let line, let text, _) = error(
        "ply\nformat ascii 1.0\nelement vertex\nend_header\n")
    else {
      Issue.record("expected malformedHeader")
      return
    }
    #expect(line == 3)
    #expect(text == "element vertex")
    guard case .malformedHeader(line: 2, _, _) = error("ply\nformat text 1.0\nend_header\n") else {
      Issue.record("expected malformedHeader on line 2")
      return
    }
    guard
      case .malformedHeader(line: 3, _, _) = error(
        "ply\nformat ascii 1.0\nproperty float x\nend_header\n")
    else {
      Issue.record("expected malformedHeader for a property before any element")
      return
    }
    guard
      case .malformedHeader(line: 3, _, _) = error(
        "ply\nformat ascii 1.0\nelement vertex -4\nend_header\n")
    else {
      Issue.record("expected malformedHeader for a negative count")
      return
    }
    guard case .malformedHeader(line: 2, _, _) = error("ply\nelements 1\nend_header\n") else {
      Issue.record("expected malformedHeader for an unknown keyword")
      return
    }
  }

  @Test func unknownTypesNameTheTypeAndLine() {
    #expect(
      error(
        "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty flot y\nend_header\n")
        == .unknownType(name: "flot", line: 5))
    #expect(
      error("ply\nformat ascii 1.0\nelement face 1\nproperty list uchar integer v\nend_header\n")
        == .unknownType(name: "integer", line: 4))
  }

  @Test func missingVertexElementListsWhatThereIs() {
    #expect(
      error("ply\nformat ascii 1.0\nelement face 0\nproperty list uchar int v\nend_header\n")
        == .missingVertexElement(elements: ["face"]))
  }

  @Test func vertexWithoutCoordinates() {
    #expect(
      error(
        "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float z\nend_header\n1 2\n"
      )
        == .missingProperty(name: "y", element: "vertex"))
  }

  @Test func binaryCountBeyondTheFileIsRefusedBeforeAllocating() {
    let header =
      "ply\nformat binary_little_endian 1.0\nelement vertex 1000\nproperty float x\n"
      + "property float y\nproperty float z\nend_header\n"
    let body = [UInt8](repeating: 0, count: 24)
    #expect(
      error(Clouds.bytes(header) + body)
        == .countExceedsFile(
          element: "vertex", count: 1000, minimumBytes: 12_000, availableBytes: 24))
    // A count whose byte size overflows is refused the same way.
    let huge = header.replacingOccurrences(of: "1000", with: "1000000000000000000")
    #expect(
      error(Clouds.bytes(huge) + body)
        == .countExceedsFile(
          element: "vertex", count: 1_000_000_000_000_000_000, minimumBytes: .max,
          availableBytes: 24))
  }

  @Test func asciiCountBeyondTheFileIsRefusedBeforeAllocating() {
    let text =
      xyzHeader.replacingOccurrences(of: "vertex 3", with: "vertex 900000000000") + "1 2 3\n"
    #expect(
      error(text)
        == .countExceedsFile(
          element: "vertex", count: 900_000_000_000, minimumBytes: 5_399_999_999_999,
          availableBytes: 6))
  }

  @Test func truncatedASCIIBodyNamesTheRecord() {
    let text = xyzHeader + "1.000 2.000 3.000\n4.000 5.000 6.000\n7.000\n"
    #expect(error(text) == .truncated(element: "vertex", index: 2, byteOffset: text.utf8.count))
  }

  @Test func truncatedBinaryListNamesTheRecordAndOffset() {
    let header =
      "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\n"
      + "property float y\nproperty float z\nelement face 2\nproperty list uchar int v\nend_header\n"
    let vertex = [UInt8](repeating: 0, count: 12)
    // Face 0 holds one index; face 1 claims three but only one is there.
    let faces: [UInt8] = [1, 5, 0, 0, 0, 3, 6, 0, 0, 0]
    let bytes = Clouds.bytes(header) + vertex + faces
    #expect(error(bytes) == .truncated(element: "face", index: 1, byteOffset: bytes.count))
  }

  @Test func truncatedFixedSizeBinaryBody() {
    let header =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
      + "property float y\nproperty float z\nend_header\n"
    let bytes = Clouds.bytes(header) + [UInt8](repeating: 0, count: 30)
    #expect(
      error(bytes)
        == .countExceedsFile(element: "vertex", count: 3, minimumBytes: 36, availableBytes: 30))
  }

  @Test func negativeListCountIsNamed() {
    let header =
      "ply\nformat binary_little_endian 1.0\nelement face 1\nproperty list char int v\n"
      + "element vertex 0\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
    let bytes = Clouds.bytes(header) + [0xFF, 0, 0, 0, 0]
    #expect(
      error(bytes)
        == .invalidListCount(element: "face", index: 0, count: -1, byteOffset: header.utf8.count))
  }

  @Test func nonNumericASCIINamesTokenLineAndProperty() {
    #expect(
      error(xyzHeader + "1 2 3\n4 5 abc\n7 8 9\n")
        == .badNumber(token: "abc", line: 9, element: "vertex", property: "z"))
    // Out of range for the property's type.
    let colored =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
      + "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
      + "end_header\n0 0 0 12 256 0\n"
    #expect(
      error(colored) == .badNumber(token: "256", line: 11, element: "vertex", property: "green"))
    #expect(
      error(xyzHeader + "1 2 3\n4 5 1.5.5\n7 8 9\n")
        == .badNumber(token: "1.5.5", line: 9, element: "vertex", property: "z"))
  }

  @Test func fileErrorsNameThePathLast() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.ply").path
    #expect(throws: FileError.self) { try PLYReader.read(path: missing) }
    do {
      _ = try PLYReader.read(path: missing)
    } catch let error as FileError {
      #expect(error.description.hasSuffix(": \(missing)"))
    }
    do {
      _ = try PLYReader.read(path: folder.path)
    } catch let error as FileError {
      #expect(error.reason == .notARegularFile)
    }
    let bad = folder.appendingPathComponent("bad.ply")
    try Data("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n".utf8)
      .write(to: bad)
    do {
      _ = try PLYReader.read(path: bad.path)
      Issue.record("expected an error")
    } catch let error as PLYFileError {
      #expect(error.reason == .missingProperty(name: "y", element: "vertex"))
      #expect(error.description == "element 'vertex' has no property 'y': \(bad.path)")
    }
  }

  /// Every prefix and many random corruptions of valid files either read or throw a
  /// `PLYError`; none crashes the process.
  @Test(arguments: [PLYFormat.ascii, .binaryLittleEndian, .binaryBigEndian])
  func truncationsAndCorruptionsNeverCrash(format: PLYFormat) throws {
    var cloud = Clouds.random(count: 6, seed: 3)
    cloud.attributes = Array(cloud.attributes.prefix(3))
    var bytes = try PLYWriter.encode(
      cloud, options: PLYWriteOptions(format: format, attributes: .all))
    // Append a face element with lists so that list walking is exercised too.
    let faceHeader = "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
    let text = String(decoding: bytes, as: UTF8.self)
    guard let end = text.range(of: "end_header\n") else { throw PLYError.notPLY }
    let headerBytes = text[..<end.lowerBound].utf8.count
    bytes.replaceSubrange(headerBytes..<(headerBytes + 11), with: Array(faceHeader.utf8))
    bytes += format == .ascii ? Array("3 0 1 2\n3 2 1 0\n".utf8) : [UInt8](repeating: 1, count: 10)
    for length in 0..<bytes.count {
      _ = error(Array(bytes.prefix(length)))
    }
    var random = SplitMix64(seed: 99)
    for _ in 0..<3_000 {
      var corrupted = bytes
      for _ in 0..<Int(random.next() % 4 + 1) {
        let index = Int(random.next() % UInt64(corrupted.count))
        corrupted[index] = UInt8(truncatingIfNeeded: random.next())
      }
      _ = error(corrupted)
    }
  }
}
