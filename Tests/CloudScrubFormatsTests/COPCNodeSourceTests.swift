import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// A COPC file read node by node (`COPCNodeSource`) holds the points of the whole file,
/// and a hierarchy that points outside the file, or at more points than its chunks can
/// hold, is not used.
@Suite struct COPCNodeSourceTests {
  static let copc = LAZFixtureTests.folder.appendingPathComponent("simple.copc.laz").path

  @Test func theNodesTogetherAreTheWholeFile() throws {
    let source = try #require(try COPCNodeSource.open(MappedFile(path: Self.copc)))
    // laspy's CopcReader lists 65 nodes on levels 0–3, one of them the root.
    #expect(source.nodes.count == 65)
    #expect(source.nodes.filter { $0.level == 0 }.count == 1)
    #expect(Set(source.nodes.map(\.level)) == [0, 1, 2, 3])
    #expect(source.nodes.reduce(0) { $0 + $1.points } == 1065)
    var pairs: [String] = []
    for index in source.nodes.indices {
      let node = try source.read(node: index)
      #expect(node.points.count == source.nodes[index].points)
      let intensity = try #require(node.intensity)
      pairs += node.points.positions.indices.map {
        "\(node.points.positions[$0]) \(node.points.colors[$0]) \(intensity[$0])"
      }
    }
    let whole = try LASReader.read(path: Self.copc).cloud
    let colors = try #require(whole.colors)
    let intensity = try #require(whole.attribute(named: "intensity")).values
    let wholePairs = whole.positions.indices.map {
      "\(whole.positions[$0]) \(colors[$0]) \(Int(intensity.double(at: $0)))"
    }
    #expect(pairs.sorted() == wholePairs.sorted())
  }

  @Test func aFileThatIsNotCOPCOpensAsNothing() throws {
    let plain = LAZFixtureTests.folder.appendingPathComponent("simple.laz").path
    #expect(try COPCNodeSource.open(MappedFile(path: plain)) == nil)
    let las = LAZFixtureTests.folder.appendingPathComponent("simple.las").path
    #expect(try COPCNodeSource.open(MappedFile(path: las)) == nil)
  }

  @Test func aCorruptNodeNamesItselfAndTheOthersStillRead() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = try #require(try COPCNodeSource.open(MappedFile(path: Self.copc)))
    let index = 5
    let node = original.hierarchy.entries[index]
    // A layered chunk: its first record raw, its point count, then the layers' sizes;
    // the first layer is said to be 2 GB long.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.copc))
    let sizeAt = node.offset + original.header.recordLength + 4
    bytes.replaceSubrange(sizeAt..<(sizeAt + 4), with: [0xF0, 0xFF, 0xFF, 0x7F])
    let damaged = folder.appendingPathComponent("damaged.copc.laz").path
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let source = try #require(try COPCNodeSource.open(MappedFile(path: damaged)))
    #expect {
      _ = try source.read(node: index)
    } throws: { error in
      "\(error)".contains(
        "octree node \(node.level)-\(node.x)-\(node.y)-\(node.z) (its chunk at byte \(node.offset))"
      ) && "\(error)".contains(damaged)
    }
    for other in source.nodes.indices where other != index {
      #expect(try source.read(node: other).points.count == source.nodes[other].points)
    }
  }

  @Test func aCOPCFileWhoseChunkTableCannotBeReadIsReadFromItsHierarchy() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.copc))
    // The 8 bytes at the start of the point data say where the chunk table lies.
    let pointOffset = bytes.withUnsafeBytes {
      Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 96, as: UInt32.self)))
    }
    bytes.replaceSubrange(pointOffset..<(pointOffset + 8), with: [UInt8](repeating: 0xEE, count: 8))
    let damaged = folder.appendingPathComponent("no-table.copc.laz").path
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let read = try LASReader.read(path: damaged)
    #expect(read.notes.count == 1)
    #expect(read.notes.first?.hasSuffix("so its chunks were found from its COPC hierarchy") == true)
    // The chunks in file order are the table's order: the same records.
    let whole = try LASReader.read(path: Self.copc).cloud
    #expect(read.cloud.positions == whole.positions)
    #expect(read.cloud.colors == whole.colors)
  }

  /// A file of `size` bytes whose info VLR payload points at one hierarchy page at byte
  /// 200 holding `entry` (level, offset, bytes, points).
  static func hierarchy(size: Int, entry: (Int32, UInt64, Int32, Int32)) -> LASCOPCHierarchy? {
    var file = [UInt8](repeating: 0, count: size)
    func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
      guard offset + MemoryLayout<T>.size <= size else { return }
      withUnsafeBytes(of: value.littleEndian) {
        file.replaceSubrange(offset..<offset + $0.count, with: $0)
      }
    }
    put(entry.0, at: 200)
    put(entry.1, at: 216)
    put(entry.2, at: 224)
    put(entry.3, at: 228)
    var info = [UInt8](repeating: 0, count: 160)
    withUnsafeBytes(of: UInt64(200).littleEndian) { info.replaceSubrange(40..<48, with: $0) }
    withUnsafeBytes(of: UInt64(32).littleEndian) { info.replaceSubrange(48..<56, with: $0) }
    return file.withUnsafeBytes { LASCOPCHierarchy(info: info, file: $0) }
  }

  @Test func hierarchyEntriesAreCheckedAgainstTheFile() {
    let good = Self.hierarchy(size: 1000, entry: (2, 300, 100, 1600))
    #expect(
      good?.entries == [
        LASCOPCHierarchy.Node(level: 2, x: 0, y: 0, z: 0, offset: 300, bytes: 100, points: 1600)
      ])
    #expect(good?.levels == 3)
    // A chunk past the file's end, more points than 16 a byte, a level no octree has.
    #expect(Self.hierarchy(size: 1000, entry: (2, 950, 100, 10)) == nil)
    #expect(Self.hierarchy(size: 1000, entry: (2, 300, 100, 1601)) == nil)
    #expect(Self.hierarchy(size: 1000, entry: (40, 300, 100, 10)) == nil)
    #expect(Self.hierarchy(size: 1000, entry: (-1, 300, 100, 10)) == nil)
    // A page past the file's end.
    #expect(Self.hierarchy(size: 220, entry: (0, 0, 0, 0)) == nil)
  }
}
