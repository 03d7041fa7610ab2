import CloudScrubCore

/// CRC-32 in its two reflected forms, each starting from and finally XORed with
/// 0xFFFFFFFF: IEEE 802.3 (polynomial 0xEDB88320, as zlib, PNG, `cksum -a crc32b` and
/// `.csrec` chunks compute it) and Castagnoli's CRC-32C (0x82F63B78, as E57 pages carry
/// it: the CRC of "123456789" is 0xE3069283).
///
/// The table-driven loop handles eight bytes a step ("slicing by 8"), which keeps
/// checking a multi-megabyte colour frame to a few milliseconds.
public struct CRC32: Sendable {
  /// Which polynomial.
  public enum Polynomial: Sendable {
    case ieee
    case castagnoli
  }

  private var state: UInt32 = 0xFFFF_FFFF
  private let polynomial: Polynomial

  public init(_ polynomial: Polynomial = .ieee) {
    self.polynomial = polynomial
  }

  /// The checksum of everything passed to `update` so far.
  public var value: UInt32 { state ^ 0xFFFF_FFFF }

  /// The checksum of `bytes` alone.
  public static func checksum(_ bytes: UnsafeRawBufferPointer, _ polynomial: Polynomial = .ieee)
    -> UInt32
  {
    var crc = CRC32(polynomial)
    crc.update(bytes)
    return crc.value
  }

  public static func checksum(_ bytes: [UInt8], _ polynomial: Polynomial = .ieee) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0, polynomial) }
  }

  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var crc = state
    var offset = 0
    let count = bytes.count
    let tables = polynomial == .ieee ? CRC32.ieeeTables : CRC32.castagnoliTables
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
    state = crc
  }

  private static let ieeeTables = tables(reflectedPolynomial: 0xEDB8_8320)
  private static let castagnoliTables = tables(reflectedPolynomial: 0x82F6_3B78)

  /// Table k holds the CRC of a byte followed by k zero bytes, so that eight bytes can be
  /// folded in with eight independent look-ups.
  private static func tables(reflectedPolynomial: UInt32) -> [UInt32] {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? reflectedPolynomial ^ (c >> 1) : c >> 1 }
      t[n] = c
    }
    for k in 1..<8 {
      for n in 0..<256 {
        let previous = t[(k - 1) * 256 + n]
        t[k * 256 + n] = t[Int(previous & 0xFF)] ^ (previous >> 8)
      }
    }
    return t
  }
}
