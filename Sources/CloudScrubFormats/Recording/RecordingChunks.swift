import CloudScrubCore

/// Where a chunk is and how long its payload is, from its 16-byte header.
struct RecordingChunk {
  var offset: Int
  var tag: UInt32
  var storedChecksum: UInt32
  var payloadBytes: Int
  /// Frame number for messages, when the chunk is a frame.
  var frame: Int?

  var payloadStart: Int { offset + RecordingLayout.chunkHeaderBytes }
  var payloadEnd: Int { payloadStart + payloadBytes }
  var tagName: String { RecordingLayout.Tag.name(tag) }
}

/// Reading chunks out of a mapped file: headers, checksums, the index through the
/// trailer, and the scan that recovers frames without one.
enum RecordingChunks {
  /// The file header's checks; returns the offset of the first chunk.
  static func checkFileHeader(_ file: UnsafeRawBufferPointer) throws -> Int {
    let magic = RecordingLayout.magic
    guard file.count >= magic.count, zip(file, magic).allSatisfy({ $0 == $1 }) else {
      throw RecordingFormatError.notARecording(byteCount: file.count)
    }
    guard file.count >= RecordingLayout.fileHeaderBytes else {
      throw RecordingFormatError.truncatedFileHeader(byteCount: file.count)
    }
    let major = file.littleEndianUInt16(at: 8)
    let minor = file.littleEndianUInt16(at: 10)
    guard major == RecordingLayout.majorVersion else {
      throw RecordingFormatError.unsupportedVersion(major: Int(major), minor: Int(minor))
    }
    let flags = file.littleEndianUInt32(at: 12)
    guard flags & RecordingLayout.requiredFlagsMask == 0 else {
      throw RecordingFormatError.unsupportedFlags(flags)
    }
    return RecordingLayout.fileHeaderBytes
  }

  /// The chunk whose header is at `offset`, with its payload checked to end by `limit`
  /// (the file's end, or where the next chunk must start); `frame` names the frame the
  /// chunk should be in errors.
  static func chunk(
    in file: UnsafeRawBufferPointer, at offset: Int, limit: Int? = nil, frame: Int? = nil
  ) throws -> RecordingChunk {
    let limit = min(limit ?? file.count, file.count)
    let available = limit - offset
    guard available >= RecordingLayout.chunkHeaderBytes else {
      throw RecordingFormatError.truncatedChunkHeader(
        byteOffset: offset, availableBytes: max(available, 0))
    }
    let tag = file.littleEndianUInt32(at: offset)
    let length = file.littleEndianUInt64(at: offset + 8)
    let room = available - RecordingLayout.chunkHeaderBytes
    guard length <= UInt64(room) else {
      throw RecordingFormatError.chunkExceedsFile(
        tag: RecordingLayout.Tag.name(tag), frame: frame, byteOffset: offset, payloadBytes: length,
        availableBytes: room)
    }
    return RecordingChunk(
      offset: offset, tag: tag, storedChecksum: file.littleEndianUInt32(at: offset + 4),
      payloadBytes: Int(length), frame: frame)
  }

  /// Checks that the chunk has the tag that must be there.
  static func checkTag(_ chunk: RecordingChunk, _ expected: UInt32) throws {
    guard chunk.tag == expected else {
      throw RecordingFormatError.unexpectedChunk(
        tag: chunk.tagName, expected: "a '\(RecordingLayout.Tag.name(expected))' chunk",
        frame: chunk.frame, byteOffset: chunk.offset)
    }
  }

  /// Checks the chunk's tag, then its payload's CRC-32.
  static func verify(
    _ chunk: RecordingChunk, in file: UnsafeRawBufferPointer, tag expected: UInt32
  ) throws {
    try checkTag(chunk, expected)
    let payload = UnsafeRawBufferPointer(rebasing: file[chunk.payloadStart..<chunk.payloadEnd])
    let computed = CRC32.checksum(payload)
    guard computed == chunk.storedChecksum else {
      throw RecordingFormatError.checksumMismatch(
        tag: chunk.tagName, frame: chunk.frame, byteOffset: chunk.offset,
        stored: chunk.storedChecksum, computed: computed)
    }
  }

  static func cursor(_ chunk: RecordingChunk, in file: UnsafeRawBufferPointer) -> PayloadCursor {
    PayloadCursor(
      file: file, start: chunk.payloadStart, end: chunk.payloadEnd, tag: chunk.tag,
      frame: chunk.frame)
  }

  /// The offset where the chunk after `chunk` starts (the file's end at most).
  static func next(after chunk: RecordingChunk, fileCount: Int) -> Int {
    min(RecordingLayout.aligned(chunk.payloadEnd) ?? fileCount, fileCount)
  }

  // MARK: - Index

  /// The frame chunks' offsets from the index the trailer points at, and where the
  /// index starts; nil when the file does not end with a trailer chunk.
  ///
  /// - Throws: `RecordingFormatError` when there is a trailer but it or the index is
  ///   damaged or inconsistent.
  static func readIndex(
    in file: UnsafeRawBufferPointer, framesStart: Int
  ) throws -> (offsets: [Int], indexOffset: Int)? {
    let trailerOffset = file.count - RecordingLayout.trailerBytes
    guard trailerOffset >= framesStart,
      file.littleEndianUInt32(at: trailerOffset) == RecordingLayout.Tag.trailer
    else { return nil }
    let trailer = try chunk(in: file, at: trailerOffset)
    guard trailer.payloadBytes == RecordingLayout.trailerPayloadBytes else {
      throw RecordingFormatError.malformedChunk(
        tag: "TAIL", frame: nil, byteOffset: trailerOffset + 8,
        reason: "payload is \(trailer.payloadBytes) bytes, not 16")
    }
    try verify(trailer, in: file, tag: RecordingLayout.Tag.trailer)
    let storedIndexOffset = file.littleEndianUInt64(at: trailer.payloadStart)
    let trailerCount = file.littleEndianUInt64(at: trailer.payloadStart + 8)
    guard storedIndexOffset >= UInt64(framesStart), storedIndexOffset < UInt64(trailerOffset),
      storedIndexOffset % UInt64(RecordingLayout.alignment) == 0
    else {
      throw RecordingFormatError.malformedChunk(
        tag: "TAIL", frame: nil, byteOffset: trailer.payloadStart,
        reason: "index offset \(storedIndexOffset) is not an aligned offset between byte "
          + "\(framesStart) and the trailer")
    }
    let indexOffset = Int(storedIndexOffset)
    let index = try chunk(in: file, at: indexOffset, limit: trailerOffset)
    try verify(index, in: file, tag: RecordingLayout.Tag.index)
    var cursor = cursor(index, in: file)
    let count = try cursor.uint64("frame count")
    let slots = cursor.remaining / 8
    guard count == trailerCount, count == UInt64(slots), cursor.remaining % 8 == 0 else {
      throw cursor.malformed(
        "frame count \(count) does not match the trailer's \(trailerCount) and the "
          + "\(cursor.remaining) bytes of offsets", at: index.payloadStart)
    }
    var offsets: [Int] = []
    offsets.reserveCapacity(slots)
    var lowest = framesStart
    for frame in 0..<slots {
      let at = cursor.offset
      let offset = try cursor.uint64("frame offset")
      // Frames lie in order between the metadata and the index, each with room for a header.
      guard offset >= UInt64(lowest), offset % UInt64(RecordingLayout.alignment) == 0,
        offset <= UInt64(indexOffset - RecordingLayout.chunkHeaderBytes)
      else {
        throw cursor.malformed(
          "frame \(frame)'s offset \(offset) is not aligned, in order and before the index", at: at)
      }
      offsets.append(Int(offset))
      lowest = Int(offset) + RecordingLayout.chunkHeaderBytes
    }
    return (offsets, indexOffset)
  }

  // MARK: - Recovery

  /// Walks the chunks from `framesStart`, verifying each, and collects the frames'
  /// offsets up to the first chunk that is incomplete, damaged or out of place (its
  /// error is `stop`), the index, or the end of the file.
  static func scan(
    _ file: UnsafeRawBufferPointer, from framesStart: Int
  ) -> (offsets: [Int], framesEnd: Int, stop: RecordingFormatError?) {
    var offsets: [Int] = []
    var offset = framesStart
    while offset < file.count {
      do {
        let isFrame =
          file.count - offset >= 4
          && file.littleEndianUInt32(at: offset) == RecordingLayout.Tag.frame
        let found = try chunk(in: file, at: offset, frame: isFrame ? offsets.count : nil)
        switch found.tag {
        case RecordingLayout.Tag.frame:
          try verify(found, in: file, tag: found.tag)
          var cursor = cursor(found, in: file)
          _ = try RecordingFrameDecoder.decodeHeader(&cursor, index: offsets.count)
          offsets.append(offset)
        case RecordingLayout.Tag.index, RecordingLayout.Tag.trailer:
          return (offsets, offset, nil)
        case let tag where RecordingLayout.Tag.isSkippable(tag):
          break
        default:
          throw RecordingFormatError.unexpectedChunk(
            tag: found.tagName, expected: "a frame, index or trailer chunk", frame: nil,
            byteOffset: offset)
        }
        offset = next(after: found, fileCount: file.count)
      } catch let error as RecordingFormatError {
        return (offsets, offset, error)
      } catch {
        return (
          offsets, offset,
          .malformedChunk(tag: "?", frame: nil, byteOffset: offset, reason: "\(error)")
        )
      }
    }
    return (offsets, offset, nil)
  }
}
