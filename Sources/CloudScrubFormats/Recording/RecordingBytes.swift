import CloudScrubCore

// MARK: - Writing

extension Array where Element == UInt8 {
  /// Appends `value` in little-endian byte order.
  mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }

  mutating func appendLittleEndian(_ value: Double) {
    appendLittleEndian(value.bitPattern)
  }

  /// Appends zero bytes up to the next multiple of the recording alignment.
  mutating func padToAlignment() {
    let remainder = count % RecordingLayout.alignment
    if remainder != 0 {
      append(contentsOf: repeatElement(0, count: RecordingLayout.alignment - remainder))
    }
  }

  /// Overwrites the bytes at `offset` with `value`, little-endian.
  mutating func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    Swift.withUnsafeBytes(of: value.littleEndian) { bytes in
      for (i, byte) in bytes.enumerated() { self[offset + i] = byte }
    }
  }
}

// MARK: - Reading

/// Unchecked little-endian loads from a file's bytes; callers check the range first.
extension UnsafeRawBufferPointer {
  func littleEndianUInt16(at offset: Int) -> UInt16 {
    UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  func littleEndianUInt32(at offset: Int) -> UInt32 {
    UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  func littleEndianUInt64(at offset: Int) -> UInt64 {
    UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
}

/// Reads a chunk's payload front to back, checking every read against the payload's
/// end and naming the chunk, frame and byte offset in what it throws.
struct PayloadCursor {
  let file: UnsafeRawBufferPointer
  /// File offset of the next byte to read.
  var offset: Int
  /// File offset just past the payload.
  let end: Int
  let tag: String
  let frame: Int?

  init(file: UnsafeRawBufferPointer, start: Int, end: Int, tag: UInt32, frame: Int?) {
    precondition(0 <= start && start <= end && end <= file.count, "payload inside the file")
    self.file = file
    offset = start
    self.end = end
    self.tag = RecordingLayout.Tag.name(tag)
    self.frame = frame
  }

  var remaining: Int { end - offset }

  /// The error for a problem with the field at `byteOffset`.
  func malformed(_ reason: String, at byteOffset: Int? = nil) -> RecordingFormatError {
    .malformedChunk(tag: tag, frame: frame, byteOffset: byteOffset ?? offset, reason: reason)
  }

  private mutating func take(_ count: Int, _ field: String) throws -> Int {
    guard count <= remaining else {
      throw malformed("\(field) (\(count) bytes) runs past the payload's end at byte \(end)")
    }
    defer { offset += count }
    return offset
  }

  mutating func uint8(_ field: String) throws -> UInt8 {
    file[try take(1, field)]
  }

  mutating func uint32(_ field: String) throws -> UInt32 {
    file.littleEndianUInt32(at: try take(4, field))
  }

  mutating func uint64(_ field: String) throws -> UInt64 {
    file.littleEndianUInt64(at: try take(8, field))
  }

  mutating func float64(_ field: String) throws -> Double {
    Double(bitPattern: try uint64(field))
  }

  /// A 32-bit size or count as an `Int`.
  mutating func int(_ field: String) throws -> Int {
    Int(try uint32(field))
  }

  /// `count` bytes as an array; the count is checked against the payload before the
  /// array is allocated.
  mutating func bytes(_ count: Int, _ field: String) throws -> [UInt8] {
    guard count >= 0 else { throw malformed("negative length for \(field)") }
    let start = try take(count, field)
    return Array(UnsafeRawBufferPointer(rebasing: file[start..<(start + count)]))
  }

  /// UTF-8 text of `count` bytes.
  mutating func text(_ count: Int, _ field: String) throws -> String {
    let at = offset
    let raw = try bytes(count, field)
    guard let text = String(validating: raw, as: UTF8.self) else {
      throw malformed("\(field) is not valid UTF-8", at: at)
    }
    return text
  }

  /// Moves to `target`, which must lie between here and the payload's end.
  mutating func skip(to target: Int, _ field: String) throws {
    guard target >= offset, target <= end else {
      throw malformed("\(field) points outside the payload (byte \(target))")
    }
    offset = target
  }
}
