import CloudScrubCore

/// What is wrong with a CloudScrub recording, or with what a writer was given, and where.
///
/// Byte offsets count from the start of the file. A chunk's offset is that of its
/// header; a field's offset is that of the field itself. Frames count from 0.
public enum RecordingFormatError: Error, Equatable, Sendable {
  /// The file does not start with the recording magic.
  case notARecording(byteCount: Int)
  /// The file starts with the magic but ends inside the 16-byte file header.
  case truncatedFileHeader(byteCount: Int)
  /// A major version this reader does not read.
  case unsupportedVersion(major: Int, minor: Int)
  /// Flag bits a reader must understand that this one does not.
  case unsupportedFlags(UInt32)
  /// The file ends inside a chunk's 16-byte header.
  case truncatedChunkHeader(byteOffset: Int, availableBytes: Int)
  /// A chunk's payload length runs past the end of the file (or of its slot).
  case chunkExceedsFile(
    tag: String, frame: Int?, byteOffset: Int, payloadBytes: UInt64, availableBytes: Int)
  /// A chunk's payload does not match its CRC-32.
  case checksumMismatch(tag: String, frame: Int?, byteOffset: Int, stored: UInt32, computed: UInt32)
  /// A chunk with another tag than the one that must be there, or an unknown tag that
  /// may not be skipped.
  case unexpectedChunk(tag: String, expected: String, frame: Int?, byteOffset: Int)
  /// A field of a chunk's payload that is out of range or inconsistent.
  case malformedChunk(tag: String, frame: Int?, byteOffset: Int, reason: String)
  /// `frame(at:)` was asked for a frame the recording does not have.
  case frameOutOfRange(index: Int, frameCount: Int)
  /// The writer was given a frame it cannot store; nothing was written.
  case invalidFrame(frame: Int, reason: String)
  /// The writer was given metadata it cannot store.
  case invalidMetadata(reason: String)
  /// `append` or `finish` after `finish`.
  case writerFinished
}

extension RecordingFormatError: CustomStringConvertible {
  public var description: String {
    func chunk(_ tag: String, _ frame: Int?, _ offset: Int) -> String {
      if let frame { return "frame \(frame) ('\(tag)' chunk at byte \(offset))" }
      return "'\(tag)' chunk at byte \(offset)"
    }
    switch self {
    case .notARecording(let byteCount):
      return "not a CloudScrub recording: the file's \(byteCount) bytes do not start with "
        + "the 'CSREC' magic"
    case .truncatedFileHeader(let byteCount):
      return "truncated file header: the file ends after \(byteCount) of its 16 bytes"
    case .unsupportedVersion(let major, let minor):
      return "unsupported recording version \(major).\(minor) (this reader reads 1.x)"
    case .unsupportedFlags(let flags):
      let hex = String(flags, radix: 16, uppercase: true)
      return "unsupported file flags 0x\(hex) (a newer writer made this file)"
    case .truncatedChunkHeader(let byteOffset, let availableBytes):
      return "truncated chunk header at byte \(byteOffset): \(availableBytes) of 16 bytes remain"
    case .chunkExceedsFile(let tag, let frame, let byteOffset, let payloadBytes, let availableBytes):
      return "\(chunk(tag, frame, byteOffset)) claims a \(payloadBytes)-byte payload, but only "
        + "\(availableBytes) bytes remain"
    case .checksumMismatch(let tag, let frame, let byteOffset, let stored, let computed):
      let hex = { (value: UInt32) in String(value, radix: 16, uppercase: true) }
      return "CRC-32 mismatch in \(chunk(tag, frame, byteOffset)): stored 0x\(hex(stored)), "
        + "computed 0x\(hex(computed))"
    case .unexpectedChunk(let tag, let expected, let frame, let byteOffset):
      return "\(chunk(tag, frame, byteOffset)) where \(expected) must be"
    case .malformedChunk(let tag, let frame, let byteOffset, let reason):
      let place = frame.map { "frame \($0) ('\(tag)' chunk)" } ?? "'\(tag)' chunk"
      return "malformed \(place) at byte \(byteOffset): \(reason)"
    case .frameOutOfRange(let index, let frameCount):
      return "frame \(index) is out of range: the recording has \(frameCount) frames"
    case .invalidFrame(let frame, let reason):
      return "cannot record frame \(frame): \(reason)"
    case .invalidMetadata(let reason):
      return "cannot record metadata: \(reason)"
    case .writerFinished:
      return "the recording is already finished"
    }
  }
}

/// A `RecordingFormatError` with the path of the file, which its message names last.
///
/// Failing to open, map or write the file throws `FileError` instead.
public typealias RecordingFileError = InputFileError<RecordingFormatError>
