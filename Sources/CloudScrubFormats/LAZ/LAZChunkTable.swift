import Foundation

/// Where each chunk of a LAZ file's points starts and how many points it holds, from the
/// chunk table LASzip writes after the points (itself arithmetic coded, each entry
/// predicted from the one before).
struct LAZChunkTable: Equatable {
  struct Chunk: Equatable {
    /// The chunk's first byte in the file, and its bytes.
    var offset: Int
    var bytes: Int
    /// The chunk's first point, and its points.
    var firstPoint: Int
    var points: Int
  }

  var chunks: [Chunk]

  /// Reads the table of a file whose compressed points start at `pointOffset` (with the
  /// table's own offset there) and hold `points` points in chunks of `chunkSize`
  /// (nil: each chunk's count is in the table).
  ///
  /// - Throws: `LASErrorReason.laz` saying what is wrong with the table.
  init(
    file: UnsafeRawBufferPointer, pointOffset: Int, points: Int, chunkSize: Int?
  ) throws(LASErrorReason) {
    guard pointOffset + 8 <= file.count else {
      throw .laz("its points end before the chunk table's offset at byte \(pointOffset)")
    }
    var tableOffset = Int64(
      littleEndian: file.loadUnaligned(fromByteOffset: pointOffset, as: Int64.self))
    if tableOffset == -1, file.count >= 8 {
      // A writer that could not seek back puts the offset at the end of the file.
      tableOffset = Int64(
        littleEndian: file.loadUnaligned(fromByteOffset: file.count - 8, as: Int64.self))
    }
    guard tableOffset >= pointOffset + 8, tableOffset <= file.count - 8 else {
      throw .laz(
        "its chunk table offset \(tableOffset) lies outside the file (\(file.count) bytes)")
    }
    let at = Int(tableOffset)
    let version = UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    let count = Int(
      UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
    guard version == 0 else { throw .laz("its chunk table has version \(version), not 0") }
    // Each chunk holds a point and at least a byte, and each entry takes a bit at least.
    let most = min(max(points, 1), at - pointOffset - 8, 8 * (file.count - at - 8) + 8)
    guard count <= most else {
      throw .laz("its chunk table lists \(count) chunks, more than the file can hold (\(most))")
    }
    var decoder = LAZArithmeticDecoder(UnsafeRawBufferPointer(rebasing: file[(at + 8)...]))
    let arena = LAZArena()
    let entries = LAZIntegerCodec(bits: 32, contexts: 2, in: arena)
    var chunks: [Chunk] = []
    chunks.reserveCapacity(count)
    var lastPoints: Int32 = 0
    var lastBytes: Int32 = 0
    var offset = pointOffset + 8
    var firstPoint = 0
    for index in 0..<count {
      var chunkPoints = min(chunkSize ?? 0, points - firstPoint)
      if chunkSize == nil {
        lastPoints = entries.decompress(lastPoints, context: 0, &decoder)
        chunkPoints = Int(lastPoints)
      }
      lastBytes = entries.decompress(lastBytes, context: 1, &decoder)
      let bytes = Int(lastBytes)
      guard chunkPoints >= 0, bytes >= 0, bytes <= at - offset,
        chunkPoints <= LAZDecompressor.mostPointsPerByte * bytes
      else {
        throw .laz(
          "its chunk table's entry \(index) (\(chunkPoints) points in \(bytes) bytes at byte "
            + "\(offset)) does not fit before the table at byte \(at)")
      }
      // A writer may close an empty last chunk.
      if chunkPoints > 0 {
        chunks.append(
          Chunk(offset: offset, bytes: bytes, firstPoint: firstPoint, points: chunkPoints))
      }
      offset += bytes
      firstPoint += chunkPoints
    }
    guard decoder.overrun == 0 else {
      throw .laz("its chunk table is cut off at the end of the file")
    }
    self.chunks = chunks
  }
}

extension LAZChunkTable {
  /// The table's bytes for chunks of `points` points and `bytes` bytes each, as `init`
  /// reads them: version 0, the count, then the entries coded, each predicted from the
  /// one before (the point counts only when `variable`).
  static func encode(_ chunks: [(points: Int, bytes: Int)], variable: Bool) -> [UInt8] {
    var table: [UInt8] = []
    table.appendLittleEndian(UInt32(0))
    table.appendLittleEndian(UInt32(chunks.count))
    let arena = LAZArena()
    let encoder = arena.encoders(1)
    let entries = LAZIntegerCodec(bits: 32, contexts: 2, in: arena)
    var lastPoints: Int32 = 0
    var lastBytes: Int32 = 0
    for chunk in chunks {
      if variable {
        let points = Int32(truncatingIfNeeded: chunk.points)
        entries.compress(lastPoints, points, context: 0, &encoder.pointee)
        lastPoints = points
      }
      let bytes = Int32(truncatingIfNeeded: chunk.bytes)
      entries.compress(lastBytes, bytes, context: 1, &encoder.pointee)
      lastBytes = bytes
    }
    return table + encoder.pointee.finish()
  }
}

extension LAZChunkTable {
  /// The chunks of a file whose table cannot be read (a writer stopped before writing
  /// it, or the file was cut), found one after another from the first, up to `end`: a
  /// layered chunk's header gives its length; a point-wise chunk is decoded to find
  /// where its stream ends. Stops before the first chunk that does not fit whole.
  static func walk(
    file: UnsafeRawBufferPointer, pointOffset: Int, end: Int, points: Int, chunkSize: Int,
    items: [LAZParameters.Item], recordLength: Int, layered: Bool
  ) -> [Chunk] {
    var chunks: [Chunk] = []
    var offset = pointOffset + 8
    var firstPoint = 0
    let layers = items.reduce(0) { $0 + LAZLayeredChunk.layers(of: $1) }
    // No chunk holds more points than its bytes can (as for a table's entries), nor more
    // than half the memory holds.
    let memory = Int(clamping: ProcessInfo.processInfo.physicalMemory / 2) / max(recordLength, 1)
    let most = min(
      chunkSize, points, memory, LAZDecompressor.mostPointsPerByte * max(end - offset, 0))
    let scratch = UnsafeMutableRawPointer.allocate(
      byteCount: layered ? 1 : max(most, 1) * recordLength, alignment: 16)
    defer { scratch.deallocate() }
    while firstPoint < points && offset < end {
      let count = min(chunkSize, points - firstPoint)
      guard count <= most else { break }
      var length = 0
      if layered {
        let header = recordLength + 4 + 4 * layers
        guard offset + header <= end else { break }
        length = (0..<layers).reduce(header) {
          $0
            + Int(
              UInt32(
                littleEndian: file.loadUnaligned(
                  fromByteOffset: offset + recordLength + 4 + 4 * $1, as: UInt32.self)))
        }
      } else {
        let problem = LAZPointwiseChunk.decode(
          UnsafeRawBufferPointer(rebasing: file[offset..<end]), items: items, points: count,
          recordLength: recordLength, into: scratch, length: &length)
        guard problem == nil else { break }
      }
      guard length > 0, length <= end - offset,
        count <= LAZDecompressor.mostPointsPerByte * length
      else { break }
      chunks.append(Chunk(offset: offset, bytes: length, firstPoint: firstPoint, points: count))
      offset += length
      firstPoint += count
    }
    return chunks
  }
}
