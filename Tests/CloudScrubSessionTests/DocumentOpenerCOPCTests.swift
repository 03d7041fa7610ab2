import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation
import Testing

/// The window opens a COPC file at once and reads its octree level by level, the coarse
/// levels first, as many as fit the viewer's memory budget; the export reads the whole
/// file again.
@Suite struct DocumentOpenerCOPCTests {
  static let copc = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(
      "CloudScrubFormatsTests/Fixtures/laz/simple.copc.laz"
    ).path

  @Test func aCOPCFileIsReadLevelByLevel() throws {
    let document = try DocumentOpener().open(Self.copc)
    #expect(
      document.summary == "COPC (LAS 1.4 point format 7), 1065 points, octree of 4 levels")
    #expect(document.worldUp == .z)
    let frames = try #require(document.load.takeUntilStopped(timeout: 60))
    #expect(document.load.status == .finished(frames: 1))
    #expect(frames.first?.piece == .first)
    let delivered = frames.flatMap(\.points.positions)
    let whole = try LASReader.read(path: Self.copc).cloud
    #expect(delivered.count == 1065)
    #expect(Set(delivered.map { "\($0)" }) == Set(whole.positions.map { "\($0)" }))
    guard case .cloud(let opened) = document.kind else {
      Issue.record("a COPC file opened as a recording")
      return
    }
    #expect(try opened.wholeCloud().positions == whole.positions)
  }

  @Test func aBudgetTooSmallForEveryLevelReadsTheCoarseOnes() throws {
    let source = try #require(try COPCNodeSource.open(MappedFile(path: Self.copc)))
    let root = source.nodes.filter { $0.level == 0 }.reduce(0) { $0 + $1.points }
    let upToOne = source.nodes.filter { $0.level <= 1 }.reduce(0) { $0 + $1.points }
    // A budget whose point limit lies between the points of levels 0–1 and 0–2.
    var opener = DocumentOpener()
    opener.budgetBytes =
      ViewerMemoryPlan.queuedPieceBytes(cloudPoints: 1065)
      + (upToOne + 1) * ViewerMemoryPlan.bytesPerKeptPoint(merging: false)
    let document = try opener.open(Self.copc)
    #expect(
      document.summary
        == "COPC (LAS 1.4 point format 7), 1065 points, octree of 4 levels; levels 0–1 of the "
        + "octree's 4 read, \(upToOne) of 1065 points: the finer levels would pass the viewer's "
        + "memory budget")
    let frames = try #require(document.load.takeUntilStopped(timeout: 60))
    #expect(frames.map(\.points.count).reduce(0, +) == upToOne)
    #expect(frames.first?.points.count == root)
  }
}
