import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// The pieces of a streaming export: a voxel merge fed frame by frame, and a PLY
/// writer fed piece by piece, each against its whole-cloud counterpart.
@Suite struct StreamingExportTests {
  /// Frames of a synthetic capture (with depth noise, so that voxels gather points of
  /// several frames) split into pieces as a stream would hand them over.
  static func frames(_ count: Int) throws -> [(index: Int, points: FramePoints)] {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: count, depthWidth: 64, depthHeight: 48, colorWidth: 64, colorHeight: 48,
        depthNoiseMeters: 0.003))
    let loader = RecordingLoader(source: source)
    return try (0..<count).map { ($0, try loader.points(ofFrame: $0)) }
  }

  static func store(_ frames: [(index: Int, points: FramePoints)]) -> PointStore {
    var store = PointStore()
    for frame in frames { store.append(frame.points, frameIndex: frame.index) }
    return store
  }

  @Test(arguments: [(0.005, 1), (0.005, 2), (0.02, 3), (0.25, 2), (0.02, 4)] as [(Float, Int)])
  func voxelAccumulatorEqualsTheWholeCloudMergeBitForBit(_ size: Float, partitions: Int) throws {
    let frames = try Self.frames(5)
    let accumulator = VoxelAccumulator(voxelSizeMeters: size, partitions: partitions)
    for frame in frames { try accumulator.add(frame.points, frameIndex: frame.index) }
    let whole = VoxelMerge.merge(Self.store(frames).cloud(), voxelSizeMeters: size)
    let streamed = accumulator.cloud()
    #expect(streamed.count == whole.count)
    #expect(streamed.count > 100)
    #expect(streamed.isBitwiseEqual(to: whole))
    #expect(accumulator.pointsAdded == frames.reduce(0) { $0 + $1.points.count })
  }

  @Test func voxelAccumulatorHandCase() throws {
    // Two frames; voxels of 1 m. (0.2, 0.2, 0.2) and (0.6, 0.4, 0.8) share cell
    // (0, 0, 0); (−0.5, 0, 0) is in cell (−1, 0, 0); NaN is dropped.
    var first = FramePoints()
    first.positions = [Point3(-0.5, 0, 0), Point3(0.2, 0.2, 0.2), Point3(.nan, 0, 0)]
    first.colors = [RGB8(10, 10, 10), RGB8(0, 100, 255), RGB8(1, 1, 1)]
    first.confidence = [255, 1, 2]
    var second = FramePoints()
    second.positions = [Point3(0.6, 0.4, 0.8), Point3(-0.25, 0.5, 0.5)]
    second.colors = [RGB8(1, 101, 0), RGB8(20, 20, 20)]
    second.confidence = [2, 255]
    let accumulator = VoxelAccumulator(voxelSizeMeters: 1, partitions: 2)
    try accumulator.add(first, frameIndex: 7)
    try accumulator.add(second, frameIndex: 9, keeping: [true, true])
    let cloud = accumulator.cloud()
    #expect(cloud.count == 2)
    // Voxel (−1, 0, 0) first: its first point came first. Mean of (−0.5, 0, 0) and
    // (−0.25, 0.5, 0.5); colour (10 + 20) / 2 = 15; both confidences unknown: 255.
    #expect(cloud.positions[0] == Point3(-0.375, 0.25, 0.25))
    #expect(cloud.colors?[0] == RGB8(15, 15, 15))
    // Mean of (0.2, 0.2, 0.2) and (0.6, 0.4, 0.8), summed in Double; colour
    // (0 + 1) / 2 = 0.5 rounds up to 1, (100 + 101) / 2 = 100.5 to 101, 255 / 2 = 127.5
    // to 128; highest confidence 2; first frame 7.
    let x = Float((Double(Float(0.2)) + Double(Float(0.6))) / 2)
    let y = Float((Double(Float(0.2)) + Double(Float(0.4))) / 2)
    let z = Float((Double(Float(0.2)) + Double(Float(0.8))) / 2)
    #expect(cloud.positions[1] == Point3(x, y, z))
    #expect(cloud.colors?[1] == RGB8(1, 101, 128))
    #expect(cloud.attribute(named: "confidence")?.values == .uint8([255, 2]))
    #expect(cloud.attribute(named: "frame")?.values == .uint32([7, 7]))
  }

  @Test func voxelAccumulatorSkipsPointsTheMaskDrops() throws {
    let frames = try Self.frames(3)
    let accumulator = VoxelAccumulator(voxelSizeMeters: 0.01, partitions: 3)
    var store = PointStore()
    for frame in frames {
      let keep = frame.points.positions.map { $0.y > 0.3 }
      try accumulator.add(frame.points, frameIndex: frame.index, keeping: keep)
      store.append(frame.points, frameIndex: frame.index)
    }
    let cropped = store.cloud().subset(keeping: store.positions.map { $0.y > 0.3 })
    #expect(
      accumulator.cloud().isBitwiseEqual(to: VoxelMerge.merge(cropped, voxelSizeMeters: 0.01)))
  }

  @Test(arguments: [PLYFormat.binaryLittleEndian, .binaryBigEndian, .ascii])
  func streamWriterWritesTheBytesOfTheWholeCloud(_ format: PLYFormat) throws {
    let frames = try Self.frames(4)
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.ply").path
    let options = PLYWriteOptions(format: format, attributes: .all, comments: ["first"])
    let writer = try PLYStreamWriter(
      path: path, fields: FramePoints().cloud(frameIndex: 0), options: options)
    for frame in frames { try writer.append(frame.points.cloud(frameIndex: frame.index)) }
    try writer.finish(comments: ["second"])
    var whole = options
    whole.comments.append("second")
    let expected = try PLYWriter.encode(Self.store(frames).cloud(), options: whole)
    #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.ply"])
  }

  @Test func streamWriterRefusesAPieceWithOtherFields() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("out.ply").path
    let writer = try PLYStreamWriter(
      path: path, fields: FramePoints().cloud(frameIndex: 0), options: PLYWriteOptions())
    #expect(throws: CloudWriteError.inconsistentCloud) {
      try writer.append(PointCloud(positions: [Point3(1, 2, 3)]))
    }
    writer.abandon()
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func streamWriterChecksTheAttributeSelectionBeforeAnyPoint() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(throws: CloudWriteError.self) {
      _ = try PLYStreamWriter(
        path: folder.appendingPathComponent("out.ply").path,
        fields: FramePoints().cloud(frameIndex: 0),
        options: PLYWriteOptions(attributes: .named(["normal"])))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
