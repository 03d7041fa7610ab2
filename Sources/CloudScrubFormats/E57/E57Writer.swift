import CloudScrubCore
import Foundation

/// Writes E57 (ASTM E2807) files by hand: the 48-byte header, one compressed-vector
/// section per scan, then the XML section, in 1024-byte pages each ending with its
/// CRC-32C, through `AtomicFileWriter`.
///
/// Each scan's points are stored as single-precision floats (`cartesianX/Y/Z`, the
/// precision `PointCloud` holds) and, when the scan has colours, 8-bit integers
/// (`colorRed/Green/Blue`, 0–255); normals as the libE57 normals extension
/// (`nor:normalX/Y/Z`, as CloudCompare writes them), each attribute (confidence,
/// frame, …) as a `cloudscrub:NAME` field in its own type (`E57PointFields`), and a
/// `cartesianInvalidState` that is 0 for every point and takes no bytes. Points with a
/// non-finite coordinate are left out. No index packets and no images. The output is
/// deterministic: the GUIDs are derived from the content.
public enum E57Writer {
  /// The most bytes a data packet takes (the standard's limit is 64 KiB).
  static let maximumPacketBytes = 1 << 16

  /// Writes `cloud` (its colours, normals and attributes) as one scan at the identity
  /// pose.
  ///
  /// - Parameter inputs: files being read, which the output must not replace.
  /// - Throws: `FileError` when the file cannot be written (the target is untouched).
  public static func write(
    cloud: PointCloud, provenance: E57Provenance, to url: URL, protecting inputs: [String] = []
  ) throws {
    try write(
      scans: [E57Scan(name: "scan 0", cloud: cloud)], provenance: provenance, to: url,
      protecting: inputs)
  }

  /// Writes `scans`, each with its pose, in order.
  ///
  /// - Throws: `FileError` when the file cannot be written, a pose is not rigid (a
  ///   rotation and a translation) or an attribute's name is no XML name; the target is
  ///   then untouched.
  public static func write(
    scans: [E57Scan], provenance: E57Provenance, to url: URL, protecting inputs: [String] = []
  ) throws {
    let path = url.path
    let finite = scans.map { finitePoints(of: $0.cloud) }
    let guid = contentGUID(scans: finite, names: scans.map(\.name), provenance: provenance)
    var entries: [E57XMLWriter.ScanEntry] = []
    var logical = UInt64(E57FileHeader.byteCount)
    for (index, scan) in scans.enumerated() {
      guard let rotation = rigidRotation(scan.worldFromScan) else {
        throw FileError(
          .cannotWrite("scan \(index)'s pose is not a rotation and a translation"), path: path)
      }
      let cloud = finite[index]
      let fields = try E57PointFields(cloud, path: path)
      entries.append(
        E57XMLWriter.ScanEntry(
          guid: derivedGUID(guid, index: index), name: scan.name,
          worldFromScan: (rotation, scan.worldFromScan.translation), bounds: cloud.bounds,
          fields: fields, sectionPhysicalOffset: E57Pages.physical(logical),
          recordCount: cloud.count))
      logical += sectionLength(count: cloud.count, fields: fields)
    }
    let xml = E57XMLWriter(guid: guid, provenance: provenance, scans: entries).bytes
    let xmlLogical = logical
    let end = xmlLogical + UInt64(xml.count)
    let pages = (end + UInt64(E57Pages.payloadSize) - 1) / UInt64(E57Pages.payloadSize)
    let header = E57FileHeader(
      physicalLength: pages * UInt64(E57Pages.pageSize),
      xmlPhysicalOffset: E57Pages.physical(xmlLogical), xmlLogicalLength: UInt64(xml.count))

    let output = try AtomicFileWriter(path: path, protecting: inputs)
    var pagesOut = E57PageWriter(output: output)
    try pagesOut.write(header.bytes)
    for (index, cloud) in finite.enumerated() {
      try writeSection(cloud, entry: entries[index], to: &pagesOut)
    }
    assert(pagesOut.logicalOffset == xmlLogical, "the planned layout matches what was written")
    try pagesOut.write(xml)
    try pagesOut.finish()
    try output.commit()
  }

  // MARK: - Sections

  /// Records a data packet holds: as many as fit in 64 KiB with the header and the
  /// stream lengths.
  static func recordsPerPacket(_ fields: E57PointFields) -> Int {
    (maximumPacketBytes - 6 - 2 * fields.streams.count) / fields.recordBytes
  }

  private static func packetLength(records: Int, fields: E57PointFields) -> Int {
    let header = 6 + 2 * fields.streams.count
    return (header + records * fields.recordBytes + 3) / 4 * 4
  }

  private static func sectionLength(count: Int, fields: E57PointFields) -> UInt64 {
    let perPacket = recordsPerPacket(fields)
    let full = count / perPacket
    let rest = count % perPacket
    var length = 32 + full * packetLength(records: perPacket, fields: fields)
    if rest > 0 { length += packetLength(records: rest, fields: fields) }
    return UInt64(length)
  }

  private static func writeSection(
    _ cloud: PointCloud, entry: E57XMLWriter.ScanEntry, to out: inout E57PageWriter
  ) throws {
    let fields = entry.fields
    let start = out.logicalOffset
    let length = sectionLength(count: cloud.count, fields: fields)
    var header: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
    appendLittleEndian(length, to: &header)
    appendLittleEndian(cloud.count > 0 ? E57Pages.physical(start + 32) : 0, to: &header)
    appendLittleEndian(UInt64(0), to: &header)
    try out.write(header)

    let perPacket = recordsPerPacket(fields)
    var packet = [UInt8](repeating: 0, count: maximumPacketBytes)
    var first = 0
    while first < cloud.count {
      let records = min(perPacket, cloud.count - first)
      let size = packetLength(records: records, fields: fields)
      encodePacket(cloud, fields: fields, first: first, records: records, size: size, into: &packet)
      try packet.withUnsafeBytes { try out.write(UnsafeRawBufferPointer(rebasing: $0[0..<size])) }
      first += records
    }
    assert(out.logicalOffset - start == length, "the section has its planned length")
  }

  /// One data packet: header, stream lengths, then each stream's values in the
  /// prototype's order (`E57PointFields`), zero padding to a multiple of 4.
  private static func encodePacket(
    _ cloud: PointCloud, fields: E57PointFields, first: Int, records: Int, size: Int,
    into packet: inout [UInt8]
  ) {
    let streams = fields.streams
    packet.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      func put16(_ value: Int, at offset: Int) {
        base.storeBytes(of: UInt16(value).littleEndian, toByteOffset: offset, as: UInt16.self)
      }
      base.storeBytes(of: 1, toByteOffset: 0, as: UInt8.self)
      base.storeBytes(of: 0, toByteOffset: 1, as: UInt8.self)
      put16(size - 1, at: 2)
      put16(streams.count, at: 4)
      for (index, stream) in streams.enumerated() {
        put16(records * fields.bytes(of: stream), at: 6 + 2 * index)
      }
      var offset = 6 + 2 * streams.count
      for stream in streams {
        fields.encode(stream, of: cloud, first: first, records: records, to: base + offset)
        offset += records * fields.bytes(of: stream)
      }
      while offset < size {
        base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
        offset += 1
      }
    }
  }

  // MARK: - Content

  /// The cloud without points that have a non-finite coordinate (E57 readers check
  /// floats against their bounds), every field kept.
  private static func finitePoints(of cloud: PointCloud) -> PointCloud {
    let isFinite: (Point3) -> Bool = { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    guard !cloud.positions.allSatisfy(isFinite) else { return cloud }
    return cloud.subset(indices: cloud.positions.indices.filter { isFinite(cloud.positions[$0]) })
  }
  /// The unit quaternion (x, y, z, w) of a rigid transform's rotation, or nil when the
  /// upper 3 × 3 block is no rotation (checked to 1e-6 after the round trip).
  static func rigidRotation(_ transform: Transform3D) -> SIMD4<Double>? {
    let m = transform
    let trace = m[0, 0] + m[1, 1] + m[2, 2]
    var q: SIMD4<Double>
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      q = SIMD4((m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4)
    } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
      let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
      q = SIMD4(s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s)
    } else if m[1, 1] > m[2, 2] {
      let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
      q = SIMD4((m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s)
    } else {
      let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
      q = SIMD4((m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s)
    }
    guard q.x.isFinite, q.y.isFinite, q.z.isFinite, q.w.isFinite else { return nil }
    if q.w < 0 { q = -q }
    let back = Transform3D(quaternion: q, translation: transform.translation)
    for row in 0..<4 {
      for column in 0..<4 where abs(back[row, column] - m[row, column]) > 1e-6 { return nil }
    }
    return q / (q * q).sum().squareRoot()
  }

  /// A GUID ("{8-4-4-4-12}" hex) from the content: the same scans and provenance
  /// always give the same file.
  private static func contentGUID(
    scans: [PointCloud], names: [String], provenance: E57Provenance
  ) -> String {
    var text = provenance.software + "\u{0}" + provenance.description
    for entry in provenance.entries { text += "\u{0}" + entry.name + "=" + entry.value }
    var low = fnv1a(Array(text.utf8), seed: 0xCBF2_9CE4_8422_2325)
    var high = fnv1a(Array(text.utf8), seed: 0x8422_2325_CBF2_9CE4)
    for (index, cloud) in scans.enumerated() {
      let positions = cloud.positions.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }
      let colors = cloud.colors.map { $0.withUnsafeBytes { CRC32.checksum($0, .castagnoli) } } ?? 0
      var summary: [UInt8] = Array(names[index].utf8)
      appendLittleEndian(UInt64(cloud.count), to: &summary)
      appendLittleEndian(positions, to: &summary)
      appendLittleEndian(colors, to: &summary)
      // Normals and attributes count only where present, so a cloud of positions and
      // colours keeps the GUID it always had.
      if let normals = cloud.normals {
        appendLittleEndian(
          normals.withUnsafeBytes { CRC32.checksum($0, .castagnoli) }, to: &summary)
      }
      for attribute in cloud.attributes {
        summary += Array(attribute.name.utf8)
        appendLittleEndian(attribute.values.crc32C, to: &summary)
      }
      low = fnv1a(summary, seed: low)
      high = fnv1a(summary.reversed(), seed: high)
    }
    return guidText(low: low, high: high)
  }

  private static func derivedGUID(_ guid: String, index: Int) -> String {
    let bytes = Array((guid + "/\(index)").utf8)
    return guidText(
      low: fnv1a(bytes, seed: 0xCBF2_9CE4_8422_2325), high: fnv1a(bytes.reversed(), seed: 0x1234))
  }

  private static func fnv1a<S: Sequence<UInt8>>(_ bytes: S, seed: UInt64) -> UInt64 {
    bytes.reduce(seed) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
  }

  private static func guidText(low: UInt64, high: UInt64) -> String {
    func hex(_ value: UInt64, _ digits: Int) -> String {
      let text = String(value, radix: 16)
      return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
    let a = hex(high >> 32, 8)
    let b = hex((high >> 16) & 0xFFFF, 4)
    let c = hex(high & 0xFFFF, 4)
    let d = hex(low >> 48, 4)
    let e = hex(low & 0xFFFF_FFFF_FFFF, 12)
    return "{\(a)-\(b)-\(c)-\(d)-\(e)}"
  }
}
