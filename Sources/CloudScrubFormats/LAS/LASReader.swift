import CloudScrubCore
import Foundation

/// Reads uncompressed LAS 1.0–1.4 files, point data record formats 0–10: positions
/// (scaled and offset, then rounded once to `Float`), RGB where the format has it
/// (16-bit values brought to 8 bits; files that store 8-bit values in the 16-bit
/// fields are recognised by having none above 255), intensity as an `intensity`
/// attribute when any point has one, and the extra bytes described by a
/// `LASF_Spec` record 4 VLR as attributes (`normal_x`…`normal_z` as normals). LAZ files
/// read the same, their records decompressed a batch of chunks at a time (`LAZDecompressor`).
public enum LASReader {
  /// A LAS file's header, as `info` shows it.
  public struct Header: Equatable, Sendable {
    public var versionMajor: Int
    public var versionMinor: Int
    public var pointFormat: Int
    public var recordLength: Int
    public var points: Int
    public var scale: SIMD3<Double>
    public var offset: SIMD3<Double>
    public var software: String
    /// Whether the points are compressed (LAZ).
    public var compressed = false
    /// A COPC file's octree: levels and nodes with points.
    public var copc: LASCOPCHierarchy?
    /// The text of a `CloudScrub` provenance VLR, if any.
    public var provenance: String?
  }

  /// A LAS file read: its header and its points.
  public struct Document: Sendable {
    public var header: Header
    public var cloud: PointCloud
    /// What the reader noticed about the file (points missing, parts ignored).
    public var notes: [String] = []
  }

  /// The bytes of a record of each point format before any extra bytes.
  static let recordSizes = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67]
  /// Where RGB starts in the formats that have it.
  static let colorOffsets = [2: 20, 3: 28, 5: 28, 7: 30, 8: 30, 10: 30]

  /// Reads the LAS file at `path` through a memory map.
  ///
  /// - Throws: `LASError` naming what is wrong and where, with the path; `FileError`
  ///   when the file cannot be opened.
  /// - Parameters:
  ///   - keepingGoodChunks: for LAZ, read the chunks before a corrupt one (with a note)
  ///     instead of failing, as the window does.
  ///   - progress: told the share of the points read.
  public static func read(
    path: String, keepingGoodChunks: Bool = false, progress: ProgressHandler? = nil
  ) throws -> Document {
    let file = try MappedFile(path: path)
    do {
      return try read(bytes: file.bytes, keepingGoodChunks: keepingGoodChunks, progress: progress)
    } catch {
      throw LASError(error, path: path)
    }
  }

  /// The records an uncompressed file's read takes into the cloud at a time, telling its
  /// progress after each.
  static let recordBatchPoints = 1 << 20

  /// Reads a whole LAS file held in memory, telling `progress` the share of the points
  /// read after each batch. A LAZ file's records are decoded about `batchPoints` at a
  /// time (whole chunks) and go into the cloud batch by batch, so the whole file's
  /// records are never held at once (`LASCloudBuilder`); a LAS file's go in batches of
  /// `recordBatchPoints`.
  ///
  /// - Throws: `LASErrorReason` naming what is wrong and where.
  public static func read(
    bytes: UnsafeRawBufferPointer, keepingGoodChunks: Bool = false, batchPoints: Int = 1 << 22,
    progress: ProgressHandler? = nil
  ) throws(LASErrorReason) -> Document {
    let opened = try open(bytes)
    var header = opened.header
    let vlrs = opened.vlrs
    guard header.compressed else {
      let (records, notes) = complete(bytes, opened: opened)
      let length = header.recordLength
      header.points = records.count / length
      var builder = LASCloudBuilder(header: header, vlrs: vlrs, expectedPoints: header.points)
      var taken = 0
      repeat {
        let batch = min(recordBatchPoints, header.points - taken)
        builder.append(
          UnsafeRawBufferPointer(rebasing: records[(taken * length)..<((taken + batch) * length)]),
          points: batch)
        taken += batch
        progress?(Double(taken) / Double(max(header.points, 1)))
      } while taken < header.points
      return Document(header: header, cloud: builder.finish(), notes: notes)
    }
    // A LAZ file's records are decoded a batch at a time into the cloud, so the whole
    // file's records are never held at once.
    let payload = try lazPayload(bytes, opened: opened)
    var builder: LASCloudBuilder?
    var taken = 0
    let (points, notes) = try LAZDecompressor.forEachBatch(
      file: bytes, pointOffset: opened.pointOffset, points: header.points,
      recordLength: header.recordLength, parameters: LAZParameters(payload),
      keepingGoodChunks: keepingGoodChunks, copc: header.copc, batchPoints: batchPoints,
      prepare: { builder = LASCloudBuilder(header: header, vlrs: vlrs, expectedPoints: $0) },
      take: { records, points in
        builder?.append(records, points: points)
        taken += points
        progress?(Double(taken) / Double(max(header.points, 1)))
      })
    header.points = points
    let cloud =
      builder?.finish()
      ?? LASCloudBuilder(header: header, vlrs: vlrs, expectedPoints: 0).finish()
    return Document(header: header, cloud: cloud, notes: vlrs.notes + notes)
  }

  /// Reads the point records of the file at `path` (decompressing a LAZ file's) and
  /// nothing else: how `bench clouds` times decompression alone.
  ///
  /// - Returns: the records read and their bytes.
  public static func readRecords(path: String) throws -> (points: Int, bytes: Int) {
    let file = try MappedFile(path: path)
    do {
      return try withRecords(file.bytes) { header, _, records, _ in (header.points, records.count) }
    } catch {
      throw LASError(error, path: path)
    }
  }

  /// Calls `body` with the file's header (its point count the records read), VLRs,
  /// point records (decompressed, for LAZ) and notes on them.
  /// A LAS file's header and VLRs, read and checked, and where its points start.
  struct Opened {
    var header: Header
    var vlrs: LASVariableRecords
    var pointOffset: Int
  }

  /// Reads and checks the header and VLRs of the LAS file in `bytes`, nothing after.
  ///
  /// - Throws: `LASErrorReason` naming what is wrong and where.
  static func open(_ bytes: UnsafeRawBufferPointer) throws(LASErrorReason) -> Opened {
    guard bytes.count >= 4, bytes.starts(with: Array("LASF".utf8)) else { throw .notLAS }
    guard bytes.count >= 227 else { throw .shortHeader(bytes: bytes.count, needed: 227) }
    let major = Int(bytes[24])
    let minor = Int(bytes[25])
    guard major == 1, minor <= 4 else { throw .unsupportedVersion(major: major, minor: minor) }
    let headerSize = Int(bytes.littleEndian(at: 94, as: UInt16.self))
    let needed = minor >= 4 ? 375 : (minor == 3 ? 235 : 227)
    guard headerSize >= needed, headerSize <= bytes.count else {
      throw .shortHeader(bytes: min(headerSize, bytes.count), needed: needed)
    }
    let pointOffset = Int(bytes.littleEndian(at: 96, as: UInt32.self))
    let vlrCount = Int(bytes.littleEndian(at: 100, as: UInt32.self))
    let formatByte = Int(bytes[104])
    // LASzip marks compressed points with the format's top bit (old writers: the next).
    let compressed = formatByte & 0xC0 != 0
    let format = formatByte & 0x3F
    guard format < recordSizes.count else { throw .unsupportedPointFormat(format) }
    let recordLength = Int(bytes.littleEndian(at: 105, as: UInt16.self))
    guard recordLength >= recordSizes[format] else {
      throw .recordLength(format: format, length: recordLength, minimum: recordSizes[format])
    }
    var points = Int(bytes.littleEndian(at: 107, as: UInt32.self))
    if minor >= 4 {
      let wide = bytes.littleEndian(at: 247, as: UInt64.self)
      if format >= 6 || points == 0 { points = wide > UInt64(Int.max) ? Int.max : Int(wide) }
    }
    var scale = SIMD3<Double>()
    var offset = SIMD3<Double>()
    for axis in 0..<3 {
      scale[axis] = Double(bitPattern: bytes.littleEndian(at: 131 + 8 * axis, as: UInt64.self))
      offset[axis] = Double(bitPattern: bytes.littleEndian(at: 155 + 8 * axis, as: UInt64.self))
      guard scale[axis].isFinite, scale[axis] != 0, offset[axis].isFinite else {
        throw .badScale(axis: ["x", "y", "z"][axis])
      }
    }
    let software = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[58..<90]).prefix { $0 != 0 },
      as: UTF8.self)
    let vlrs = LASVariableRecords(bytes, from: headerSize, count: vlrCount, end: pointOffset)
    let header = Header(
      versionMajor: major, versionMinor: minor, pointFormat: format, recordLength: recordLength,
      points: points, scale: scale, offset: offset, software: software,
      compressed: compressed || vlrs.laszip != nil,
      copc: vlrs.copcInfo.flatMap { LASCOPCHierarchy(info: $0, file: bytes) },
      provenance: vlrs.provenance)
    return Opened(header: header, vlrs: vlrs, pointOffset: pointOffset)
  }

  static func withRecords<R>(
    _ bytes: UnsafeRawBufferPointer, keepingGoodChunks: Bool = false,
    _ body: (Header, LASVariableRecords, UnsafeRawBufferPointer, [String]) -> R
  ) throws(LASErrorReason) -> R {
    let opened = try open(bytes)
    var header = opened.header
    let vlrs = opened.vlrs
    let pointOffset = opened.pointOffset
    let recordLength = header.recordLength
    let points = header.points
    if header.compressed {
      let payload = try lazPayload(bytes, opened: opened)
      let records = try LAZDecompressor.records(
        file: bytes, pointOffset: pointOffset, points: points, recordLength: recordLength,
        parameters: LAZParameters(payload), keepingGoodChunks: keepingGoodChunks,
        copc: header.copc)
      defer { records.deallocate() }
      header.points = records.points
      return body(header, vlrs, records.bytes, vlrs.notes + records.notes)
    }
    let (records, notes) = complete(bytes, opened: opened)
    header.points = records.count / recordLength
    return body(header, vlrs, records, notes)
  }

  /// An uncompressed file's complete records (one that stops part-way holds those, as
  /// PDAL and laspy read it), with the VLRs' notes and one on the records missing.
  static func complete(_ bytes: UnsafeRawBufferPointer, opened: Opened)
    -> (records: UnsafeRawBufferPointer, notes: [String])
  {
    let (points, length) = (opened.header.points, opened.header.recordLength)
    let room = max(bytes.count - opened.pointOffset, 0) / length
    var notes = opened.vlrs.notes
    if room < points { notes.append(missingRecords(points, room, length)) }
    let start = min(opened.pointOffset, bytes.count)
    return (
      UnsafeRawBufferPointer(rebasing: bytes[start..<(start + min(points, room) * length)]), notes
    )
  }

  /// A compressed file's laszip record, checked to come with points.
  private static func lazPayload(_ bytes: UnsafeRawBufferPointer, opened: Opened)
    throws(LASErrorReason) -> [UInt8]
  {
    guard let payload = opened.vlrs.laszip else {
      throw .laz("its point format byte says compressed, but it has no laszip record")
    }
    guard opened.pointOffset <= bytes.count else {
      throw .truncated(
        what: "compressed points", offset: opened.pointOffset, neededBytes: 8,
        fileBytes: bytes.count)
    }
    return payload
  }

  /// The note on a file that holds `room` of the `points` records of `length` bytes its
  /// header promises.
  static func missingRecords(_ points: Int, _ room: Int, _ length: Int) -> String {
    let (bytes, overflow) = (points - room).multipliedReportingOverflow(by: length)
    return "the file holds \(room) of the \(points) points its header promises: it stops "
      + (overflow ? "more than \(Int.max) bytes" : "\(bytes) bytes") + " short of them"
  }

  /// The positions of `points` records: scaled and offset, then rounded once to `Float`.
  static func positions(_ records: UnsafeRawBufferPointer, points: Int, header: Header)
    -> [Point3]
  {
    let (scale, offset, length) = (header.scale, header.offset, header.recordLength)
    return (0..<points).map { index in
      let p = SIMD3<Double>(stored(records, record: index, length: length)) * scale + offset
      return Point3(Float(p.x), Float(p.y), Float(p.z))
    }
  }

  /// The integer x, y and z (bytes 0–11 of every format) of record `record`.
  @inline(__always)
  static func stored(_ records: UnsafeRawBufferPointer, record: Int, length: Int) -> SIMD3<Int32> {
    let at = record * length
    return SIMD3(
      records.littleEndian(at: at, as: Int32.self),
      records.littleEndian(at: at + 4, as: Int32.self),
      records.littleEndian(at: at + 8, as: Int32.self))
  }

  /// The intensities (bytes 12–13 of every format) of `points` records.
  static func intensities(_ records: UnsafeRawBufferPointer, points: Int, length: Int)
    -> [UInt16]
  {
    (0..<points).map { records.littleEndian(at: $0 * length + 12, as: UInt16.self) }
  }

  /// How far the records' 16-bit colours are shifted down to 8 bits: 8, or 0 for a file
  /// that stores 8-bit values in them (none above 255).
  static func colorShift(
    _ records: UnsafeRawBufferPointer, points: Int, length: Int, at offset: Int
  ) -> UInt16 {
    var highest: UInt16 = 0
    for index in 0..<points {
      for channel in 0..<3 {
        highest = max(
          highest, records.littleEndian(at: index * length + offset + 2 * channel, as: UInt16.self))
      }
    }
    return highest > 255 ? 8 : 0
  }

  static func colors(
    _ records: UnsafeRawBufferPointer, points: Int, length: Int, at offset: Int, shift: UInt16
  ) -> [RGB8] {
    (0..<points).map { index in
      let at = index * length + offset
      return RGB8(
        UInt8(truncatingIfNeeded: records.littleEndian(at: at, as: UInt16.self) >> shift),
        UInt8(truncatingIfNeeded: records.littleEndian(at: at + 2, as: UInt16.self) >> shift),
        UInt8(truncatingIfNeeded: records.littleEndian(at: at + 4, as: UInt16.self) >> shift))
    }
  }
}
