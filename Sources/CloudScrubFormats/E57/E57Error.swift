import CloudScrubCore

/// An E57 file that cannot be read: what is wrong and where, with the file's path last.
public typealias E57Error = InputFileError<E57ErrorReason>

/// What is wrong with an E57 file, without the path (thrown bare inside the reader,
/// wrapped in `E57Error` with the path before it leaves).
public enum E57ErrorReason: Error, Equatable, Sendable {
  /// The file does not start with the signature "ASTM-E57".
  case notE57
  /// The file is shorter than what `what` needs.
  case truncated(what: String, neededBytes: UInt64, fileBytes: UInt64)
  /// The header's major version is not 1.
  case unsupportedVersion(major: UInt32, minor: UInt32)
  /// The header's page size is not 1024 bytes.
  case unsupportedPageSize(UInt64)
  /// The header's physical length differs from the file's size.
  case lengthMismatch(declaredBytes: UInt64, fileBytes: UInt64)
  /// A page's CRC-32C (its last 4 bytes, big-endian) does not match its 1020 bytes.
  case checksumMismatch(page: Int, stored: UInt32, computed: UInt32)
  /// `what` points outside the file, or into a page's checksum.
  case badOffset(what: String, offset: UInt64)
  /// The XML section is larger than the reader accepts.
  case xmlTooLarge(bytes: UInt64, limitBytes: UInt64)
  /// The XML nests deeper than the reader accepts.
  case xmlTooDeep(limit: Int)
  /// The XML is not well formed at this byte of the XML section.
  case xmlSyntax(byteOffset: Int, message: String)
  /// An element the reader needs is missing (`path` as "/e57Root/data3D/0/points").
  case missingElement(path: String)
  /// An element holds something the reader cannot use.
  case badElement(path: String, message: String)
  /// A scan's compressed-vector section is malformed.
  case badSection(scan: Int, message: String)
  /// A packet of a scan's points is malformed.
  case badPacket(scan: Int, logicalOffset: UInt64, message: String)
  /// A scan declares more records than its section's bytes can hold.
  case implausibleRecordCount(scan: Int, recordCount: UInt64, limit: UInt64)
  /// A scan has neither cartesian nor spherical coordinates.
  case noCoordinates(scan: Int, fields: [String])
}

extension E57ErrorReason: CustomStringConvertible {
  /// What went wrong, without the path.
  public var description: String {
    switch self {
    case .notE57:
      return "not an E57 file (no 'ASTM-E57' signature)"
    case .truncated(let what, let needed, let size):
      return "E57 file too short for \(what): needs \(needed) bytes, has \(size)"
    case .unsupportedVersion(let major, let minor):
      return "E57 version \(major).\(minor) is not supported (only 1.x)"
    case .unsupportedPageSize(let size):
      return "E57 page size \(size) is not supported (only 1024)"
    case .lengthMismatch(let declared, let size):
      return "E57 header says the file has \(declared) bytes, it has \(size)"
    case .checksumMismatch(let page, let stored, let computed):
      return "E57 page \(page) (bytes \(page * 1024)-\(page * 1024 + 1023)) has checksum "
        + "\(hex(stored)), its contents give \(hex(computed)): the file is damaged"
    case .badOffset(let what, let offset):
      return "E57 \(what) at offset \(offset) is outside the file or inside a page checksum"
    case .xmlTooLarge(let bytes, let limit):
      return "E57 XML section of \(bytes) bytes is larger than the limit \(limit)"
    case .xmlTooDeep(let limit):
      return "E57 XML nests deeper than \(limit) elements"
    case .xmlSyntax(let offset, let message):
      return "E57 XML malformed at byte \(offset) of the XML section: \(message)"
    case .missingElement(let path):
      return "E57 XML has no \(path)"
    case .badElement(let path, let message):
      return "E57 XML \(path): \(message)"
    case .badSection(let scan, let message):
      return "E57 scan \(scan): points section \(message)"
    case .badPacket(let scan, let offset, let message):
      return "E57 scan \(scan): packet at logical offset \(offset): \(message)"
    case .implausibleRecordCount(let scan, let count, let limit):
      return "E57 scan \(scan) declares \(count) points, its section can hold at most \(limit)"
    case .noCoordinates(let scan, let fields):
      return "E57 scan \(scan) has no cartesianX/Y/Z or sphericalRange/Azimuth/Elevation "
        + "fields (it has: \(fields.joined(separator: ", ")))"
    }
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}
