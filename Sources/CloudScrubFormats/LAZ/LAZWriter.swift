import CloudScrubCore
import Foundation

/// The LAZ form of a LAS file `LASRecordEncoder` writes: the same header and VLRs with
/// the compression bit set on the point format and LASzip's `laszip encoded` VLR
/// (record 22204) added, which names the layered codecs (version 3) of the point format:
/// `point14`, then `rgb14` (format 7) or `rgbnir14` (format 8), then `byte14` for extra
/// bytes, in chunks of 50,000 points.
enum LAZFileHeader {
  /// The items of a record of point format `format` (6, 7 or 8) and `recordLength`
  /// bytes, the bytes past the format's own as extra bytes.
  static func items(format: Int, recordLength: Int) -> [LAZParameters.Item] {
    precondition((6...8).contains(format), "LAZ is written for point formats 6-8")
    var items = [LAZParameters.Item(kind: .point14, size: 30, version: 3)]
    if format == 7 { items.append(LAZParameters.Item(kind: .rgb14, size: 6, version: 3)) }
    if format == 8 { items.append(LAZParameters.Item(kind: .rgbNIR14, size: 8, version: 3)) }
    let size = items.reduce(0) { $0 + $1.size }
    if recordLength > size {
      items.append(LAZParameters.Item(kind: .byte14, size: recordLength - size, version: 3))
    }
    return items
  }

  /// The LAZ header of the LAS 1.4 header (and VLRs, up to the points) `las`, with the
  /// items its records need.
  static func header(las: [UInt8]) -> (bytes: [UInt8], items: [LAZParameters.Item]) {
    func u32(_ at: Int) -> UInt32 {
      (0..<4).reduce(0) { $0 | UInt32(las[at + $1]) << (8 * $1) }
    }
    let recordLength = Int(las[105]) | Int(las[106]) << 8
    let items = items(format: Int(las[104] & 0x3F), recordLength: recordLength)
    var payload: [UInt8] = []
    payload.appendLittleEndian(LAZParameters.Compressor.layeredChunked.rawValue)
    payload.appendLittleEndian(UInt16(0))  // coder: arithmetic
    payload += [3, 4]  // codec version 3.4, revision 0
    payload.appendLittleEndian(UInt16(0))
    payload.appendLittleEndian(UInt32(0))  // options
    payload.appendLittleEndian(UInt32(LAZChunkWriter.chunkPoints))
    payload.appendLittleEndian(Int64(-1))  // no special EVLRs
    payload.appendLittleEndian(Int64(-1))
    payload.appendLittleEndian(UInt16(items.count))
    for item in items {
      payload.appendLittleEndian(item.kind.rawValue)
      payload.appendLittleEndian(UInt16(item.size))
      payload.appendLittleEndian(UInt16(item.version))
    }
    let vlr = LASRecordEncoder.vlr(
      user: "laszip encoded", record: 22204, description: "by CloudScrub", payload)
    var bytes = las + vlr
    bytes.replaceSubrange(96..<100, with: littleEndian(u32(96) + UInt32(vlr.count)))
    bytes.replaceSubrange(100..<104, with: littleEndian(u32(100) + 1))
    bytes[104] |= 0x80
    return (bytes, items)
  }

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }
}

/// Compresses LAS records into LAZ chunks, many chunks at once on every core, and writes
/// them after the header, then the chunk table, whose offset it puts before the chunks.
final class LAZChunkWriter {
  static let chunkPoints = 50_000

  private let file: AtomicFileWriter
  private let items: [LAZParameters.Item]
  private let recordLength: Int
  private let pointOffset: Int
  private var position: Int
  private var chunks: [(points: Int, bytes: Int)] = []
  /// Records short of a whole chunk, waiting for more.
  private var pending: [UInt8] = []

  /// Chunks compressed together: two for each core, so that cores finishing early find
  /// work.
  static var batchChunks: Int {
    max(2, min(32, 2 * ProcessInfo.processInfo.activeProcessorCount))
  }

  /// The record bytes `append` compresses at once for records of `recordLength` bytes.
  static func batchBytes(recordLength: Int) -> Int {
    batchChunks * chunkPoints * recordLength
  }

  /// A writer of the points that follow the header just written to `file`
  /// (`pointOffset` bytes).
  init(
    file: AtomicFileWriter, items: [LAZParameters.Item], recordLength: Int, pointOffset: Int
  ) throws {
    self.file = file
    self.items = items
    self.recordLength = recordLength
    self.pointOffset = pointOffset
    // The chunk table's offset, known at the end.
    try file.write([UInt8](repeating: 0, count: 8))
    position = pointOffset + 8
  }

  /// Adds records; every whole chunk among them is compressed and written.
  func append(_ records: UnsafeRawBufferPointer) throws {
    if pending.isEmpty {
      let whole = records.count / (Self.chunkPoints * recordLength) * Self.chunkPoints
      try compress(UnsafeRawBufferPointer(rebasing: records[0..<(whole * recordLength)]))
      pending += records[(whole * recordLength)...]
      return
    }
    pending += records
    let whole = pending.count / (Self.chunkPoints * recordLength) * Self.chunkPoints
    guard whole > 0 else { return }
    try pending.withUnsafeBytes {
      try compress(UnsafeRawBufferPointer(rebasing: $0[0..<(whole * recordLength)]))
    }
    pending.removeFirst(whole * recordLength)
  }

  /// Compresses the records left, writes the chunk table and its offset; returns the
  /// file's size.
  @discardableResult func finish() throws -> Int {
    try pending.withUnsafeBytes { try compress($0) }
    pending = []
    let table = LAZChunkTable.encode(chunks, variable: false)
    try file.write(table)
    var offset: [UInt8] = []
    offset.appendLittleEndian(Int64(position))
    try file.write(offset, at: pointOffset)
    return position + table.count
  }

  /// Compresses `records` in chunks of `chunkPoints` (the last may be short), in parallel,
  /// and writes them in order.
  private func compress(_ records: UnsafeRawBufferPointer) throws {
    let count = records.count / recordLength
    guard count > 0, let base = records.baseAddress else { return }
    let chunkCount = (count + Self.chunkPoints - 1) / Self.chunkPoints
    let compressed = ParallelSlots<[UInt8]>(count: chunkCount, initial: [])
    let (items, recordLength) = (items, recordLength)
    nonisolated(unsafe) let start = base
    DispatchQueue.concurrentPerform(iterations: chunkCount) { index in
      let first = index * Self.chunkPoints
      compressed[index] = LAZLayeredChunk.encode(
        start + first * recordLength, points: min(Self.chunkPoints, count - first),
        recordLength: recordLength, items: items)
    }
    for index in 0..<chunkCount {
      let bytes = compressed[index]
      try file.write(bytes)
      chunks.append((min(Self.chunkPoints, count - index * Self.chunkPoints), bytes.count))
      position += bytes.count
    }
  }
}

/// LAZ in the registry of export formats: the records the LAS writer makes, compressed,
/// so that a LAZ export decompresses to exactly the LAS export's points.
public struct LAZFormatWriter: CloudFormatWriter {
  public let name = "laz"
  public let extensions = ["laz"]
  public let hasTextForm = false

  public init() {}

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    do {
      var encoder = try LASRecordEncoder(fields: cloud, options: options)
      try encoder.prepare(whole: cloud)
      let header = LAZFileHeader.header(
        las: encoder.header(count: cloud.count, provenance: provenance))
      let file = try AtomicFileWriter(path: path, protecting: inputs)
      try file.write(header.bytes)
      let recordLength = LASRecordEncoder.baseRecordSize + encoder.extraSize
      let chunks = try LAZChunkWriter(
        file: file, items: header.items, recordLength: recordLength, pointOffset: header.bytes.count
      )
      let step = LAZChunkWriter.batchChunks * LAZChunkWriter.chunkPoints
      var records: [UInt8] = []
      for start in stride(from: 0, to: cloud.count, by: step) {
        let end = min(start + step, cloud.count)
        records.removeAll(keepingCapacity: true)
        try encoder.encode(cloud, start..<end, into: &records)
        try records.withUnsafeBytes { try chunks.append($0) }
        progress?(Double(end) / Double(cloud.count))
      }
      try chunks.finish()
      try file.commit()
    } catch let reason as LASErrorReason {
      throw LASError(reason, path: path)
    }
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    LASStreamWriter(
      try SpooledCloudStreamWriter<LASRecordEncoder>(
        path: path, fields: fields, options: options, inputs: inputs), path: path,
      compressed: true)
  }
}

extension LASStreamWriter {
  /// Writes the LAZ header, then the spooled records compressed.
  static func finishCompressed(
    _ header: [UInt8], _ spool: RecordSpool, progress: ProgressHandler?
  ) throws {
    let laz = LAZFileHeader.header(las: header)
    let recordLength = Int(header[105]) | Int(header[106]) << 8
    var chunks: LAZChunkWriter?
    func writer() throws -> LAZChunkWriter {
      if let chunks { return chunks }
      let made = try LAZChunkWriter(
        file: spool.target, items: laz.items, recordLength: recordLength,
        pointOffset: laz.bytes.count)
      chunks = made
      return made
    }
    try spool.finish(
      header: laz.bytes, pieceBytes: LAZChunkWriter.batchBytes(recordLength: recordLength),
      progress: progress, write: { try writer().append($0) }, end: { _ in try writer().finish() })
  }
}
