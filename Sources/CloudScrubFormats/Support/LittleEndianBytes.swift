import CloudScrubCore

extension Array where Element == UInt8 {
  /// Appends a `Float`'s bytes, little-endian (integers and `Double`: RecordingBytes).
  @inline(__always)
  mutating func appendLittleEndian(_ value: Float) { appendLittleEndian(value.bitPattern) }

  /// Appends the text of `string`.
  mutating func appendText(_ string: String) { append(contentsOf: string.utf8) }
}

extension UnsafeRawBufferPointer {
  /// The little-endian integer at `offset` (the caller checked the bounds).
  @inline(__always)
  func littleEndian<T: FixedWidthInteger>(at offset: Int, as _: T.Type) -> T {
    T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
  }
}
