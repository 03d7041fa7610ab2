import CloudScrubCore

/// Builds a LAS file's cloud from its point records as they come, a batch at a time (a
/// LAZ file's chunks are decoded a few million points at once), so that the whole
/// file's records are never held at once: only what the cloud keeps of each record,
/// and until the end its 16-bit colours and its extra bytes.
///
/// The cloud is the one `LASReader` describes: positions scaled and offset, then
/// rounded once to `Float`; colours brought to 8 bits (shifted by 8 unless no value is
/// above 255, which only the last batch settles); intensity as an attribute when any
/// point has one; the extra-bytes fields as attributes or normals.
struct LASCloudBuilder {
  let header: LASReader.Header
  private let colorOffset: Int?
  /// Where the extra bytes start in a record, how many there are, and their fields
  /// with offsets from that start.
  private let extrasStart: Int
  private let extrasLength: Int
  private let extras: [LASExtraField]
  private var positions: [Point3] = []
  private var colors: [UInt16] = []
  private var highestColor: UInt16 = 0
  private var intensity: [UInt16] = []
  private var anyIntensity = false
  private var extraBytes: [UInt8] = []

  /// - Parameter expectedPoints: the points to come, for the arrays' capacity.
  init(header: LASReader.Header, vlrs: LASVariableRecords, expectedPoints: Int) {
    self.header = header
    colorOffset = LASReader.colorOffsets[header.pointFormat]
    let start = LASReader.recordSizes[header.pointFormat]
    extrasStart = start
    let fields = vlrs.extraFields(startingAt: start, recordLength: header.recordLength)
    extras = fields.map { field in
      var moved = field
      moved.offset -= start
      return moved
    }
    extrasLength = fields.isEmpty ? 0 : header.recordLength - start
    positions.reserveCapacity(expectedPoints)
    intensity.reserveCapacity(expectedPoints)
    if colorOffset != nil { colors.reserveCapacity(3 * expectedPoints) }
    extraBytes.reserveCapacity(extrasLength * expectedPoints)
  }

  /// Takes `points` records of `header.recordLength` bytes from `records`.
  mutating func append(_ records: UnsafeRawBufferPointer, points: Int) {
    let length = header.recordLength
    positions += LASReader.positions(records, points: points, header: header)
    let values = LASReader.intensities(records, points: points, length: length)
    anyIntensity = anyIntensity || values.contains { $0 != 0 }
    intensity += values
    if let colorOffset {
      for index in 0..<points {
        for channel in 0..<3 {
          let value = records.littleEndian(
            at: index * length + colorOffset + 2 * channel, as: UInt16.self)
          highestColor = max(highestColor, value)
          colors.append(value)
        }
      }
    }
    if extrasLength > 0 {
      for index in 0..<points {
        let at = index * length + extrasStart
        extraBytes += UnsafeRawBufferPointer(rebasing: records[at..<(at + extrasLength)])
      }
    }
  }

  /// The cloud of every record taken.
  consuming func finish() -> PointCloud {
    var cloud = PointCloud()
    let points = positions.count
    cloud.positions = positions
    positions = []
    if colorOffset != nil {
      let shift: UInt16 = highestColor > 255 ? 8 : 0
      cloud.colors = (0..<points).map { index in
        RGB8(
          UInt8(truncatingIfNeeded: colors[3 * index] >> shift),
          UInt8(truncatingIfNeeded: colors[3 * index + 1] >> shift),
          UInt8(truncatingIfNeeded: colors[3 * index + 2] >> shift))
      }
      colors = []
    }
    extraBytes.withUnsafeBytes { bytes in
      LASExtraField.attach(extras, records: bytes, points: points, length: extrasLength, &cloud)
    }
    // Intensity as an attribute when any point has one, so a scan without colour opens
    // in greys by intensity.
    if anyIntensity, cloud.attribute(named: "intensity") == nil {
      cloud.attributes.insert(PointAttribute(name: "intensity", values: .uint16(intensity)), at: 0)
    }
    return cloud
  }
}
