import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// Damaged files give typed errors that name what is wrong and where; nothing is
/// allocated from a length the file cannot hold, and nothing crashes.
@Suite struct RecordingFormatCorruptionTests {
  /// Recomputes the CRC-32 of the chunk at `offset` after a test changed its payload.
  static func fixChecksum(of offset: Int, in bytes: inout [UInt8]) {
    let length = bytes.withUnsafeBytes { Int($0.littleEndianUInt64(at: offset + 8)) }
    let crc = CRC32.checksum(Array(bytes[(offset + 16)..<(offset + 16 + length)]))
    bytes.storeLittleEndian(crc, at: offset + 4)
  }

  /// Recomputes the frame header's own CRC-32 in the frame chunk at `offset`.
  static func fixHeaderChecksum(of offset: Int, in bytes: inout [UInt8]) {
    let header = offset + 16
    let crc = CRC32.checksum(Array(bytes[(header + 8)..<(header + 240)]))
    bytes.storeLittleEndian(crc, at: header + 4)
  }

  private func storeUInt64(_ value: UInt64, at offset: Int, in bytes: inout [UInt8]) {
    for i in 0..<8 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
  }

  private func openError(_ bytes: [UInt8]) throws -> RecordingFormatError? {
    do {
      _ = try CloudScrubRecording(path: try RecordingSamples.file(bytes))
      return nil
    } catch let error as RecordingFileError {
      return error.reason
    }
  }

  private func frameError(_ recording: CloudScrubRecording, _ index: Int) -> RecordingFileError? {
    do {
      _ = try recording.frame(at: index)
      return nil
    } catch {
      return error as? RecordingFileError
    }
  }

  private func sample(frames count: Int = 5) throws -> (bytes: [UInt8], offsets: [Int]) {
    let frames = (0..<count).map { RecordingSamples.frame(index: $0, color: .jpeg) }
    let bytes = try RecordingSamples.bytes(try RecordingSamples.write(frames))
    let offsets = try CloudScrubRecording(path: try RecordingSamples.file(bytes)).frameOffsets
    return (bytes, offsets)
  }

  @Test func aFlippedPayloadByteIsThatFramesChecksumError() throws {
    let (full, offsets) = try sample()
    var damaged = full
    damaged[offsets[2] + 16 + 240 + 8 + 50] ^= 0x40  // inside frame 2's depth map
    let path = try RecordingSamples.file(damaged)
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.frameCount == 5)
    for i in [0, 1, 3, 4] { #expect(frameError(recording, i) == nil) }
    let error = try #require(frameError(recording, 2))
    guard
      case .checksumMismatch(
        tag: "FRAM", frame: 2, byteOffset: offsets[2], let stored, let computed) =
        error.reason
    else {
      Issue.record("expected frame 2's CRC error, got \(error)")
      return
    }
    #expect(stored != computed)
    #expect(
      error.description.hasPrefix("CRC-32 mismatch in frame 2 ('FRAM' chunk at byte \(offsets[2]))")
    )
    #expect(error.description.hasSuffix(": \(path)"))

    // Without the index, the scan stops at the damaged frame and keeps the two before.
    let unindexed = try CloudScrubRecording(
      path: try RecordingSamples.file(Array(damaged[0..<offsets[4]])))
    #expect(unindexed.frameCount == 2)
    guard
      case .checksumMismatch(tag: "FRAM", frame: 2, byteOffset: offsets[2], _, _) = unindexed
        .recoveryStop
    else {
      Issue.record("expected the scan to stop at frame 2's CRC")
      return
    }
  }

  @Test func hugeChunkLengthsAreRefusedBeforeAllocation() throws {
    let (full, offsets) = try sample(frames: 3)
    var frameLength = full
    storeUInt64(1 << 62, at: offsets[1] + 8, in: &frameLength)
    let indexed = try CloudScrubRecording(path: try RecordingSamples.file(frameLength))
    #expect(
      frameError(indexed, 1)?.reason
        == .chunkExceedsFile(
          tag: "FRAM", frame: 1, byteOffset: offsets[1], payloadBytes: 1 << 62,
          availableBytes: offsets[2] - offsets[1] - 16))
    let scanned = try CloudScrubRecording(
      path: try RecordingSamples.file(Array(frameLength[0..<offsets[2]])))
    #expect(scanned.frameCount == 1)
    #expect(
      scanned.recoveryStop
        == .chunkExceedsFile(
          tag: "FRAM", frame: 1, byteOffset: offsets[1], payloadBytes: 1 << 62,
          availableBytes: offsets[2] - offsets[1] - 16))

    var metadataLength = full
    storeUInt64(UInt64.max, at: 16 + 8, in: &metadataLength)
    guard
      case .chunkExceedsFile(tag: "META", frame: nil, byteOffset: 16, payloadBytes: UInt64.max, _) =
        try openError(metadataLength)
    else {
      Issue.record("expected the metadata chunk's length to be refused")
      return
    }
  }

  @Test func hugeLengthsInsideAPayloadAreRefusedBeforeAllocation() throws {
    let (full, offsets) = try sample(frames: 2)
    let depthLength = offsets[1] + 16 + 240
    var blob = full
    storeUInt64(UInt64.max - 3, at: depthLength, in: &blob)
    Self.fixChecksum(of: offsets[1], in: &blob)
    let recording = try CloudScrubRecording(path: try RecordingSamples.file(blob))
    guard
      case .malformedChunk(tag: "FRAM", frame: 1, byteOffset: depthLength, let reason) =
        frameError(recording, 1)?.reason
    else {
      Issue.record("expected frame 1's depth length to be refused")
      return
    }
    #expect(reason.contains("depth map claims 18446744073709551612 bytes"))

    var width = full
    width.storeLittleEndian(UInt32.max, at: offsets[1] + 16 + 200)
    Self.fixHeaderChecksum(of: offsets[1], in: &width)
    Self.fixChecksum(of: offsets[1], in: &width)
    let wide = try CloudScrubRecording(path: try RecordingSamples.file(width))
    guard
      case .malformedChunk(tag: "FRAM", frame: 1, byteOffset: offsets[1] + 16, let wideReason) =
        frameError(wide, 1)?.reason
    else {
      Issue.record("expected a depth map of 2^32−1 columns to be refused")
      return
    }
    #expect(wideReason.contains("depth map size 4294967295×"))

    // The metadata's entry count: at byte 16 + 16 + 12.
    var entries = full
    entries.storeLittleEndian(UInt32.max, at: 44)
    Self.fixChecksum(of: 16, in: &entries)
    guard case .malformedChunk(tag: "META", frame: nil, byteOffset: 44, _) = try openError(entries)
    else {
      Issue.record("expected the metadata's entry count to be refused")
      return
    }

    // The index's frame count, with both CRCs fixed: the index is refused and the scan
    // finds the frames.
    var count = full
    let indexOffset = full.withUnsafeBytes { Int($0.littleEndianUInt64(at: full.count - 16)) }
    storeUInt64(1 << 61, at: indexOffset + 16, in: &count)
    storeUInt64(1 << 61, at: full.count - 8, in: &count)
    Self.fixChecksum(of: indexOffset, in: &count)
    Self.fixChecksum(of: full.count - 32, in: &count)
    let recovered = try CloudScrubRecording(path: try RecordingSamples.file(count))
    #expect(recovered.recoveredWithoutIndex)
    #expect(recovered.frameCount == 2)
  }

  @Test func frameInfoReadsTheHeaderAloneAndChecksItsOwnChecksum() throws {
    let frames = (0..<3).map { RecordingSamples.frame(index: $0, color: .jpeg) }
    let bytes = try RecordingSamples.bytes(try RecordingSamples.write(frames))
    let offsets = try CloudScrubRecording(path: try RecordingSamples.file(bytes)).frameOffsets
    var damaged = bytes
    damaged[offsets[1] + 16 + 240 + 20] ^= 0x01  // frame 1's depth map
    damaged[offsets[2] + 16 + 20] ^= 0x01  // frame 2's timestamp
    let recording = try CloudScrubRecording(path: try RecordingSamples.file(damaged))
    for i in 0..<2 {
      let info = try recording.frameInfo(at: i)
      #expect(info.timestampSeconds == frames[i].timestampSeconds)
      #expect(info.intrinsics == frames[i].intrinsics)
      #expect(info.pose == frames[i].pose)
    }
    #expect(try recording.frameOrientation(at: 1) == .landscapeRight)
    guard case .checksumMismatch(tag: "FRAM", frame: 1, _, _, _) = frameError(recording, 1)?.reason
    else {
      Issue.record("expected frame 1's payload CRC error")
      return
    }
    do {
      _ = try recording.frameInfo(at: 2)
      Issue.record("a damaged frame header was read")
    } catch let error as RecordingFileError {
      guard
        case .malformedChunk(tag: "FRAM", frame: 2, byteOffset: offsets[2] + 20, let reason) = error
          .reason
      else {
        Issue.record("expected frame 2's header CRC error, got \(error)")
        return
      }
      #expect(reason.hasPrefix("frame header CRC-32 mismatch"))
    }
  }

  @Test func aFrameCodeOutOfRangeIsNamed() throws {
    let (full, offsets) = try sample(frames: 1)
    var bytes = full
    bytes[offsets[0] + 16 + 197] = 9  // colour form
    Self.fixHeaderChecksum(of: offsets[0], in: &bytes)
    Self.fixChecksum(of: offsets[0], in: &bytes)
    let recording = try CloudScrubRecording(path: try RecordingSamples.file(bytes))
    #expect(
      frameError(recording, 0)?.reason
        == .malformedChunk(
          tag: "FRAM", frame: 0, byteOffset: offsets[0] + 16 + 197,
          reason: "unknown colour form code 9"))
  }

  @Test func notARecordingGivesAClearError() throws {
    #expect(try openError([]) == .notARecording(byteCount: 0))
    #expect(try openError(Array("ply\nformat ascii 1.0\n".utf8)) == .notARecording(byteCount: 21))
    #expect(try openError(Array(RecordingLayout.magic.prefix(5))) == .notARecording(byteCount: 5))
    #expect(try openError(RecordingLayout.magic + [1, 0]) == .truncatedFileHeader(byteCount: 10))
    let path = try RecordingSamples.file(Array("PK\u{3}\u{4} not this".utf8), name: "scan.r3d")
    let error = #expect(throws: RecordingFileError.self) { try CloudScrubRecording(path: path) }
    #expect(
      error?.description
        == "not a CloudScrub recording: the file's 13 bytes do not start with the 'CSREC' magic: \(path)"
    )
    #expect(throws: FileError.self) { try CloudScrubRecording(path: "/nonexistent/take.csrec") }
    #expect(throws: FileError.self) { try CloudScrubRecording(path: NSTemporaryDirectory()) }
  }

  @Test func newerVersionsAndFlagsAreRefusedOrAccepted() throws {
    let (full, _) = try sample(frames: 1)
    var major = full
    major[8] = 2
    #expect(try openError(major) == .unsupportedVersion(major: 2, minor: 0))
    var minor = full
    minor[10] = 7
    #expect(try openError(minor) == nil)
    var required = full
    required[12] = 0x01
    #expect(try openError(required) == .unsupportedFlags(1))
    var optional = full
    optional[14] = 0x01
    #expect(try openError(optional) == nil)
  }

  @Test func aFrameOutOfRangeIsAnError() throws {
    let (full, _) = try sample(frames: 2)
    let recording = try CloudScrubRecording(path: try RecordingSamples.file(full))
    #expect(frameError(recording, 2)?.reason == .frameOutOfRange(index: 2, frameCount: 2))
    #expect(frameError(recording, -1)?.reason == .frameOutOfRange(index: -1, frameCount: 2))
  }

  @Test func theWriterRefusesWhatItCannotStoreAndKeepsTheFileReadable() throws {
    let path = try TestData.makeTemporaryDirectory().appendingPathComponent("w.csrec").path
    let writer = try CloudScrubRecordingWriter(path: path)
    let good = RecordingSamples.frame(index: 0, color: .jpeg)
    try writer.append(good)
    var short = RecordingSamples.frame(index: 1, color: .jpeg)
    short.depth.bytes.removeLast()
    #expect(throws: RecordingFileError.self) { try writer.append(short) }
    var badChroma = RecordingSamples.frame(index: 1, color: .yCbCrVideoPadded)
    if case .yCbCr420(var image) = badChroma.color {
      image.chromaBytesPerRow = 6
      badChroma.color = .yCbCr420(image)
    }
    do {
      try writer.append(badChroma)
      Issue.record("a chroma stride narrower than its row was accepted")
    } catch let error as RecordingFileError {
      guard case .invalidFrame(frame: 1, let reason) = error.reason else {
        Issue.record("expected invalidFrame, got \(error)")
        return
      }
      #expect(reason.contains("chroma plane has 6 bytes a row"))
    }
    var emptyJPEG = good
    emptyJPEG.color = .jpeg([])
    #expect(throws: RecordingFileError.self) { try writer.append(emptyJPEG) }
    #expect(writer.frameCount == 1)
    try writer.append(RecordingSamples.frame(index: 1, color: .none))
    try writer.finish()
    #expect(throws: RecordingFileError(.writerFinished, path: path)) { try writer.append(good) }
    #expect(throws: RecordingFileError(.writerFinished, path: path)) { try writer.finish() }
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.frameCount == 2)
    #expect(try recording.frame(at: 0) == good)

    #expect(throws: RecordingFileError.self) {
      try CloudScrubRecordingWriter(
        path: path + "2", metadata: RecordingMetadata(framesPerSecond: -1))
    }
    #expect(throws: RecordingFileError.self) {
      try CloudScrubRecordingWriter(
        path: path + "3", metadata: RecordingMetadata(extraFields: ["app": "x"]))
    }
    #expect(throws: FileError.self) {
      try CloudScrubRecordingWriter(path: "/nonexistent/folder/take.csrec")
    }
  }
}
