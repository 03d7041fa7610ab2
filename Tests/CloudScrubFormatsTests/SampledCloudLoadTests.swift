import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// The background load of a huge binary PLY: an even sample first, then the rest, fed
/// to the level of detail so that every point ends up in it exactly once.
@Suite struct SampledCloudLoadTests {
  /// A property of a hand-built PLY file: its name, type and value in record `i`.
  struct Column: Sendable {
    var name: String
    var type: ScalarType
    var value: @Sendable (Int) -> Double
  }

  /// Record i: x = i / 4, y = i mod 7, z = −i / 4 (all exact in float), colour
  /// (i mod 256, 2i mod 256, 255), confidence i mod 3.
  static let standard: [Column] = [
    Column(name: "x", type: .float32) { Double($0) / 4 },
    Column(name: "y", type: .float32) { Double($0 % 7) },
    Column(name: "z", type: .float32) { -Double($0) / 4 },
    Column(name: "red", type: .uint8) { Double($0 % 256) },
    Column(name: "green", type: .uint8) { Double(2 * $0 % 256) },
    Column(name: "blue", type: .uint8) { _ in 255 },
    Column(name: "confidence", type: .uint8) { Double($0 % 3) },
  ]

  /// Odd records: doubles for the position, an int16 and a float before it, colour as
  /// ushort, and an element of fixed records before the vertices.
  static let odd: [Column] = [
    Column(name: "intensity", type: .int16) { Double($0 % 1000 - 500) },
    Column(name: "x", type: .float64) { Double($0) * 0.125 },
    Column(name: "quality", type: .float32) { _ in 0.5 },
    Column(name: "z", type: .float64) { Double($0 % 11) },
    Column(name: "y", type: .float64) { -Double($0) },
    Column(name: "red", type: .uint16) { Double($0 % 256) * 257 },
    Column(name: "green", type: .uint16) { _ in 0 },
    Column(name: "blue", type: .uint16) { _ in 65535 },
  ]

  /// Writes a binary PLY of `count` vertices with `columns`, in `format`; `before`
  /// records of one int32 in a `camera` element precede the vertices.
  static func write(
    count: Int, columns: [Column], format: PLYFormat, before: Int = 0, in folder: URL
  ) throws -> String {
    var text = "ply\nformat \(format.rawValue) 1.0\ncomment hand-built\n"
    if before > 0 { text += "element camera \(before)\nproperty int id\n" }
    text += "element vertex \(count)\n"
    for column in columns { text += "property \(column.type.plyName) \(column.name)\n" }
    text += "end_header\n"
    var bytes = Array(text.utf8)
    let big = format == .binaryBigEndian
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: big ? value.bigEndian : value.littleEndian) { bytes += $0 }
    }
    for index in 0..<before { append(Int32(index)) }
    for index in 0..<count {
      for column in columns {
        let value = column.value(index)
        switch column.type {
        case .int8: append(Int8(value))
        case .uint8: append(UInt8(value))
        case .int16: append(Int16(value))
        case .uint16: append(UInt16(value))
        case .int32: append(Int32(value))
        case .uint32: append(UInt32(value))
        case .float32: append(Float(value).bitPattern)
        case .float64: append(value.bitPattern)
        }
      }
    }
    let path = folder.appendingPathComponent("cloud-\(format.rawValue)-\(count).ply").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A point as a comparable key: position bits and colour.
  struct Key: Hashable, Comparable {
    var x: UInt32
    var y: UInt32
    var z: UInt32
    var rgb: UInt32
    init(_ p: Point3, _ c: RGB8) {
      x = p.x.bitPattern
      y = p.y.bitPattern
      z = p.z.bitPattern
      rgb = UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
    }
    static func < (a: Key, b: Key) -> Bool { (a.x, a.y, a.z, a.rgb) < (b.x, b.y, b.z, b.rgb) }
  }

  /// Runs the load to its end, absorbing each delivery as the window does, into
  /// content whose level of detail grows on a builder in steps of 37 points; returns
  /// the content once every point is in the tree.
  static func loadIntoContent(_ load: StreamingLoad) throws -> ViewerContent {
    #expect(load.waitUntilStopped(timeout: 60))
    let content = try #require(ViewerContent.absorbingAll(of: load, stepPoints: 37))
    #expect(content.levelOfDetailIsComplete)
    return content
  }

  static func octreeKeys(_ content: ViewerContent) -> [Key] {
    var keys: [Key] = []
    content.withLevelOfDetail { tree in
      for node in tree.nodes {
        for index in 0..<node.points.count {
          keys.append(Key(node.points.positions[index], node.points.colors[index]))
        }
      }
    }
    return keys.sorted()
  }

  static func wholeReadKeys(_ path: String) throws -> [Key] {
    let cloud = try PLYReader.read(path: path).cloud
    let colors = cloud.colors ?? []
    return zip(cloud.positions, colors).map { Key($0, $1) }.sorted()
  }

  @Test(arguments: [PLYFormat.binaryLittleEndian, .binaryBigEndian])
  func sampledThenFilledGivesEveryPointOnce(format: PLYFormat) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    for (columns, before) in [(Self.standard, 0), (Self.odd, 3)] {
      let path = try Self.write(
        count: 1000, columns: columns, format: format, before: before, in: folder)
      let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
      // Every 15th record first (1000 / 64), then pieces of 100 records.
      let plan = SampledCloudLoad(sampler: sampler, samplePoints: 64, chunkRecords: 100)
      #expect(plan.sampleStride == 15)
      let load = plan.start()
      let content = try Self.loadIntoContent(load)
      #expect(load.status == .finished(frames: 1))
      #expect(content.store.count == 1000)
      #expect(content.store.frameIndices == [0])
      #expect(content.levelOfDetailCount == 1000)
      #expect(content.withLevelOfDetail { $0.frameCount } == 1)
      let expected = try Self.wholeReadKeys(path)
      #expect(expected.count == 1000)
      #expect(Self.octreeKeys(content) == expected)
      // The store begins with the sample: records 0, 15, 30, …
      let store = content.store
      #expect(store.positions[1].x == (before == 0 ? 3.75 : 1.875))
    }
  }

  @Test func aSampleOfBlocksThenTheRestGivesEveryPointOnce() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 100_000, columns: Self.standard, format: .binaryBigEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    // 8192 of 100,000: one record in 12, as the first 2 records of every 24.
    let plan = SampledCloudLoad(sampler: sampler, samplePoints: 8192, chunkRecords: 10_000)
    #expect(plan.sampleStride == 12)
    #expect(plan.sampleBlock == 2)
    #expect(plan.sampled(before: 100_000) == 4166 * 2 + 2)
    let load = plan.start()
    let content = try Self.loadIntoContent(load)
    #expect(load.status == .finished(frames: 1))
    #expect(content.store.count == 100_000)
    #expect(content.store.positions[2].x == 6)  // record 24, x = 24 / 4
    #expect(Self.octreeKeys(content) == (try Self.wholeReadKeys(path)))
  }

  @Test func aPreviewOfEveryEighthSampleBlockComesFirst() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 100_000, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    // The sample: the first 2 records of every 24 (4,167 blocks, the last at 99,984).
    // A preview of 1,024 points out of 4,096 blocks: every 8th block, 521 of them.
    let plan = SampledCloudLoad(
      sampler: sampler, samplePoints: 8192, chunkRecords: 10_000, previewPoints: 1024)
    #expect(plan.previewEvery == 8)
    let load = plan.start()
    #expect(load.waitUntilStopped(timeout: 60))
    let pieces = load.take()
    #expect(pieces.map(\.piece) == [.first] + Array(repeating: .more, count: 11))
    #expect(pieces[0].points.count == 521 * 2)
    #expect(pieces[1].points.count == 4166 * 2 + 2 - 521 * 2)
    // Preview: records 0, 1, 192, 193, …; then the other blocks: 24, 25, 48, 49, …
    // (x = record / 4).
    #expect(Array(pieces[0].points.positions.prefix(4).map(\.x)) == [0, 0.25, 48, 48.25])
    #expect(Array(pieces[1].points.positions.prefix(4).map(\.x)) == [6, 6.25, 12, 12.25])
    // Every record exactly once over the pieces.
    let records = pieces.flatMap { $0.points.positions.map { Int($0.x * 4) } }
    #expect(records.count == 100_000)
    #expect(Set(records).count == 100_000)
  }

  @Test func aLoadWaitingForRoomStopsWhenCancelled() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 10_000, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    // Room for one piece of 1,000 records: the load delivers the sample and a piece,
    // then waits for them to be taken.
    var plan = SampledCloudLoad(sampler: sampler, samplePoints: 64, chunkRecords: 1000)
    plan.waitingPointLimit = 500
    let reached = DispatchSemaphore(value: 0)
    plan.beforePiece = { piece in if piece == 2 { reached.signal() } }
    let load = plan.start()
    #expect(reached.wait(timeout: .now() + 60) == .success)
    // Piece 2 waits for room: the inbox holds the sample and piece 1 only.
    let first = load.take()
    #expect(first.map(\.piece) == [.first, .more])
    load.cancel()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .cancelled)
  }

  @Test func confidenceAndColoursComeFromTheRecords() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 10, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    var points = FramePoints()
    sampler.read([7], into: &points)
    #expect(points.positions == [Point3(1.75, 0, -1.75)])
    #expect(points.colors == [RGB8(7, 14, 255)])
    #expect(points.confidence == [1])
  }

  @Test func timelinesAndASCIIKeepTheWholeFileReader() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var columns = Self.standard
    columns.append(Column(name: "frame", type: .uint32) { Double($0 / 10) })
    let timeline = try Self.write(
      count: 20, columns: columns, format: .binaryLittleEndian, in: folder)
    #expect(try PLYVertexSampler.open(MappedFile(path: timeline)) == nil)
    let ascii = folder.appendingPathComponent("a.ply").path
    let text =
      "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
      + "end_header\n1 2\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: ascii))
    #expect(try PLYVertexSampler.open(MappedFile(path: ascii)) == nil)
  }

  @Test func aHeaderCountPastTheFileIsRefusedBeforeReading() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 100, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let header = String(decoding: bytes.prefix(200), as: UTF8.self)
    let patched = header.replacingOccurrences(of: "vertex 100\n", with: "vertex 900\n")
    bytes.replaceSubrange(0..<200, with: Data(patched.utf8).prefix(200))
    try bytes.write(to: URL(fileURLWithPath: path))
    #expect {
      try PLYVertexSampler.open(MappedFile(path: path))
    } throws: { error in
      "\(error)".contains("header claims 900 'vertex' records needing at least 14400 bytes")
    }
  }

  @Test func aFileTruncatedWhileLoadingFailsNamingTheOffset() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Large enough that the cut lies pages past the header.
    let path = try Self.write(
      count: 40_000, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    let cut = sampler.vertexOffset + 20_000 * sampler.recordSize
    #expect(truncate(path, off_t(cut)) == 0)
    let load = SampledCloudLoad(sampler: sampler, samplePoints: 1000, chunkRecords: 5000).start()
    #expect(load.waitUntilStopped(timeout: 60))
    guard case .failed(let message) = load.status else {
      Issue.record("expected a failure, got \(load.status)")
      return
    }
    #expect(message.contains("'vertex' record 20000 runs past the end of the file at byte \(cut)"))
    #expect(message.hasSuffix(path))
  }

  @Test func cancellingStopsBeforeTheNextPiece() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 1000, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    var plan = SampledCloudLoad(sampler: sampler, samplePoints: 100, chunkRecords: 100)
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    plan.beforePiece = { piece in
      guard piece == 2 else { return }
      reached.signal()
      release.wait()
    }
    let load = plan.start()
    // The sample and the first chunk are delivered.
    #expect(reached.wait(timeout: .now() + 60) == .success)
    load.cancel()
    release.signal()
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .cancelled)
    let delivered = load.take()
    #expect(delivered.map(\.piece) == [.first, .more])
    // The sample (records 0, 10, …, 990) and records 1…99 less 10, 20, …, 90.
    #expect(delivered.map(\.points.count) == [100, 90])
  }

  @Test func aMergedLoadKeepsTheFirstPointOfEachCell() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try Self.write(
      count: 1000, columns: Self.standard, format: .binaryLittleEndian, in: folder)
    let sampler = try #require(try PLYVertexSampler.open(MappedFile(path: path)))
    // 1000 points × 50 B do not fit the 21,524 B that 37,524 B leave after the queued
    // pieces (1000 × 16 B): the plan merges, at 8 m cells, and a kept point costs
    // 50 + 128 B (its voxel index): room for 120.
    let memory = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 1000, automaticMergeMeters: 8, budgetBytes: 37_524)
    #expect(memory.mergeMeters == 8)
    #expect(memory.pointLimit == 120)
    let load = SampledCloudLoad(
      sampler: sampler, samplePoints: 64, chunkRecords: 100, memory: memory
    ).start()
    let content = try Self.loadIntoContent(load)
    #expect(load.status == .finished(frames: 1))
    // y = i mod 7 stays in cell 0; x = i/4 is in cell ⌊i/32⌋ and z = −i/4 in −⌈i/32⌉:
    // for each b in 0…31, record 32b alone in (b, 0, −b) and records 32b+1…32b+31 in
    // (b, 0, −b−1): 64 occupied cells, each keeping one point.
    #expect(content.store.count == 64)
    #expect(content.levelOfDetailCount == 64)
    // At 2 m cells, y spans 4 cells and x, z change every 8 records: 1000 points in
    // more cells than the 120 points the budget holds, and the load stops saying so.
    let fine = ViewerMemoryPlan(
      choice: .voxel(meters: 2), cloudPoints: 1000, automaticMergeMeters: 8, budgetBytes: 37_524)
    let stopped = SampledCloudLoad(
      sampler: sampler, samplePoints: 64, chunkRecords: 100, memory: fine
    ).start()
    #expect(stopped.waitUntilStopped(timeout: 60))
    guard case .failed(let message) = stopped.status else {
      Issue.record("expected the load to stop, got \(stopped.status)")
      return
    }
    #expect(message.hasPrefix("stopped loading at point"))
    #expect(message.contains("more than 120 points"))
  }

  @Test func theMemoryPlanMergesACloudTooLargeForItsBudget() {
    let fits = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 100, automaticMergeMeters: 0.01, budgetBytes: 48_000)
    #expect(fits.mergeMeters == nil)
    #expect(fits.note == nil)
    let large = ViewerMemoryPlan(
      choice: .automatic, cloudPoints: 2000, automaticMergeMeters: 0.01, budgetBytes: 48_000)
    #expect(large.mergeMeters == 0.01)
    #expect(large.note?.hasPrefix("merging while loading at 10 mm: 2000 points") == true)
    let off = ViewerMemoryPlan(
      choice: .off, cloudPoints: 2000, automaticMergeMeters: 0.01, budgetBytes: 48_000)
    #expect(off.keepsTooManyPoints)
    #expect(
      off.cloudTooLargeMessage(points: 2000, suggestedMergeMeters: 0.01).contains("--merge 0.01"))
  }

  @Test func theAutomaticMergeSizeFollowsTheSurfaceArea() {
    // A 1 m × 1 m square sampled every centimetre: 1 m² of surface. Merged to keep
    // 70 % of 1000 points, cells of √(1 / 700) m ≈ 37.8 mm.
    var sample: [Point3] = []
    for i in 0..<100 {
      for j in 0..<100 {
        sample.append(Point3((Float(i) + 0.5) * 0.01, 2, (Float(j) + 0.5) * 0.01))
      }
    }
    let meters = ViewerMemoryPlan.mergeMeters(forSample: sample, pointLimit: 1000)
    #expect(abs(meters - 0.0378) < 0.0005)
    // A limit the raw points already fit: never below the recordings' 5 mm.
    #expect(ViewerMemoryPlan.mergeMeters(forSample: sample, pointLimit: 10_000_000) == 0.005)
  }
}
