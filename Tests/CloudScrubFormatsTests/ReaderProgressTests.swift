import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// Every point-cloud reader tells its progress as it reads, as the window shows it
/// ("reading NN %"), and reads the same cloud with or without a listener.
@Suite(.serialized) struct ReaderProgressTests {
  /// Enough points for several slabs and batches on any number of cores.
  static let cloud = SyntheticCloud.scene(count: 2_500_000, normals: true)

  /// The fractions a read of `path` reported, and the cloud it read.
  func read(_ path: String) throws -> (fractions: [Double], cloud: PointCloud) {
    var fractions: [Double] = []
    let loaded = try CloudFileFormats.read(path, progress: { fractions.append($0) })
    return (fractions, loaded.cloud)
  }

  func expectProgress(_ fractions: [Double], _ what: String) {
    #expect(fractions.last == 1, "\(what): \(fractions)")
    #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "\(what): \(fractions)")
    let between = Set(fractions.filter { $0 > 0 && $0 < 1 })
    #expect(between.count >= 2, "\(what): \(fractions)")
  }

  @Test(arguments: [
    ("pcd", false), ("pcd", true), ("las", false), ("e57", false), ("xyz", false),
  ])
  func readerReportsWhileReading(_ format: String, ascii: Bool) throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("cloud.\(format)").path
    try ExportFormats.writer(for: path).write(
      Self.cloud, provenance: ExportProvenance(source: "progress test"),
      options: CloudWriteOptions(ascii: ascii), to: path, inputs: [], progress: nil)
    let (fractions, cloud) = try read(path)
    expectProgress(fractions, "\(format)\(ascii ? " ascii" : "")")
    let unwatched = try CloudFileFormats.read(path).cloud
    #expect(cloud == unwatched)
    #expect(cloud.count == Self.cloud.count)
  }

  @Test func lazReportsEachBatch() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("cloud.laz").path
    let cloud = SyntheticCloud.scene(count: 300_000)
    try ExportFormats.writer(for: path).write(
      cloud, provenance: ExportProvenance(source: "progress test"), options: CloudWriteOptions(),
      to: path, inputs: [], progress: nil)
    let file = try MappedFile(path: path)
    var fractions: [Double] = []
    let watched = try LASReader.read(
      bytes: file.bytes, batchPoints: 100_000, progress: { fractions.append($0) })
    expectProgress(fractions, "laz")
    #expect(watched.cloud == (try LASReader.read(bytes: file.bytes).cloud))
    #expect(watched.cloud.count == cloud.count)
  }
}
