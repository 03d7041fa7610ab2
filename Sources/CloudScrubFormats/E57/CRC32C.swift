/// CRC-32C (Castagnoli) as E57 pages carry it: the reflected polynomial 0x82F63B78,
/// starting from and finally XORed with 0xFFFFFFFF (the CRC of "123456789" is
/// 0xE3069283).
///
/// Eight bytes a step ("slicing by 8"), so that checking every page of a file of
/// hundreds of megabytes costs a fraction of reading it.
enum CRC32C {
  /// The checksum of `bytes`.
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return 0 }
    var crc: UInt32 = 0xFFFF_FFFF
    var offset = 0
    let count = bytes.count
    tables.withUnsafeBufferPointer { t in
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
    return crc ^ 0xFFFF_FFFF
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }

  /// Eight tables of 256 entries: table k advances a byte followed by k zero bytes.
  private static let tables: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? 0x82F6_3B78 ^ (c >> 1) : c >> 1 }
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
