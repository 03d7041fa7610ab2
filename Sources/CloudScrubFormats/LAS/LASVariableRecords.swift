import CloudScrubCore

/// The variable-length records between a LAS header and its points that the reader
/// uses: the extra-bytes descriptors, CloudScrub's provenance, LASzip's parameters, COPC's
/// info.
struct LASVariableRecords {
  /// `LASF_Spec` record 4: one 192-byte descriptor an extra field.
  var extraBytes: [UInt8] = []
  var provenance: String?
  /// The payload of a `laszip encoded` VLR: the points are compressed.
  var laszip: [UInt8]?
  /// The payload of a `copc` info VLR: the file is a cloud-optimised point cloud.
  var copcInfo: [UInt8]?
  /// What the reader noticed (VLRs that do not fit).
  var notes: [String] = []

  /// Reads `count` VLRs from `start`, each checked to end before `end` (the points).
  /// Those that do not fit are left out, with a note, as PDAL and laspy do: the points
  /// are still read from their offset.
  init(_ bytes: UnsafeRawBufferPointer, from start: Int, count: Int, end: Int) {
    var at = start
    let limit = min(end, bytes.count)
    for index in 0..<count {
      guard at + 54 <= limit else {
        notes.append(Self.unread(count: count, read: index, end: limit))
        break
      }
      let user = String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 2)..<(at + 18)]).prefix { $0 != 0 },
        as: UTF8.self)
      let record = bytes.littleEndian(at: at + 18, as: UInt16.self)
      let length = Int(bytes.littleEndian(at: at + 20, as: UInt16.self))
      let payload = at + 54
      guard payload + length <= limit else {
        notes.append(Self.unread(count: count, read: index, end: limit))
        break
      }
      let content = Array(UnsafeRawBufferPointer(rebasing: bytes[payload..<(payload + length)]))
      switch (user, record) {
      case ("LASF_Spec", 4): extraBytes = content
      case ("CloudScrub", 1): provenance = String(decoding: content, as: UTF8.self)
      case ("laszip encoded", 22204): laszip = content
      case ("copc", 1): copcInfo = content
      default: break
      }
      at = payload + length
    }
  }

  private static func unread(count: Int, read: Int, end: Int) -> String {
    "the header lists \(count) variable-length records, \(read) fit before byte \(end) "
      + "(the points); the rest are not read"
  }

  /// The extra fields the descriptors name, from byte `start` of each record; fields
  /// past `recordLength`, or after one whose size is unknown, are left out.
  func extraFields(startingAt start: Int, recordLength: Int) -> [LASExtraField] {
    var fields: [LASExtraField] = []
    var offset = start
    var at = 0
    while at + 192 <= extraBytes.count {
      let type = Int(extraBytes[at + 2])
      let options = extraBytes[at + 3]
      let name = String(
        decoding: extraBytes[(at + 4)..<(at + 36)].prefix { $0 != 0 }, as: UTF8.self)
      let sizes = [0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8]
      let size = type == 0 ? Int(options) : (type < sizes.count ? sizes[type] : 0)
      guard size > 0, offset + size <= recordLength else { break }
      func double(_ base: Int) -> Double {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(extraBytes[at + base + k]) << (8 * k) }
        return Double(bitPattern: bits)
      }
      if type != 0 {
        fields.append(
          LASExtraField(
            name: name.isEmpty ? "extra_\(fields.count)" : name, type: type, offset: offset,
            scale: options & 0x08 != 0 ? double(112) : nil,
            offset0: options & 0x10 != 0 ? double(136) : nil))
      }
      offset += size
      at += 192
    }
    return fields
  }
}

/// One extra-bytes field of a LAS record.
struct LASExtraField {
  var name: String
  /// The LAS 1.4 data type (1 uchar … 10 double).
  var type: Int
  var offset: Int
  var scale: Double?
  var offset0: Double?

  /// Adds the fields to `cloud`: three `normal_*` floats as normals, the rest as
  /// attributes in their own type (scaled ones, and 64-bit integers, as double).
  static func attach(
    _ fields: [LASExtraField], records: UnsafeRawBufferPointer, points: Int, length: Int,
    _ cloud: inout PointCloud
  ) {
    var rest = fields
    let normalNames = ["normal_x", "normal_y", "normal_z"]
    let normals = normalNames.compactMap { name in fields.first { $0.name == name } }
    if normals.count == 3 {
      let n = normals.map { field in (0..<points).map { Float(field.double(records, $0, length)) } }
      cloud.normals = (0..<points).map { Point3(n[0][$0], n[1][$0], n[2][$0]) }
      rest.removeAll { normalNames.contains($0.name) }
    }
    for field in rest where cloud.attribute(named: field.name) == nil {
      cloud.attributes.append(
        PointAttribute(name: field.name, values: field.values(records, points, length)))
    }
  }

  func raw<T: FixedWidthInteger>(_ records: UnsafeRawBufferPointer, _ i: Int, _ length: Int)
    -> T
  {
    records.littleEndian(at: i * length + offset, as: T.self)
  }

  func double(_ records: UnsafeRawBufferPointer, _ i: Int, _ length: Int) -> Double {
    let value: Double
    switch type {
    case 1: value = Double(raw(records, i, length) as UInt8)
    case 2: value = Double(raw(records, i, length) as Int8)
    case 3: value = Double(raw(records, i, length) as UInt16)
    case 4: value = Double(raw(records, i, length) as Int16)
    case 5: value = Double(raw(records, i, length) as UInt32)
    case 6: value = Double(raw(records, i, length) as Int32)
    case 7: value = Double(raw(records, i, length) as UInt64)
    case 8: value = Double(raw(records, i, length) as Int64)
    case 9: value = Double(Float(bitPattern: raw(records, i, length) as UInt32))
    default: value = Double(bitPattern: raw(records, i, length) as UInt64)
    }
    return value * (scale ?? 1) + (offset0 ?? 0)
  }

  func values(_ records: UnsafeRawBufferPointer, _ points: Int, _ length: Int)
    -> AttributeValues
  {
    let all = 0..<points
    if scale != nil || offset0 != nil || type == 7 || type == 8 || type == 10 {
      return .float64(all.map { double(records, $0, length) })
    }
    switch type {
    case 1: return .uint8(all.map { raw(records, $0, length) })
    case 2: return .int8(all.map { raw(records, $0, length) })
    case 3: return .uint16(all.map { raw(records, $0, length) })
    case 4: return .int16(all.map { raw(records, $0, length) })
    case 5: return .uint32(all.map { raw(records, $0, length) })
    case 6: return .int32(all.map { raw(records, $0, length) })
    default:
      return .float32(all.map { Float(bitPattern: raw(records, $0, length) as UInt32) })
    }
  }
}
