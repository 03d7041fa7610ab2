import CloudScrubCore
import Foundation

/// A CloudScrub recording (`.csrec`) opened for reading: its metadata and random access
/// to its frames.
///
/// Opening maps the file, checks its header and metadata, and finds the frames through
/// the index the trailer points at. When there is no trailer (the writer did not finish)
/// or the index is damaged, it finds them by scanning the chunks from the start instead,
/// stopping at the first incomplete or damaged one, and says so in
/// `recoveredWithoutIndex` and the description's notes.
///
/// Frames are checked (CRC-32 and every size) when they are read, not when the file is
/// opened, so that opening a long recording stays fast. `frame(at:)` may be called from
/// several threads at once.
public final class CloudScrubRecording: RecordingSource, @unchecked Sendable {
  // @unchecked: every stored property is immutable after init, and the mapping is only
  // read.

  public let path: String
  public let metadata: RecordingMetadata
  /// The file's format version (major is always 1 for a file this reader opens).
  public let version: (major: Int, minor: Int)
  /// True when the frames were found by scanning because the index was missing or
  /// unusable.
  public let recoveredWithoutIndex: Bool
  /// Why the scan stopped before the end of the file (the first incomplete or damaged
  /// chunk), or nil when there was no scan or it reached the end or the index.
  public let recoveryStop: RecordingFormatError?
  public let description: RecordingDescription

  private let file: MappedFile
  /// Offsets of the frame chunks' headers.
  let frameOffsets: [Int]
  /// Where the frames' region ends: the index, or where the scan stopped.
  private let framesEnd: Int

  /// Opens the recording at `path`.
  ///
  /// - Throws: `FileError` when the file cannot be opened or mapped;
  ///   `RecordingFileError` when it is not a recording, has a version or flags this
  ///   reader does not know, or its header or metadata is damaged.
  public init(path: String) throws {
    self.path = path
    file = try MappedFile(path: path)
    let bytes = file.bytes
    do {
      let metadataOffset = try RecordingChunks.checkFileHeader(bytes)
      version = (Int(bytes.littleEndianUInt16(at: 8)), Int(bytes.littleEndianUInt16(at: 10)))
      let metadataChunk = try RecordingChunks.chunk(in: bytes, at: metadataOffset)
      try RecordingChunks.verify(metadataChunk, in: bytes, tag: RecordingLayout.Tag.metadata)
      var cursor = RecordingChunks.cursor(metadataChunk, in: bytes)
      metadata = try RecordingMetadataCodec.decode(&cursor)
      let framesStart = RecordingChunks.next(after: metadataChunk, fileCount: bytes.count)

      let found = Self.locateFrames(bytes, framesStart: framesStart)
      frameOffsets = found.offsets
      framesEnd = found.framesEnd
      recoveredWithoutIndex = found.recovered
      recoveryStop = found.stop
      var notes = found.notes
      var first: RecordingFrameHeader?
      do {
        first = try Self.firstHeader(bytes, frameOffsets.first, framesEnd)
      } catch {
        notes.append("frame 0's header is unreadable, so the sizes are unknown: \(error)")
      }
      description = Self.describe(metadata: metadata, first: first, notes: notes)
    } catch let error as RecordingFormatError {
      throw RecordingFileError(error, path: path)
    }
  }

  /// The frames through the index when it is there and sound, else by scanning.
  private static func locateFrames(_ bytes: UnsafeRawBufferPointer, framesStart: Int) -> (
    offsets: [Int], framesEnd: Int, recovered: Bool, stop: RecordingFormatError?, notes: [String]
  ) {
    let problem: String
    do {
      if let index = try RecordingChunks.readIndex(in: bytes, framesStart: framesStart) {
        return (index.offsets, index.indexOffset, false, nil, [])
      }
      problem = "the file ends without a trailer (the writer did not finish)"
    } catch {
      problem = "the index is unusable (\(error))"
    }
    let scan = RecordingChunks.scan(bytes, from: framesStart)
    var notes = ["no index: \(problem); found \(scan.offsets.count) frames by scanning"]
    if let stop = scan.stop { notes.append("scan stopped at the first bad chunk: \(stop)") }
    return (scan.offsets, scan.framesEnd, true, scan.stop, notes)
  }

  public var frameCount: Int { frameOffsets.count }

  /// Reads frame `index`, checking its chunk's CRC-32, its header's, and every size and
  /// stride.
  ///
  /// - Throws: `RecordingFileError` naming the frame and its byte offset when it is out
  ///   of range, damaged or inconsistent.
  public func frame(at index: Int) throws -> CapturedFrame {
    try frameAndOrientation(at: index).frame
  }

  /// Frame `index`'s time, intrinsics and pose, from its header alone.
  ///
  /// Only the 240-byte frame header is read and checked (with its own CRC-32), not the
  /// images: a trajectory of a long recording costs a page a frame.
  ///
  /// - Throws: as `frame(at:)`, for the header.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    let header = try frameHeader(at: index)
    return FrameInfo(
      timestampSeconds: header.timestampSeconds, intrinsics: header.intrinsics, pose: header.pose)
  }

  /// How the device was held when frame `index` was captured, from its header alone
  /// (checked as in `frameInfo(at:)`).
  ///
  /// - Throws: as `frame(at:)`, for the header.
  public func frameOrientation(at index: Int) throws -> DeviceOrientation {
    try frameHeader(at: index).orientation
  }

  /// Frame `index` with how the device was held when it was captured.
  ///
  /// - Throws: as `frame(at:)`.
  public func frameAndOrientation(at index: Int) throws -> (
    frame: CapturedFrame, orientation: DeviceOrientation
  ) {
    try withPayload(of: index, verifyPayload: true, discardAfterwards: true) { cursor in
      try RecordingFrameDecoder.decode(&cursor, index: index)
    }
  }

  private func frameHeader(at index: Int) throws -> RecordingFrameHeader {
    try withPayload(of: index, verifyPayload: false) { cursor in
      try RecordingFrameDecoder.decodeHeader(&cursor, index: index)
    }
  }

  /// Finds frame `index`'s chunk, checks its place and tag (and its payload's CRC-32 when
  /// asked), and hands `body` a cursor over its payload.
  ///
  /// - Parameter discardAfterwards: lets the kernel drop the chunk's pages once `body`
  ///   is done (it copies what it keeps), so a long recording streams through a bounded
  ///   amount of memory.
  private func withPayload<T>(
    of index: Int, verifyPayload: Bool, discardAfterwards: Bool = false,
    _ body: (inout PayloadCursor) throws -> T
  ) throws -> T {
    do {
      guard frameOffsets.indices.contains(index) else {
        throw RecordingFormatError.frameOutOfRange(index: index, frameCount: frameCount)
      }
      let bytes = file.bytes
      // A frame's chunk must end before the next frame's (or the index) starts.
      let limit = index + 1 < frameOffsets.count ? frameOffsets[index + 1] : framesEnd
      let chunk = try RecordingChunks.chunk(
        in: bytes, at: frameOffsets[index], limit: limit, frame: index)
      if verifyPayload {
        try RecordingChunks.verify(chunk, in: bytes, tag: RecordingLayout.Tag.frame)
      } else {
        try RecordingChunks.checkTag(chunk, RecordingLayout.Tag.frame)
      }
      var cursor = RecordingChunks.cursor(chunk, in: bytes)
      defer { if discardAfterwards { file.discard(chunk.offset..<chunk.payloadEnd) } }
      let result = try body(&cursor)
      try file.checkIntact()
      return result
    } catch let error as RecordingFormatError {
      // A chunk damaged by zeros read past a truncation: name the real cause.
      try file.checkIntact()
      throw RecordingFileError(error, path: path)
    }
  }

  // MARK: - Description

  /// Frame 0's header, for the sizes `info` shows; nil when there are no frames.
  private static func firstHeader(
    _ bytes: UnsafeRawBufferPointer, _ offset: Int?, _ framesEnd: Int
  ) throws -> RecordingFrameHeader? {
    guard let offset else { return nil }
    let chunk = try RecordingChunks.chunk(in: bytes, at: offset, limit: framesEnd, frame: 0)
    try RecordingChunks.checkTag(chunk, RecordingLayout.Tag.frame)
    var cursor = RecordingChunks.cursor(chunk, in: bytes)
    return try RecordingFrameDecoder.decodeHeader(&cursor, index: 0)
  }

  private static func describe(
    metadata: RecordingMetadata, first: RecordingFrameHeader?, notes: [String]
  ) -> RecordingDescription {
    let hasColor = (first?.colorForm ?? 0) != RecordingLayout.Code.colorNone
    let colorWidth = first.map(\.colorSize.width).flatMap { hasColor && $0 > 0 ? $0 : nil }
    let colorHeight = first.map(\.colorSize.height).flatMap { hasColor && $0 > 0 ? $0 : nil }
    return RecordingDescription(
      format: "CloudScrub recording", app: metadata.appName,
      framesPerSecond: metadata.framesPerSecond, depthWidth: first?.depthSize.width ?? 0,
      depthHeight: first?.depthSize.height ?? 0, colorWidth: colorWidth, colorHeight: colorHeight,
      notes: notes)
  }
}
