import CloudScrubCore
import Foundation

/// One scan of an E57 file as the reader found it.
public struct E57ScanInfo: Equatable, Sendable {
  /// The scan's position in `data3D`.
  public var index: Int
  public var name: String
  public var guid: String
  /// The scan's pose: its points' coordinates in the file's world frame.
  public var worldFromScan: Transform3D
  /// Records the scan declares, valid or not.
  public var recordCount: UInt64
  /// The points it gave the merged cloud (its valid records).
  public var pointRange: Range<Int>
  /// The prototype's fields, in stream order.
  public var fieldNames: [String]
}

/// What an E57 file holds: every scan's valid points merged into one cloud in the
/// file's world frame (each scan transformed by its pose), and each scan's details.
public struct E57Contents: Equatable, Sendable {
  public var cloud: PointCloud
  public var scans: [E57ScanInfo]
  /// The file's `guid`, and the software that wrote it (`e57LibraryVersion`), if given.
  public var guid: String
  public var writer: String
}

/// Reads E57 (ASTM E2807) point clouds: the 3D scans of `data3D`, with cartesian or
/// spherical coordinates stored as Float, ScaledInteger or Integer fields (bit-packed
/// as the standard describes), colour, intensity and the invalid-state flags. Images
/// (`images2D`) are not read.
///
/// Every page's CRC-32C is checked when the reader first touches it; each scan's
/// record count is checked against its section's size before anything is allocated;
/// the XML section is limited to `maximumXMLBytes` and 64 levels.
public enum E57Reader {
  /// The largest XML section read (a file of thousands of scans needs a few MB).
  public static let maximumXMLBytes: UInt64 = 64 << 20

  /// Whether `prefix` (a file's first bytes) starts with the E57 signature "ASTM-E57".
  public static func hasSignature(_ prefix: [UInt8]) -> Bool {
    prefix.starts(with: E57FileHeader.signature)
  }

  /// The merged cloud of the E57 file at `url`.
  ///
  /// - Throws: as `contents(of:)`.
  public static func read(url: URL) throws -> PointCloud {
    try contents(of: url.path).cloud
  }

  /// Everything the reader takes from the E57 file at `path`. Points whose
  /// `cartesianInvalidState` (or `sphericalInvalidState`) is not 0 are left out. The
  /// cloud has colours when any scan has them (grey, 128, for points without a valid
  /// colour), an "intensity" attribute (`Float`) when every scan has intensity,
  /// normals when every scan has `nor:normalX/Y/Z` (turned by each scan's pose), and
  /// an attribute for each `cloudscrub:NAME` field every scan has in the same type.
  ///
  /// `progress` is told the share of the scans' records decoded.
  ///
  /// - Throws: `FileError` when the file cannot be opened; `E57Error` naming what is
  ///   wrong and where: no signature, a damaged page (by number), malformed XML, a
  ///   missing or malformed element (by path), a scan without coordinates, a section or
  ///   packet that does not add up, a record count the section cannot hold.
  public static func contents(of path: String, progress: ProgressHandler? = nil) throws
    -> E57Contents
  {
    let file = try E57PagedFile(path: path)
    let root = try xmlRoot(file)
    let scans: [E57ScanLayout]
    do {
      scans = try E57ScanLayout.scans(of: root)
    } catch {
      throw E57Error(error, path: path)
    }
    let decoders = try scans.map { try E57PointDecoder(file: file, scan: $0) }
    var points = E57DecodedPoints()
    if decoders.contains(where: { $0.roles.colors != nil }) { points.colors = [] }
    let allHave = { (has: (E57PointDecoder) -> Bool) in
      !decoders.isEmpty && decoders.allSatisfy(has)
    }
    if allHave({ $0.roles.intensity != nil }) { points.intensity = [] }
    if allHave({ $0.roles.normals != nil }) { points.normals = [] }
    points.attributes = commonAttributes(
      decoders, taken: points.intensity == nil ? [] : ["intensity"])
    var infos: [E57ScanInfo] = []
    // Record counts are checked against their sections as each scan is decoded; the
    // share of the whole is worked out in floating point, which no count overflows.
    let records = decoders.reduce(0.0) { $0 + Double($1.scan.recordCount) }
    var steps = ProgressSteps(progress)
    var before = 0.0
    for decoder in decoders {
      let start = points.positions.count
      try decoder.decode(into: &points) {
        steps.update((before + Double($0)) / max(records, 1))
      }
      before += Double(decoder.scan.recordCount)
      let scan = decoder.scan
      infos.append(
        E57ScanInfo(
          index: scan.index, name: scan.name, guid: scan.guid, worldFromScan: scan.worldFromScan,
          recordCount: scan.recordCount, pointRange: start..<points.positions.count,
          fieldNames: scan.fields.map(\.name)))
    }
    return E57Contents(
      cloud: points.cloud, scans: infos, guid: root.child("guid")?.text ?? "",
      writer: root.child("e57LibraryVersion")?.text ?? "")
  }

  /// The attribute fields (`cloudscrub:NAME`) that every scan has, with the same
  /// scalar type, in the first scan's order; names in `taken` are left out.
  private static func commonAttributes(_ decoders: [E57PointDecoder], taken: Set<String>)
    -> [E57AttributeColumn]
  {
    guard let first = decoders.first else { return [] }
    func type(_ decoder: E57PointDecoder, _ name: String) -> ScalarType? {
      guard let field = decoder.roles.attributes.first(where: { $0.name == name })?.field else {
        return nil
      }
      return E57AttributeColumn.scalarType(of: decoder.scan.fields[field].encoding)
    }
    var seen = taken
    return first.roles.attributes.compactMap { attribute in
      guard !seen.contains(attribute.name), let kind = type(first, attribute.name),
        decoders.allSatisfy({ type($0, attribute.name) == kind })
      else { return nil }
      seen.insert(attribute.name)
      return E57AttributeColumn(name: attribute.name, type: kind)
    }
  }

  private static func xmlRoot(_ file: E57PagedFile) throws -> E57XMLElement {
    let header = file.header
    let length = header.xmlLogicalLength
    guard length <= maximumXMLBytes else {
      throw E57Error(.xmlTooLarge(bytes: length, limitBytes: maximumXMLBytes), path: file.path)
    }
    let start = try file.logicalOffset(ofPhysical: header.xmlPhysicalOffset, what: "XML section")
    let bytes = try file.bytes(logical: start, count: Int(length), what: "the XML section")
    do {
      return try E57XMLParser.parse(bytes)
    } catch {
      throw E57Error(error, path: file.path)
    }
  }
}
