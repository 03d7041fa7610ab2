import CloudScrubCore
import Foundation

/// Reads one scan's compressed-vector section into world positions (and colours,
/// intensity, normals and attributes when asked): section header, then data packets
/// (index and empty packets skipped), each holding one buffer per prototype field.
struct E57PointDecoder {
  /// What the scan's records give.
  struct Roles {
    var coordinates: [Int]
    var spherical: Bool
    var invalidState: Int?
    var colors: [Int]?
    var colorInvalid: Int?
    var intensity: Int?
    var intensityInvalid: Int?
    /// `nor:normalX/Y/Z` (the libE57 normals extension).
    var normals: [Int]?
    /// The `cloudscrub:NAME` fields, by name (without the prefix).
    var attributes: [(name: String, field: Int)]
  }

  let file: E57PagedFile
  let scan: E57ScanLayout
  let roles: Roles

  /// The roles of the scan's fields.
  ///
  /// - Throws: `E57Error.noCoordinates` when the scan has neither cartesian nor
  ///   spherical coordinates.
  init(file: E57PagedFile, scan: E57ScanLayout) throws {
    self.file = file
    self.scan = scan
    let cartesian = ["cartesianX", "cartesianY", "cartesianZ"].compactMap(scan.fieldIndex)
    let spherical = ["sphericalRange", "sphericalAzimuth", "sphericalElevation"]
      .compactMap(scan.fieldIndex)
    let colors = ["colorRed", "colorGreen", "colorBlue"].compactMap(scan.fieldIndex)
    let normals = ["X", "Y", "Z"].compactMap { scan.fieldIndex(scan.normalsPrefix + "normal" + $0) }
    let attributes = scan.fields.indices.compactMap { index -> (name: String, field: Int)? in
      let name = scan.fields[index].name
      guard name.hasPrefix(scan.attributePrefix) else { return nil }
      return (String(name.dropFirst(scan.attributePrefix.count)), index)
    }
    if cartesian.count == 3 {
      roles = Roles(
        coordinates: cartesian, spherical: false,
        invalidState: scan.fieldIndex("cartesianInvalidState"),
        colors: colors.count == 3 ? colors : nil, colorInvalid: scan.fieldIndex("isColorInvalid"),
        intensity: scan.fieldIndex("intensity"),
        intensityInvalid: scan.fieldIndex("isIntensityInvalid"),
        normals: normals.count == 3 ? normals : nil, attributes: attributes)
    } else if spherical.count == 3 {
      roles = Roles(
        coordinates: spherical, spherical: true,
        invalidState: scan.fieldIndex("sphericalInvalidState"),
        colors: colors.count == 3 ? colors : nil, colorInvalid: scan.fieldIndex("isColorInvalid"),
        intensity: scan.fieldIndex("intensity"),
        intensityInvalid: scan.fieldIndex("isIntensityInvalid"),
        normals: normals.count == 3 ? normals : nil, attributes: attributes)
    } else {
      throw E57Error(
        .noCoordinates(scan: scan.index, fields: scan.fields.map(\.name)), path: file.path)
    }
  }

  /// The attribute fields of this scan that `points` collects, by column: for each of
  /// `points.attributes`, this scan's field.
  private func attributeFields(_ points: E57DecodedPoints) -> [Int] {
    points.attributes.map { column in
      roles.attributes.first { $0.name == column.name }?.field ?? 0
    }
  }

  /// Appends the scan's valid points, in world coordinates, to `points`. Its colours
  /// get grey (128) for a point without a valid colour, its intensity 0 for a point
  /// without one; its normals (when `points` has them, and so this scan) are turned
  /// into world coordinates with the points; its attributes are those of
  /// `points.attributes`, which this scan has.
  ///
  /// `decoded` is told the scan's records decoded so far after each data packet.
  ///
  /// - Throws: `E57Error` for a malformed section or packet, a record count the
  ///   section cannot hold, or a damaged page.
  func decode(into points: inout E57DecodedPoints, decoded: (UInt64) -> Void = { _ in }) throws {
    let count = scan.recordCount
    guard count > 0 else { return }
    let (sectionEnd, dataStart) = try section()
    let limit = (sectionEnd - dataStart) * 8 / UInt64(max(scan.bitsPerRecord, 1))
    guard count <= limit else {
      throw E57Error(
        .implausibleRecordCount(scan: scan.index, recordCount: count, limit: limit), path: file.path
      )
    }
    points.reserve(Int(count))

    let attributeFields = attributeFields(points)
    var needed = roles.coordinates
    for index in [roles.invalidState, roles.colorInvalid, roles.intensity, roles.intensityInvalid] {
      if let index { needed.append(index) }
    }
    if let rgb = roles.colors { needed += rgb }
    if points.normals != nil, let normals = roles.normals { needed += normals }
    needed += attributeFields
    var decoders = scan.fields.map { E57StreamDecoder(encoding: $0.encoding, recordCount: count) }
    var packet = [UInt8](repeating: 0, count: 1 << 16)
    var position = dataStart
    var emitted: UInt64 = 0
    while emitted < count {
      guard needed.contains(where: { !decoders[$0].isComplete }) else {
        // Every stream is complete but a constant field: nothing more to read.
        break
      }
      guard position + 4 <= sectionEnd else {
        throw packetError(
          position, "the section ends after \(emitted) of \(count) points")
      }
      try file.read(logical: position, count: 4, into: &packet, what: "a packet header")
      let type = packet[0]
      let length = Int(UInt16(packet[2]) | UInt16(packet[3]) << 8) + 1
      guard position + UInt64(length) <= sectionEnd else {
        throw packetError(position, "its \(length) bytes run past the section's end")
      }
      switch type {
      case 1:
        try packet.withUnsafeMutableBytes { buffer in
          guard let base = buffer.baseAddress else { return }
          try file.read(logical: position, count: length, into: base, what: "a data packet")
        }
        try feed(packet: packet, length: length, at: position, into: &decoders, needed: needed)
      case 0, 2:
        break
      default:
        throw packetError(position, "unknown packet type \(type)")
      }
      position += UInt64(length)
      emitted += emit(
        &decoders, needed: needed, remaining: count - emitted, into: &points,
        attributeFields: attributeFields)
      decoded(emitted)
    }
    if emitted < count {
      emitted += emit(
        &decoders, needed: needed, remaining: count - emitted, into: &points,
        attributeFields: attributeFields)
    }
  }

  /// The section's logical end and its first data packet's logical offset.
  private func section() throws -> (end: UInt64, data: UInt64) {
    let start = try file.logicalOffset(
      ofPhysical: scan.sectionPhysicalOffset, what: "scan \(scan.index)'s points section")
    var header = [UInt8](repeating: 0, count: 32)
    try file.read(logical: start, count: 32, into: &header, what: "a points section header")
    guard header[0] == 1 else {
      throw E57Error(
        .badSection(scan: scan.index, message: "has section id \(header[0]), not 1"),
        path: file.path)
    }
    func long(_ offset: Int) -> UInt64 {
      (0..<8).reduce(0) { $0 | UInt64(header[offset + $1]) << (8 * $1) }
    }
    let length = long(8)
    let (end, overflow) = start.addingReportingOverflow(length)
    guard length >= 32, !overflow, end <= file.logicalLength else {
      throw E57Error(
        .badSection(scan: scan.index, message: "length \(length) runs outside the file"),
        path: file.path)
    }
    let data = try file.logicalOffset(
      ofPhysical: long(16), what: "scan \(scan.index)'s first data packet")
    guard data >= start + 32, data < end else {
      throw E57Error(
        .badSection(
          scan: scan.index, message: "first data packet at \(long(16)) lies outside the section"),
        path: file.path)
    }
    return (end, data)
  }

  private func feed(
    packet: [UInt8], length: Int, at position: UInt64, into decoders: inout [E57StreamDecoder],
    needed: [Int]
  ) throws {
    guard length >= 6 else { throw packetError(position, "a data packet shorter than its header") }
    let streams = Int(UInt16(packet[4]) | UInt16(packet[5]) << 8)
    guard streams == decoders.count else {
      throw packetError(
        position, "holds \(streams) byte streams, the prototype has \(decoders.count) fields")
    }
    var offset = 6 + 2 * streams
    guard offset <= length else {
      throw packetError(position, "its \(streams) stream lengths run past its end")
    }
    var starts: [Int] = []
    for stream in 0..<streams {
      let size = Int(UInt16(packet[6 + 2 * stream]) | UInt16(packet[7 + 2 * stream]) << 8)
      starts.append(offset)
      offset += size
    }
    guard offset <= length else {
      throw packetError(position, "its streams hold \(offset) bytes, more than its \(length)")
    }
    starts.append(offset)
    packet.withUnsafeBytes { buffer in
      for stream in needed {
        decoders[stream].feed(
          UnsafeRawBufferPointer(rebasing: buffer[starts[stream]..<starts[stream + 1]]))
      }
    }
  }

  /// Turns the records every needed stream has decoded into points; returns how many
  /// records it consumed.
  private func emit(
    _ decoders: inout [E57StreamDecoder], needed: [Int], remaining: UInt64,
    into points: inout E57DecodedPoints, attributeFields: [Int]
  ) -> UInt64 {
    // A constant field is always ready; with only constant fields, every record is.
    let ready = needed.reduce(Int(clamping: remaining)) { min($0, decoders[$1].available) }
    guard ready > 0 else { return 0 }
    append(ready, from: decoders, into: &points, attributeFields: attributeFields)
    for index in needed { decoders[index].take(ready) }
    return UInt64(ready)
  }

  private func append(
    _ ready: Int, from decoders: [E57StreamDecoder], into points: inout E57DecodedPoints,
    attributeFields: [Int]
  ) {
    let pose = scan.worldFromScan
    let a = decoders[roles.coordinates[0]]
    let b = decoders[roles.coordinates[1]]
    let c = decoders[roles.coordinates[2]]
    let limits = scan.colorLimits
    for k in 0..<ready {
      if let state = roles.invalidState, decoders[state].value(k) != 0 { continue }
      var local = SIMD3(a.value(k), b.value(k), c.value(k))
      if roles.spherical {
        let (range, azimuth, elevation) = (local.x, local.y, local.z)
        local = SIMD3(
          range * cos(elevation) * cos(azimuth), range * cos(elevation) * sin(azimuth),
          range * sin(elevation))
      }
      let world = pose.apply(to: local)
      points.positions.append(Point3(Float(world.x), Float(world.y), Float(world.z)))
      if points.normals != nil, let n = roles.normals {
        let turned = pose.rotate(
          SIMD3(decoders[n[0]].value(k), decoders[n[1]].value(k), decoders[n[2]].value(k)))
        points.normals?.append(Point3(Float(turned.x), Float(turned.y), Float(turned.z)))
      }
      for (column, field) in attributeFields.enumerated() {
        points.attributes[column].append(decoders[field].value(k))
      }
      if points.colors != nil {
        var color = RGB8(128, 128, 128)
        if let rgb = roles.colors, roles.colorInvalid.map({ decoders[$0].value(k) == 0 }) ?? true {
          func channel(_ i: Int) -> UInt8 {
            let unit =
              (decoders[rgb[i]].value(k) - limits[i].lowerBound)
              / (limits[i].upperBound - limits[i].lowerBound)
            // A Float colour field may hold NaN, which no clamp turns into a number.
            guard unit.isFinite else { return unit == .infinity ? 255 : 0 }
            return UInt8((min(max(unit, 0), 1) * 255).rounded())
          }
          color = RGB8(channel(0), channel(1), channel(2))
        }
        points.colors?.append(color)
      }
      if points.intensity != nil {
        var value: Float = 0
        if let index = roles.intensity,
          roles.intensityInvalid.map({ decoders[$0].value(k) == 0 }) ?? true
        {
          value = Float(decoders[index].value(k))
        }
        points.intensity?.append(value)
      }
    }
  }

  private func packetError(_ position: UInt64, _ message: String) -> E57Error {
    E57Error(
      .badPacket(scan: scan.index, logicalOffset: position, message: message), path: file.path)
  }
}
