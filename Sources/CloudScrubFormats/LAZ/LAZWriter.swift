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
  /// items its records need, in chunks of `chunkSize` points (`UInt32.max`: of any size,
  /// as the chunk table says).
  static func header(las: [UInt8], chunkSize: UInt32 = UInt32(LAZChunkWriter.chunkPoints))
    -> (bytes: [UInt8], items: [LAZParameters.Item])
  {
    let recordLength = Int(las[105]) | Int(las[106]) << 8
    let items = items(format: Int(las[104] & 0x3F), recordLength: recordLength)
    var payload: [UInt8] = []
    payload.appendLittleEndian(LAZParameters.Compressor.layeredChunked.rawValue)
    payload.appendLittleEndian(UInt16(0))  // coder: arithmetic
    payload += [3, 4]  // codec version 3.4, revision 0
    payload.appendLittleEndian(UInt16(0))
    payload.appendLittleEndian(UInt32(0))  // options
    payload.appendLittleEndian(chunkSize)
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
    var bytes = inserting(vlr, into: las, at: las.count)
    bytes[104] |= 0x80
    return (bytes, items)
  }

  /// `header` (a LAS header and its VLRs, up to the points) with `vlr` put in at byte
  /// `position`, the point data's offset and the VLR count raised to match.
  static func inserting(_ vlr: [UInt8], into header: [UInt8], at position: Int) -> [UInt8] {
    var bytes = Array(header[0..<position]) + vlr + Array(header[position...])
    for (field, added) in [(96, vlr.count), (100, 1)] {
      let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[field + $1]) << (8 * $1) }
      withUnsafeBytes(of: (value + UInt32(added)).littleEndian) {
        bytes.replaceSubrange(field..<(field + 4), with: $0)
      }
    }
    return bytes
  }
}

/// Compresses LAS records into LAZ chunks, many chunks at once on every core, and hands
/// them in order to `sink`; `finish` gives the chunk table that follows them.
///
/// The chunks' bytes go after the header and the 8-byte offset of the table (the
/// header's size + 8 + `chunkBytes`, see `tableOffset`).
final class LAZChunkWriter {
  static let chunkPoints = 50_000

  private let items: [LAZParameters.Item]
  private let recordLength: Int
  private let batchChunks: Int
  private let sink: ([UInt8]) throws -> Void
  private var chunks: [(points: Int, bytes: Int)] = []
  /// Records short of a whole chunk, waiting for more.
  private var pending: [UInt8] = []
  /// The compressed bytes handed on so far.
  private(set) var chunkBytes = 0

  /// Chunks compressed together: two for each core, so that cores finishing early find
  /// work.
  static var defaultBatchChunks: Int {
    max(2, min(32, 2 * Parallel.cores))
  }

  /// A writer handing chunks to `sink`, compressing `batchChunks` at once.
  init(
    items: [LAZParameters.Item], recordLength: Int, batchChunks: Int = defaultBatchChunks,
    sink: @escaping ([UInt8]) throws -> Void
  ) {
    self.items = items
    self.recordLength = recordLength
    self.batchChunks = batchChunks
    self.sink = sink
  }

  /// The 8 bytes before the first chunk: where the chunk table starts in a file whose
  /// points start at `pointOffset`.
  static func tableOffset(pointOffset: Int, chunkBytes: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendLittleEndian(Int64(pointOffset + 8 + chunkBytes))
    return bytes
  }

  /// Writes a whole LAZ file to `file`: `header`, the table's offset, the chunks of the
  /// records `feed` appends, then the table; returns the file's size.
  static func write(
    header: (bytes: [UInt8], items: [LAZParameters.Item]), recordLength: Int,
    to file: AtomicFileWriter, feed: (LAZChunkWriter) throws -> Void
  ) throws -> Int {
    try file.write(header.bytes)
    // The chunk table's offset, known once the chunks are written.
    try file.write([UInt8](repeating: 0, count: 8))
    let chunks = LAZChunkWriter(
      items: header.items, recordLength: recordLength, sink: { try file.write($0) })
    try feed(chunks)
    let table = try chunks.finish()
    try file.write(table)
    let offset = tableOffset(pointOffset: header.bytes.count, chunkBytes: chunks.chunkBytes)
    try file.write(offset, at: header.bytes.count)
    return header.bytes.count + 8 + chunks.chunkBytes + table.count
  }

  /// Adds records; every batch of whole chunks among them is compressed and handed on.
  func append(_ records: UnsafeRawBufferPointer) throws {
    let batch = batchChunks * Self.chunkPoints * recordLength
    var rest = records
    if !pending.isEmpty {
      let taken = min(rest.count, batch - pending.count)
      pending += rest[0..<taken]
      rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
      guard pending.count == batch else { return }
      try pending.withUnsafeBytes { try compress($0) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = rest.count / batch * batch
    try compress(UnsafeRawBufferPointer(rebasing: rest[0..<whole]))
    pending += rest[whole...]
  }

  /// Compresses the records left; returns the chunk table.
  func finish() throws -> [UInt8] {
    try pending.withUnsafeBytes { try compress($0) }
    pending = []
    return LAZChunkTable.encode(chunks, variable: false)
  }

  /// Compresses `records` in chunks of `chunkPoints` (the last may be short), in parallel
  /// a batch at a time, and hands them on in order.
  private func compress(_ records: UnsafeRawBufferPointer) throws {
    let count = records.count / recordLength
    guard count > 0, let base = records.baseAddress else { return }
    let chunkCount = (count + Self.chunkPoints - 1) / Self.chunkPoints
    let (items, recordLength) = (items, recordLength)
    nonisolated(unsafe) let start = base
    for batch in stride(from: 0, to: chunkCount, by: batchChunks) {
      let size = min(batchChunks, chunkCount - batch)
      let compressed = ParallelSlots<[UInt8]>(count: size, initial: [])
      Parallel.perform(iterations: size) { index in
        let first = (batch + index) * Self.chunkPoints
        compressed[index] = LAZLayeredChunk.encode(
          start + first * recordLength, points: min(Self.chunkPoints, count - first),
          recordLength: recordLength, items: items)
      }
      for index in 0..<size {
        let bytes = compressed[index]
        try sink(bytes)
        chunks.append(
          (min(Self.chunkPoints, count - (batch + index) * Self.chunkPoints), bytes.count))
        chunkBytes += bytes.count
      }
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
      let step = LAZChunkWriter.defaultBatchChunks * LAZChunkWriter.chunkPoints
      var records: [UInt8] = []
      _ = try LAZChunkWriter.write(
        header: header, recordLength: encoder.recordLength, to: file
      ) { chunks in
        for start in stride(from: 0, to: cloud.count, by: step) {
          let end = min(start + step, cloud.count)
          records.removeAll(keepingCapacity: true)
          try encoder.encode(cloud, start..<end, into: &records)
          try records.withUnsafeBytes { try chunks.append($0) }
          progress?(Double(end) / Double(cloud.count))
        }
      }
      try file.commit()
    } catch let reason as LASErrorReason {
      throw LASError(reason, path: path)
    }
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    try LASStreamWriter(
      path: path, fields: fields, options: options, inputs: inputs,
      transform: LAZSpoolCompression.init(recordLength:))
  }
}

/// A streamed LAZ export: the records are compressed as they come, the chunks spooled
/// beside the target, and `finish` writes the LAZ header, the table's offset, the
/// spooled chunks and the table.
final class LAZSpoolCompression: SpoolTransform {
  private let recordLength: Int
  private var chunks: LAZChunkWriter?

  init(recordLength: Int) { self.recordLength = recordLength }

  private func writer(_ spool: RecordSpool) -> LAZChunkWriter {
    if let chunks { return chunks }
    let made = LAZChunkWriter(
      items: LAZFileHeader.items(format: 7, recordLength: recordLength),
      recordLength: recordLength, sink: { try spool.append($0) })
    chunks = made
    return made
  }

  func append(_ records: UnsafeRawBufferPointer, to spool: RecordSpool) throws {
    try writer(spool).append(records)
  }

  func finish(header: [UInt8], spool: RecordSpool, progress: ProgressHandler?) throws {
    let chunks = writer(spool)
    let table = try chunks.finish()
    let laz = LAZFileHeader.header(las: header)
    let offset = LAZChunkWriter.tableOffset(
      pointOffset: laz.bytes.count, chunkBytes: chunks.chunkBytes)
    try spool.finish(header: laz.bytes + offset, trailer: table, progress: progress)
  }
}
