import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// A recording cut short anywhere (a crash while writing a frame, the index or the
/// trailer) still opens with every frame that was complete.
@Suite struct RecordingFormatRecoveryTests {
  /// Where each frame chunk ends in a finished file (the next chunk's start).
  private func frameEnds(_ bytes: [UInt8], offsets: [Int]) -> [Int] {
    let indexOffset = bytes.withUnsafeBytes { Int($0.littleEndianUInt64(at: bytes.count - 16)) }
    return Array(offsets.dropFirst()) + [indexOffset]
  }

  @Test func cutAtEveryByteStillOpensWithEveryCompleteFrame() throws {
    let frames = [
      RecordingSamples.frame(index: 0, color: .jpeg),
      RecordingSamples.frame(index: 1, color: .none),
      RecordingSamples.frame(index: 2, color: .yCbCrFullOddSize),
    ]
    let full = try RecordingSamples.bytes(try RecordingSamples.write(frames))
    let offsets = try CloudScrubRecording(path: try RecordingSamples.file(full)).frameOffsets
    let ends = frameEnds(full, offsets: offsets)
    // One file cut shorter and shorter: cheaper than a fresh file per length.
    let path = try RecordingSamples.file(full)
    var wrongCounts: [Int] = []
    for length in (0...full.count).reversed() {
      #expect(truncate(path, off_t(length)) == 0)
      guard length >= offsets[0] else {
        // Inside the file header or the metadata: a typed error, never a crash.
        #expect(throws: RecordingFileError.self) { try CloudScrubRecording(path: path) }
        continue
      }
      let recording = try CloudScrubRecording(path: path)
      let complete = ends.filter { $0 <= length }.count
      if recording.frameCount != complete { wrongCounts.append(length) }
      #expect(recording.recoveredWithoutIndex == (length != full.count))
      for i in 0..<recording.frameCount { #expect(try recording.frame(at: i) == frames[i]) }
    }
    #expect(wrongCounts.isEmpty)
  }

  @Test func cutsInsideTheLastFrameAndTheIndexNameWhereTheScanStopped() throws {
    let frames = (0..<2).map { RecordingSamples.frame(index: $0, color: .rgb) }
    let full = try RecordingSamples.bytes(try RecordingSamples.write(frames))
    let recording = try CloudScrubRecording(path: try RecordingSamples.file(full))
    let lastFrame = recording.frameOffsets[1]
    let cut = try CloudScrubRecording(
      path: try RecordingSamples.file(Array(full[0..<(lastFrame + 100)])))
    #expect(cut.frameCount == 1)
    guard
      case .chunkExceedsFile(tag: "FRAM", frame: 1, byteOffset: lastFrame, _, availableBytes: 84) =
        cut.recoveryStop
    else {
      Issue.record(
        "expected the scan to stop at frame 1's chunk, got \(String(describing: cut.recoveryStop))")
      return
    }
    #expect(cut.description.notes.count == 2)
    #expect(cut.description.notes[0].contains("without a trailer"))
    #expect(cut.description.notes[0].contains("found 1 frames by scanning"))

    let inHeader = try CloudScrubRecording(
      path: try RecordingSamples.file(Array(full[0..<(lastFrame + 9)])))
    #expect(
      inHeader.recoveryStop == .truncatedChunkHeader(byteOffset: lastFrame, availableBytes: 9))

    // Index complete, trailer cut: every frame, and the scan ends at the index.
    let noTrailer = try CloudScrubRecording(
      path: try RecordingSamples.file(Array(full.dropLast(1))))
    #expect(noTrailer.frameCount == 2)
    #expect(noTrailer.recoveredWithoutIndex)
    #expect(noTrailer.recoveryStop == nil)
  }

  @Test func anUnfinishedWriterLeavesAReadableFileAfterEveryFrame() throws {
    let path = try TestData.makeTemporaryDirectory().appendingPathComponent("live.csrec").path
    let writer = try CloudScrubRecordingWriter(
      path: path, metadata: RecordingMetadata(appName: "Live"))
    let empty = try CloudScrubRecording(path: path)
    #expect(empty.frameCount == 0)
    #expect(empty.metadata.appName == "Live")
    for i in 0..<4 {
      let frame = RecordingSamples.frame(index: i, color: .bgraPadded)
      try writer.append(frame)
      let recording = try CloudScrubRecording(path: path)
      #expect(recording.frameCount == i + 1)
      #expect(recording.recoveredWithoutIndex)
      #expect(recording.recoveryStop == nil)
      #expect(try recording.frame(at: i) == frame)
    }
    try writer.finish()
    #expect(!(try CloudScrubRecording(path: path)).recoveredWithoutIndex)
  }

  @Test func aDamagedTrailerOrIndexFallsBackToScanning() throws {
    let frames = (0..<3).map { RecordingSamples.frame(index: $0, color: .jpeg) }
    let full = try RecordingSamples.bytes(try RecordingSamples.write(frames))

    var badTrailerCRC = full
    badTrailerCRC[full.count - 28] ^= 0x01
    let trailerDamaged = try CloudScrubRecording(path: try RecordingSamples.file(badTrailerCRC))
    #expect(trailerDamaged.recoveredWithoutIndex)
    #expect(trailerDamaged.frameCount == 3)
    #expect(
      trailerDamaged.description.notes[0].contains("index is unusable (CRC-32 mismatch in 'TAIL'"))

    // An index offset far past the file, with the trailer's CRC made to match.
    var farIndex = full
    let payload = full.count - 16
    for i in 0..<8 { farIndex[payload + i] = 0x7F }
    RecordingFormatCorruptionTests.fixChecksum(of: full.count - 32, in: &farIndex)
    let indexMissing = try CloudScrubRecording(path: try RecordingSamples.file(farIndex))
    #expect(indexMissing.recoveredWithoutIndex)
    #expect(indexMissing.frameCount == 3)
    for i in 0..<3 { #expect(try indexMissing.frame(at: i) == frames[i]) }

    // An index whose count disagrees with the trailer's.
    var badCount = full
    let indexOffset = full.withUnsafeBytes { Int($0.littleEndianUInt64(at: payload)) }
    badCount[indexOffset + 16] = 9
    RecordingFormatCorruptionTests.fixChecksum(of: indexOffset, in: &badCount)
    let countWrong = try CloudScrubRecording(path: try RecordingSamples.file(badCount))
    #expect(countWrong.recoveredWithoutIndex)
    #expect(countWrong.frameCount == 3)
  }

  @Test func anUnknownSkippableChunkBetweenFramesIsReadPast() throws {
    let frames = (0..<2).map { RecordingSamples.frame(index: $0, color: .none) }
    let full = try RecordingSamples.bytes(try RecordingSamples.write(frames, finish: false))
    let second = try CloudScrubRecording(path: try RecordingSamples.file(full)).frameOffsets[1]
    let notePayload = Array("hello".utf8)
    var note = Array("note".utf8)
    note.appendLittleEndian(CRC32.checksum(notePayload))
    note.appendLittleEndian(UInt64(notePayload.count))
    note += notePayload + [0, 0, 0]
    let withNote = Array(full[0..<second]) + note + Array(full[second...])
    let recording = try CloudScrubRecording(path: try RecordingSamples.file(withNote))
    #expect(recording.frameCount == 2)
    #expect(try recording.frame(at: 1) == frames[1])

    // The same chunk with an uppercase tag must be understood: the scan stops there.
    var critical = withNote
    critical[second] = UInt8(ascii: "N")
    let stopped = try CloudScrubRecording(path: try RecordingSamples.file(critical))
    #expect(stopped.frameCount == 1)
    #expect(
      stopped.recoveryStop
        == .unexpectedChunk(
          tag: "Note", expected: "a frame, index or trailer chunk", frame: nil, byteOffset: second))
  }
}
