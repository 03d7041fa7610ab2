import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// A file truncated by another program while it is mapped: the reads past its new end
/// see zeros instead of a SIGBUS that would kill the process, and the reader says so.
@Suite struct MappingGuardTests {
  private func scratchFile(_ bytes: [UInt8]) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("mapping-guard-\(UUID().uuidString).bin")
    try Data(bytes).write(to: url)
    return url
  }

  @Test func bytesPastATruncationReadAsZerosAndTheFileSaysItChanged() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let url = try scratchFile([UInt8](repeating: 0xAB, count: 3 * page))
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try MappedFile(path: url.path)
    #expect(file.bytes[3 * page - 1] == 0xAB)
    #expect(!file.wasTruncated)
    try file.checkIntact()

    #expect(truncate(url.path, off_t(page)) == 0)
    // Still in the file: unchanged. Past its new end: zeros, and the flag is up.
    #expect(file.bytes[page - 1] == 0xAB)
    #expect(file.bytes[2 * page + 17] == 0)
    #expect(file.bytes[3 * page - 1] == 0)
    #expect(file.wasTruncated)
    let error = #expect(throws: FileError.self) { try file.checkIntact() }
    #expect(error?.reason == .changedWhileReading)
    #expect(error?.description.hasSuffix("while it was being read: \(url.path)") == true)
  }

  @Test func aMappingStillInUseIsGuardedWhileOthersComeAndGo() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let url = try scratchFile([UInt8](repeating: 7, count: 2 * page))
    defer { try? FileManager.default.removeItem(at: url) }
    let kept = try MappedFile(path: url.path)
    for _ in 0..<50 {
      let passing = try MappedFile(path: url.path)
      withExtendedLifetime(passing) { #expect(passing.bytes[0] == 7) }
    }
    #expect(truncate(url.path, 0) == 0)
    #expect(kept.bytes[page + 1] == 0)
    #expect(kept.wasTruncated)
    // A mapping made after the truncation sees the short file and is intact.
    let after = try MappedFile(path: url.path)
    #expect(after.bytes.count == 0)
    #expect(!after.wasTruncated)
  }

  @Test func aPLYTruncatedWhileItsBodyIsReadNamesTheTruncation() throws {
    let positions = (0..<200_000).map { Point3(Float($0) * 0.001, -Float($0) * 0.001, 1) }
    let cloud = PointCloud(
      positions: positions, colors: Array(repeating: RGB8(1, 2, 3), count: positions.count))
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("mapping-guard-\(UUID().uuidString).ply")
    defer { try? FileManager.default.removeItem(at: url) }
    try PLYWriter.write(cloud, to: url.path)
    let headerLength = try PLYReader.readHeader(path: url.path).bodyOffset
    var truncated = false
    // The column gather reports after each column: cut the file after the first, so the
    // next columns are read from a file that has lost its body.
    let progress: ProgressHandler = { _ in
      if !truncated { truncated = truncate(url.path, off_t(headerLength)) == 0 }
    }
    let error = #expect(throws: FileError.self) {
      _ = try PLYReader.read(path: url.path, progress: progress)
    }
    #expect(error?.reason == .changedWhileReading)
    #expect(truncated)
  }

  @Test func aRecordingTruncatedAfterItWasOpenedNamesTheTruncation() throws {
    let frames = (0..<3).map { RecordingSamples.frame(index: $0, color: .jpeg) }
    let path = try RecordingSamples.write(frames)
    let recording = try CloudScrubRecording(path: path)
    #expect(try recording.frame(at: 0) == frames[0])
    #expect(truncate(path, 0) == 0)
    let error = #expect(throws: FileError.self) { _ = try recording.frame(at: 2) }
    #expect(error?.reason == .changedWhileReading)
    #expect(error?.path == path)
  }
}
