/// CRC-32 as zlib, PNG and `cksum -a crc32b` compute it: the reflected IEEE 802.3
/// polynomial 0xEDB88320, starting from and finally XORed with 0xFFFFFFFF.
///
/// The table-driven loop handles eight bytes a step ("slicing by 8"), which keeps
/// checking a multi-megabyte colour frame to a few milliseconds.
struct CRC32: Sendable {
  private var state: UInt32 = 0xFFFF_FFFF

  init() {}

  /// The checksum of everything passed to `update` so far.
  var value: UInt32 { state ^ 0xFFFF_FFFF }

  /// The checksum of `bytes` alone.
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }

  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var crc = state
    var offset = 0
    let count = bytes.count
    CRC32.tables.withUnsafeBufferPointer { t in
      while count - offset >= 8 {
        let low =
          UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ crc
        let high = UInt32(
          littleEndian: base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
        offset += 8
      }
      while offset < count {
        let byte = base.load(fromByteOffset: offset, as: UInt8.self)
        crc = t[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        offset += 1
      }
    }
    state = crc
  }

  /// Table k holds the CRC of a byte followed by k zero bytes, so that eight bytes can be
  /// folded in with eight independent look-ups.
  private static let tables: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      t[n] = c
    }
    for k in 1..<8 {
      for n in 0..<256 {
        let previous = t[(k - 1) * 256 + n]
        t[k * 256 + n] = t[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return t
  }()
}
