import CloudScrubCore
import Foundation

/// Writes LAS 1.4 records as COPC (cloud-optimised point cloud, COPC 1.0): a LAZ file
/// whose chunks are the nodes of an octree (`COPCOctree`), coarse levels first, with
/// the `copc` info VLR first after the header (the cube, the root's point spacing and
/// where the hierarchy lies), variable-size chunks in the chunk table, and the
/// hierarchy (one page listing every node) as the `copc` EVLR 1000.
enum COPCWriter {
  /// Bytes of the info VLR's payload, and of a hierarchy entry.
  static let infoBytes = 160
  static let entryBytes = 32

  /// Writes the COPC form of `header` (a LAS 1.4 header of point format 6–8 and its
  /// VLRs, as `LASRecordEncoder` writes them) and its `count` `records` to `file`.
  static func write(
    header las: [UInt8], records: UnsafeRawBufferPointer, count: Int, recordLength: Int,
    to file: AtomicFileWriter, progress: ProgressHandler?
  ) throws {
    let scale = SIMD3<Double>((0..<3).map { las.double(at: 131 + 8 * $0) })
    let offset = SIMD3<Double>((0..<3).map { las.double(at: 155 + 8 * $0) })
    let octree = COPCOctree(count: count, quantum: scale.min()) { index in
      SIMD3<Double>(LASReader.stored(records, record: index, length: recordLength)) * scale
        + offset
    }
    let laz = LAZFileHeader.header(las: las, chunkSize: UInt32.max)
    var bytes = Self.withInfoVLR(laz.bytes)
    bytes[6] |= 0x10  // global encoding: the CRS, if any, is WKT
    let pointOffset = bytes.count
    try file.write(bytes)
    try file.write([UInt8](repeating: 0, count: 8))
    var at = pointOffset + 8
    var chunks: [(points: Int, bytes: Int)] = []
    var entries: [UInt8] = []
    // Batches of nodes compressed at once on every core, each batch's records gathered.
    var start = 0
    while start < octree.keys.count {
      var end = start
      var points = 0
      while end < octree.keys.count, end == start || points < 1 << 20 {
        points += octree.members[end].count
        end += 1
      }
      let encoded = Self.encode(
        octree.members[start..<end], records: records, recordLength: recordLength,
        items: laz.items)
      for (node, chunk) in zip(start..<end, encoded) {
        let key = octree.keys[node]
        let members = octree.members[node].count
        // A hierarchy entry holds a node's bytes in 32 bits: millions of points at one
        // place (the deepest level keeps them all) could pass that.
        guard let size = Int32(exactly: chunk.count) else {
          throw LASErrorReason.laz(
            "octree node \(key.level)-\(key.x)-\(key.y)-\(key.z) holds \(members) points at "
              + "one place, more than a COPC node's 2 GB; thin the cloud (--voxel) first")
        }
        try file.write(chunk)
        for value in [key.level, key.x, key.y, key.z] { entries.appendLittleEndian(value) }
        entries.appendLittleEndian(UInt64(at))
        entries.appendLittleEndian(size)
        entries.appendLittleEndian(Int32(members))
        chunks.append((members, chunk.count))
        at += chunk.count
      }
      progress?(Double(end) / Double(octree.keys.count))
      start = end
    }
    let table = LAZChunkTable.encode(chunks, variable: true)
    try file.write(table)
    let tableOffset = at
    at += table.count
    let evlr = Self.evlr(user: "copc", record: 1000, description: "COPC hierarchy", entries)
    try file.write(evlr)
    // Where the table, the hierarchy and the EVLR lie, now that they are written.
    try file.write(littleEndian(UInt64(tableOffset)), at: pointOffset)
    var info = [UInt8]()
    for value in [octree.center.x, octree.center.y, octree.center.z, octree.halfSize] {
      info.appendLittleEndian(value.bitPattern)
    }
    info.appendLittleEndian((2 * octree.halfSize / Double(COPCOctree.grid)).bitPattern)
    info.appendLittleEndian(UInt64(at + 60))
    info.appendLittleEndian(UInt64(entries.count))
    info += [UInt8](repeating: 0, count: Self.infoBytes - info.count)  // GPS times, reserved
    try file.write(info, at: 375 + 54)
    try file.write(littleEndian(UInt64(at)), at: 235)
    try file.write(littleEndian(UInt32(1)), at: 243)
  }

  /// The compressed chunks of the nodes `nodes`, on every core.
  private static func encode(
    _ nodes: ArraySlice<[UInt32]>, records: UnsafeRawBufferPointer, recordLength: Int,
    items: [LAZParameters.Item]
  ) -> [[UInt8]] {
    let slots = ParallelSlots<[UInt8]>(count: nodes.count, initial: [])
    nonisolated(unsafe) let records = records
    let members = Array(nodes)
    Parallel.perform(iterations: members.count) { slot in
      let node = Self.mortonOrder(members[slot], records: records, recordLength: recordLength)
      let gathered = UnsafeMutableRawBufferPointer.allocate(
        byteCount: node.count * recordLength, alignment: 16)
      defer { gathered.deallocate() }
      for (position, index) in node.enumerated() {
        gathered.baseAddress.unsafelyUnwrapped.advanced(by: position * recordLength).copyMemory(
          from: records.baseAddress.unsafelyUnwrapped.advanced(by: Int(index) * recordLength),
          byteCount: recordLength)
      }
      slots[slot] = LAZLayeredChunk.encode(
        gathered.baseAddress.unsafelyUnwrapped, points: node.count, recordLength: recordLength,
        items: items)
    }
    return (0..<members.count).map { slots[$0] }
  }

  /// `node`'s records in Morton (Z-curve) order of their integer coordinates, so that
  /// neighbours in the chunk are neighbours in space and code in small steps.
  static func mortonOrder(
    _ node: [UInt32], records: UnsafeRawBufferPointer, recordLength: Int
  ) -> [UInt32] {
    guard node.count > 1 else { return node }
    func coordinates(_ index: UInt32) -> SIMD3<Int64> {
      SIMD3(truncatingIfNeeded: LASReader.stored(records, record: Int(index), length: recordLength))
    }
    var low = SIMD3<Int64>(repeating: .max)
    var high = SIMD3<Int64>(repeating: .min)
    for index in node {
      let c = coordinates(index)
      low = pointwiseMin(low, c)
      high = pointwiseMax(high, c)
    }
    // The widest side in 21 bits an axis.
    var shift: Int64 = 0
    while (high &- low).max() >> shift >= 1 << 21 { shift += 1 }
    func spread(_ value: Int64) -> UInt64 {
      var v = UInt64(value) & 0x1F_FFFF
      v = (v | v << 32) & 0x1F_0000_0000_FFFF
      v = (v | v << 16) & 0x1F_0000_FF00_00FF
      v = (v | v << 8) & 0x100F_00F0_0F00_F00F
      v = (v | v << 4) & 0x10C3_0C30_C30C_30C3
      v = (v | v << 2) & 0x1249_2492_4924_9249
      return v
    }
    let keyed = node.map { index -> (UInt64, UInt32) in
      let c = (coordinates(index) &- low) &>> shift
      return (spread(c.x) | spread(c.y) << 1 | spread(c.z) << 2, index)
    }
    return keyed.sorted { $0 < $1 }.map(\.1)
  }

  /// `laz` (a LAS 1.4 header and its VLRs) with an empty `copc` info VLR first after the
  /// 375-byte header, as COPC requires; its payload is filled in once the file is written.
  static func withInfoVLR(_ laz: [UInt8]) -> [UInt8] {
    let vlr = LASRecordEncoder.vlr(
      user: "copc", record: 1, description: "COPC info",
      [UInt8](repeating: 0, count: infoBytes))
    return LAZFileHeader.inserting(vlr, into: laz, at: 375)
  }

  /// An extended VLR: its 60-byte header, then `payload`.
  static func evlr(user: String, record: UInt16, description: String, _ payload: [UInt8])
    -> [UInt8]
  {
    var bytes: [UInt8] = [0, 0]
    bytes +=
      Array(user.utf8.prefix(16)) + [UInt8](repeating: 0, count: 16 - min(16, user.utf8.count))
    bytes.appendLittleEndian(record)
    bytes.appendLittleEndian(UInt64(payload.count))
    bytes +=
      Array(description.utf8.prefix(32))
      + [UInt8](repeating: 0, count: 32 - min(32, description.utf8.count))
    return bytes + payload
  }

  private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }
}

extension Array where Element == UInt8 {
  fileprivate func double(at offset: Int) -> Double {
    Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(self[offset + $1]) << (8 * $1) })
  }
}

/// `export -o out.copc.laz` (and `--format copc`): what the LAZ export writes, as COPC.
public struct COPCFormatWriter: CloudFormatWriter {
  public let name = "copc"
  public let extensions = ["copc.laz"]
  public let hasTextForm = false

  public init() {}

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    do {
      var encoder = try LASRecordEncoder(fields: cloud, options: options)
      try encoder.prepare(whole: cloud)
      var records: [UInt8] = []
      records.reserveCapacity(cloud.count * encoder.recordLength)
      try encoder.encode(cloud, 0..<cloud.count, into: &records)
      let file = try AtomicFileWriter(path: path, protecting: inputs)
      try records.withUnsafeBytes {
        try COPCWriter.write(
          header: encoder.header(count: cloud.count, provenance: provenance), records: $0,
          count: cloud.count, recordLength: encoder.recordLength, to: file, progress: progress)
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
      transform: COPCSpoolOctree.init(recordLength:))
  }
}

/// A streamed COPC export: the records are spooled as they come, raw, and `finish` maps
/// the spool, builds the octree over every record and writes the file from it.
final class COPCSpoolOctree: SpoolTransform {
  private let recordLength: Int

  init(recordLength: Int) { self.recordLength = recordLength }

  func append(_ records: UnsafeRawBufferPointer, to spool: RecordSpool) throws {
    try spool.append(records)
  }

  func finish(header: [UInt8], spool: RecordSpool, progress: ProgressHandler?) throws {
    try spool.finish { records, file in
      try COPCWriter.write(
        header: header, records: records, count: records.count / recordLength,
        recordLength: recordLength, to: file, progress: progress)
    }
  }
}
