import CloudScrubCore
import Foundation

extension LASReader {
  /// What a LAS or LAZ file's header and VLRs say, without a point read: how `info`
  /// describes a file too large to read whole in a moment.
  public struct Summary: Sendable {
    public var header: Header
    /// The bounds the header states (its minimum and maximum x, y and z), as the file's
    /// writer computed them.
    public var bounds: (min: SIMD3<Double>, max: SIMD3<Double>)
    /// No points, but the colours, normals and attributes the points would carry when
    /// read: colour where the point format has it, intensity, and the extra-bytes
    /// fields (`normal_x`…`normal_z` as normals).
    public var shape: PointCloud
    /// What the reader noticed (records missing from a LAS file, VLRs that do not fit).
    public var notes: [String]
  }

  /// The summary of the LAS or LAZ file at `path`, from its header and VLRs. A LAS
  /// file's point count is that of its complete records, as `read` counts them; a LAZ
  /// file's is the header's.
  ///
  /// - Throws: `LASError` for a header or VLRs that cannot be read; `FileError` when
  ///   the file cannot be opened.
  public static func summary(path: String) throws -> Summary {
    let file = try MappedFile(path: path)
    do {
      return try summary(bytes: file.bytes)
    } catch {
      throw LASError(error, path: path)
    }
  }

  static func summary(bytes: UnsafeRawBufferPointer) throws(LASErrorReason) -> Summary {
    let opened = try open(bytes)
    var header = opened.header
    var notes = opened.vlrs.notes
    if !header.compressed {
      let complete = complete(bytes, opened: opened)
      header.points = complete.records.count / header.recordLength
      notes = complete.notes
    }
    var low = SIMD3<Double>()
    var high = SIMD3<Double>()
    for axis in 0..<3 {
      // Maximum x at byte 179, minimum x at 187, then y and z.
      let at = 179 + 16 * axis
      high[axis] = Double(bitPattern: bytes.littleEndian(at: at, as: UInt64.self))
      low[axis] = Double(bitPattern: bytes.littleEndian(at: at + 8, as: UInt64.self))
    }
    var shape = PointCloud()
    if colorOffsets[header.pointFormat] != nil { shape.colors = [] }
    let extras = opened.vlrs.extraFields(
      startingAt: recordSizes[header.pointFormat], recordLength: header.recordLength)
    LASExtraField.attach(
      extras, records: UnsafeRawBufferPointer(start: nil, count: 0), points: 0,
      length: header.recordLength, &shape)
    if shape.attribute(named: "intensity") == nil {
      shape.attributes.insert(PointAttribute(name: "intensity", values: .uint16([])), at: 0)
    }
    return Summary(header: header, bounds: (low, high), shape: shape, notes: notes)
  }
}
