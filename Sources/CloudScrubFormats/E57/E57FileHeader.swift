/// The 48-byte header at the start of every E57 file (ASTM E2807 §8.2), little-endian:
/// signature "ASTM-E57", major and minor version (UInt32), the file's physical length,
/// the XML section's physical offset and logical length, and the page size (UInt64).
///
/// Offsets called physical count every byte of the file; logical offsets skip the
/// 4-byte checksum that ends each 1024-byte page (`E57Pages`).
struct E57FileHeader: Equatable, Sendable {
  static let signature: [UInt8] = Array("ASTM-E57".utf8)
  static let byteCount = 48

  var majorVersion: UInt32 = 1
  var minorVersion: UInt32 = 0
  var physicalLength: UInt64
  var xmlPhysicalOffset: UInt64
  var xmlLogicalLength: UInt64
  var pageSize: UInt64 = UInt64(E57Pages.pageSize)

  /// The header's 48 bytes.
  var bytes: [UInt8] {
    var out = Self.signature
    out.reserveCapacity(Self.byteCount)
    appendLittleEndian(majorVersion, to: &out)
    appendLittleEndian(minorVersion, to: &out)
    for value in [physicalLength, xmlPhysicalOffset, xmlLogicalLength, pageSize] {
      appendLittleEndian(value, to: &out)
    }
    return out
  }

  /// Reads a header from the first 48 logical bytes of a file.
  ///
  /// - Throws: `E57ErrorReason.notE57` without the signature, `.unsupportedVersion`,
  ///   `.unsupportedPageSize`.
  init(bytes: [UInt8]) throws(E57ErrorReason) {
    guard bytes.count >= Self.byteCount, bytes.starts(with: Self.signature) else {
      throw .notE57
    }
    func word(_ offset: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
    func long(_ offset: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
    majorVersion = word(8)
    minorVersion = word(12)
    physicalLength = long(16)
    xmlPhysicalOffset = long(24)
    xmlLogicalLength = long(32)
    pageSize = long(40)
    guard majorVersion == 1 else {
      throw .unsupportedVersion(major: majorVersion, minor: minorVersion)
    }
    guard pageSize == UInt64(E57Pages.pageSize) else { throw .unsupportedPageSize(pageSize) }
  }

  init(physicalLength: UInt64, xmlPhysicalOffset: UInt64, xmlLogicalLength: UInt64) {
    self.physicalLength = physicalLength
    self.xmlPhysicalOffset = xmlPhysicalOffset
    self.xmlLogicalLength = xmlLogicalLength
  }
}

/// Appends `value`'s bytes, least significant first.
func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
  withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
}

/// The page arithmetic of E57: 1024-byte pages, each 1020 bytes of content then the
/// CRC-32C of those bytes, big-endian (as libE57Format writes and checks it).
enum E57Pages {
  static let pageSize = 1024
  static let payloadSize = 1020

  /// The physical offset of logical byte `logical`.
  static func physical(_ logical: UInt64) -> UInt64 {
    logical / UInt64(payloadSize) * UInt64(pageSize) + logical % UInt64(payloadSize)
  }

  /// The logical offset of physical byte `physical`, or nil when it lies in a checksum.
  static func logical(_ physical: UInt64) -> UInt64? {
    let within = physical % UInt64(pageSize)
    guard within < UInt64(payloadSize) else { return nil }
    return physical / UInt64(pageSize) * UInt64(payloadSize) + within
  }
}
