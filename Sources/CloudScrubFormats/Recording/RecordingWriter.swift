import CloudScrubCore
import Foundation

/// Writes a CloudScrub recording (`.csrec`) one frame at a time, as a capture app gets
/// its frames.
///
/// The file is written in place: the header and metadata on `init`, one chunk a frame
/// on each `append`, the index and trailer on `finish()`. Between calls the file is
/// always readable: a recording whose app crashed, or whose writer was released without
/// `finish()`, opens with every frame appended before the crash (the reader finds them
/// by scanning). A frame lost to a crash in the middle of `append` is the only loss.
///
/// Not thread-safe: call it from one thread or queue at a time.
public final class CloudScrubRecordingWriter {
  public let path: String
  public let metadata: RecordingMetadata
  /// Frames appended so far.
  public private(set) var frameCount = 0

  private var descriptor: Int32
  /// Where the next chunk goes: the end of the last complete chunk.
  private var endOffset = 0
  private var frameOffsets: [UInt64] = []
  /// The chunks of the next write; reused so that a phone does not allocate a frame's
  /// size for every frame.
  private var buffer: [UInt8] = []
  private var finished = false

  /// Creates (or truncates) the file at `path` and writes its header and metadata.
  ///
  /// - Throws: `RecordingFileError` for metadata that cannot be stored; `FileError`
  ///   when the file cannot be created or written.
  public init(path: String, metadata: RecordingMetadata = RecordingMetadata()) throws {
    self.path = path
    self.metadata = metadata
    let metadataPayload: [UInt8]
    do {
      metadataPayload = try RecordingMetadataCodec.encode(metadata)
    } catch let error as RecordingFormatError {
      throw RecordingFileError(error, path: path)
    }
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw FileError(.cannotOpen(String(cString: strerror(errno))), path: path)
    }
    buffer = RecordingLayout.magic
    buffer.appendLittleEndian(RecordingLayout.majorVersion)
    buffer.appendLittleEndian(RecordingLayout.minorVersion)
    buffer.appendLittleEndian(UInt32(0))
    let chunk = beginChunk()
    buffer.append(contentsOf: metadataPayload)
    endChunk(chunk, tag: RecordingLayout.Tag.metadata)
    try flush()
  }

  deinit {
    // Unfinished: the file keeps its frames and a reader recovers them by scanning.
    if descriptor >= 0 { close(descriptor) }
  }

  /// Appends one frame, with how the device was held when it was captured.
  ///
  /// The frame's images are stored as they are, strides and padding included, so that
  /// reading it back gives an equal `CapturedFrame`.
  ///
  /// - Throws: `RecordingFileError` (`invalidFrame`) when the frame cannot be stored,
  ///   before anything is written; `writerFinished` after `finish()`; `FileError` on a
  ///   write error, after which the file ends with the previous frame again.
  public func append(_ frame: CapturedFrame, orientation: DeviceOrientation = .unknown) throws {
    guard !finished else { throw RecordingFileError(.writerFinished, path: path) }
    buffer.removeAll(keepingCapacity: true)
    let chunk = beginChunk()
    do {
      // Encoded straight after the chunk header: the frame's blobs are copied once.
      try RecordingFrameEncoder.encode(
        frame, orientation: orientation, index: frameCount, into: &buffer)
    } catch let error as RecordingFormatError {
      throw RecordingFileError(error, path: path)
    }
    endChunk(chunk, tag: RecordingLayout.Tag.frame)
    let offset = UInt64(endOffset)
    try flush()
    frameOffsets.append(offset)
    frameCount += 1
  }

  /// Writes the index and the trailer and closes the file.
  ///
  /// - Throws: `writerFinished` when called twice; `FileError` on a write error (the
  ///   frames stay readable by scanning).
  public func finish() throws {
    guard !finished else { throw RecordingFileError(.writerFinished, path: path) }
    buffer.removeAll(keepingCapacity: true)
    let index = beginChunk()
    buffer.appendLittleEndian(UInt64(frameOffsets.count))
    for offset in frameOffsets { buffer.appendLittleEndian(offset) }
    endChunk(index, tag: RecordingLayout.Tag.index)
    let trailer = beginChunk()
    buffer.appendLittleEndian(UInt64(endOffset))
    buffer.appendLittleEndian(UInt64(frameOffsets.count))
    endChunk(trailer, tag: RecordingLayout.Tag.trailer)
    assert(buffer.count - trailer == RecordingLayout.trailerBytes, "a 32-byte trailer")
    try flush()
    finished = true
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else {
      throw FileError(.cannotWrite(String(cString: strerror(errno))), path: path)
    }
  }

  /// Asks the system to put everything written so far on storage (`fsync`), so that a
  /// power cut, not just a crash of the app, keeps it. Costly: call it every few
  /// seconds at most.
  ///
  /// - Throws: `FileError` when the system reports a failure.
  public func synchronize() throws {
    guard descriptor >= 0, fsync(descriptor) == 0 else {
      throw FileError(.cannotWrite("fsync: \(String(cString: strerror(errno)))"), path: path)
    }
  }

  // MARK: - Chunks

  /// Starts a chunk at the end of `buffer` with room for its header; returns where.
  private func beginChunk() -> Int {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: RecordingLayout.chunkHeaderBytes))
    return start
  }

  /// Fills in the header of the chunk begun at `start`, whose payload is the rest of
  /// `buffer`, and pads it.
  private func endChunk(_ start: Int, tag: UInt32) {
    let payloadStart = start + RecordingLayout.chunkHeaderBytes
    let crc = buffer.withUnsafeBytes {
      CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[payloadStart...]))
    }
    buffer.storeLittleEndian(tag, at: start)
    buffer.storeLittleEndian(crc, at: start + 4)
    buffer.storeLittleEndian(UInt64(buffer.count - payloadStart), at: start + 8)
    buffer.padToAlignment()
  }

  /// Writes `buffer` at the end of the last complete chunk, with one system call where
  /// the system allows. On failure the file is cut back there, so that it never ends in
  /// a partial chunk that a later one would follow.
  private func flush() throws {
    let failure: Int32? = buffer.withUnsafeBytes { bytes in
      var done = 0
      while done < bytes.count {
        let written = pwrite(
          descriptor, bytes.baseAddress.map { $0 + done }, bytes.count - done,
          off_t(endOffset + done))
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        done += written
      }
      return nil
    }
    if let failure {
      _ = ftruncate(descriptor, off_t(endOffset))
      throw FileError(.cannotWrite(String(cString: strerror(failure))), path: path)
    }
    endOffset += buffer.count
  }
}
