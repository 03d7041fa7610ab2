import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// A LAZ file is read a batch of whole chunks at a time: any batch size gives the
/// records and the cloud that decoding every chunk at once gives.
@Suite struct LAZBatchTests {
  /// `LAZWriterTests.cloud`'s LAZ: 120,000 points in chunks of 50,000, 50,000 and 20,000.
  private func written() throws -> (laz: [UInt8], las: [UInt8], folder: URL) {
    let (laz, las, folder) = try LAZWriterTests.pair()
    return (
      Array(try Data(contentsOf: URL(fileURLWithPath: laz))),
      Array(try Data(contentsOf: URL(fileURLWithPath: las))), folder
    )
  }

  @Test func everyBatchSizeHandsOverTheRecordsOfTheWholeDecode() throws {
    let (laz, _, folder) = try written()
    defer { try? FileManager.default.removeItem(at: folder) }
    try laz.withUnsafeBytes { file in
      let opened = try LASReader.open(file)
      let parameters = try LAZParameters(#require(opened.vlrs.laszip))
      let whole = try LAZDecompressor.records(
        file: file, pointOffset: opened.pointOffset, points: opened.header.points,
        recordLength: opened.header.recordLength, parameters: parameters)
      defer { whole.deallocate() }
      #expect(whole.points == 120_000)
      // One chunk a batch, two (a batch takes chunks until it holds 60,000), and all.
      for (batchPoints, batches) in [
        (1, [50_000, 50_000, 20_000]), (60_000, [100_000, 20_000]),
        (1 << 22, [120_000]),
      ] {
        var records: [UInt8] = []
        var sizes: [Int] = []
        var prepared = 0
        let (points, notes) = try LAZDecompressor.forEachBatch(
          file: file, pointOffset: opened.pointOffset, points: opened.header.points,
          recordLength: opened.header.recordLength, parameters: parameters,
          batchPoints: batchPoints, prepare: { prepared = $0 },
          take: { batch, count in
            records += batch
            sizes.append(count)
          })
        #expect(prepared == 120_000 && points == 120_000 && notes.isEmpty)
        #expect(sizes == batches, "\(batchPoints)")
        #expect(records.elementsEqual(whole.bytes), "\(batchPoints)")
      }
    }
  }

  @Test func theCloudIsTheLASTwinsWhateverTheBatch() throws {
    let (laz, las, folder) = try written()
    defer { try? FileManager.default.removeItem(at: folder) }
    let twin = try las.withUnsafeBytes { try LASReader.read(bytes: $0).cloud }
    #expect(twin.count == 120_000 && twin.normals != nil && twin.attributes.count == 1)
    for batchPoints in [1, 60_000, 1 << 22] {
      let cloud = try laz.withUnsafeBytes {
        try LASReader.read(bytes: $0, batchPoints: batchPoints).cloud
      }
      #expect(cloud == twin, "\(batchPoints)")
    }
  }

  @Test func aCorruptChunkLeavesTheBatchesBeforeIt() throws {
    var (laz, _, folder) = try written()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A header promising 130,000 points makes the last chunk run out of bytes after its
    // 20,000th point.
    laz.withUnsafeMutableBytes {
      $0.storeBytes(of: UInt32(130_000).littleEndian, toByteOffset: 107, as: UInt32.self)
      $0.storeBytes(of: UInt64(130_000).littleEndian, toByteOffset: 247, as: UInt64.self)
    }
    for batchPoints in [1, 60_000, 1 << 22] {
      #expect(throws: LASErrorReason.self) {
        try laz.withUnsafeBytes { try LASReader.read(bytes: $0, batchPoints: batchPoints) }
      }
      let shown = try laz.withUnsafeBytes {
        try LASReader.read(bytes: $0, keepingGoodChunks: true, batchPoints: batchPoints)
      }
      #expect(shown.cloud.count == 100_000 && shown.header.points == 100_000)
      #expect(shown.notes.count == 1)
      #expect(shown.notes.first?.hasPrefix("LAZ chunk 2 is corrupt at point 120") == true)
      #expect(shown.notes.first?.hasSuffix("the 100000 points before it are read") == true)
    }
  }
}
