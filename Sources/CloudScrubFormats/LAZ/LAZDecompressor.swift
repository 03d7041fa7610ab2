import CloudScrubCore
import Foundation

/// Turns a LAZ file's compressed points back into the LAS point records they were, chunk
/// by chunk on every core, so the LAS reader reads them as it reads any LAS file.
enum LAZDecompressor {
  /// More points than this a compressed byte are taken for a corrupt count: real
  /// records take a byte or more each (scanners' data 2–10), and only contrived runs of
  /// equal points come below half a bit.
  static let mostPointsPerByte = 16

  /// The records decoded, and what the reader should say about them.
  struct Records: @unchecked Sendable {
    /// `points` records of `recordLength` bytes.
    let storage: UnsafeMutableRawBufferPointer
    var points: Int
    var notes: [String] = []

    var bytes: UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: storage[0..<(points * recordLength)])
    }
    let recordLength: Int

    func deallocate() { storage.deallocate() }
  }

  /// Decodes `points` records of `recordLength` bytes compressed as `parameters` says,
  /// starting at `pointOffset` in `file`.
  ///
  /// - Parameter keepingGoodChunks: on a corrupt chunk after the first, keep the records
  ///   of the chunks before it, with a note, instead of throwing (the window shows what
  ///   reads).
  /// - Throws: `LASErrorReason.laz` for a file whose compression cannot be read, and
  ///   `.lazChunk` naming the first chunk and point that cannot be decoded.
  /// - Parameter copc: a COPC file's hierarchy, whose nodes are the chunks when the
  ///   chunk table cannot be read.
  static func records(
    file: UnsafeRawBufferPointer, pointOffset: Int, points: Int, recordLength: Int,
    parameters: LAZParameters, keepingGoodChunks: Bool = false, copc: LASCOPCHierarchy? = nil
  ) throws(LASErrorReason) -> Records {
    let (chunks, notes) = try chunks(
      file: file, pointOffset: pointOffset, points: points, recordLength: recordLength,
      parameters: parameters, copc: copc)
    return try decode(
      file: file, chunks: chunks, points: points, recordLength: recordLength,
      parameters: parameters, keepingGoodChunks: keepingGoodChunks, notes: notes)
  }

  /// The chunks of the compressed points, from the chunk table, a COPC file's
  /// hierarchy, or a walk from chunk to chunk; with a note on where they came from when
  /// not from the table.
  ///
  /// - Throws: as `records(file:…)` does.
  static func chunks(
    file: UnsafeRawBufferPointer, pointOffset: Int, points: Int, recordLength: Int,
    parameters: LAZParameters, copc: LASCOPCHierarchy?
  ) throws(LASErrorReason) -> (chunks: [LAZChunkTable.Chunk], notes: [String]) {
    guard parameters.recordLength == recordLength else {
      throw .laz(
        "its laszip record's items make records of \(parameters.recordLength) bytes, the "
          + "header says \(recordLength)")
    }
    let layered = parameters.compressor == .layeredChunked
    if layered {
      try LAZLayeredChunk.check(parameters.items)
    } else {
      try LAZPointwiseChunk.check(parameters.items)
    }
    if parameters.compressor == .pointwise {
      let bytes = file.count - pointOffset
      guard bytes > 0, points <= mostPointsPerByte * bytes else {
        throw .laz(
          "it promises \(points) points, more than its \(max(bytes, 0)) bytes of points hold")
      }
      return (
        [LAZChunkTable.Chunk(offset: pointOffset, bytes: bytes, firstPoint: 0, points: points)],
        []
      )
    }
    do {
      let table = try LAZChunkTable(
        file: file, pointOffset: pointOffset, points: points, chunkSize: parameters.chunkSize)
      return (table.chunks, [])
    } catch {
      guard case .laz(let problem) = error else { throw error }
      // A COPC file's hierarchy lists every chunk, as a COPC reader reads it.
      if let copc, !copc.entries.isEmpty {
        var first = 0
        let chunks = copc.entries.sorted { $0.offset < $1.offset }.map { node in
          defer { first += node.points }
          return LAZChunkTable.Chunk(
            offset: node.offset, bytes: node.bytes, firstPoint: first, points: node.points)
        }
        return (chunks, ["\(problem), so its chunks were found from its COPC hierarchy"])
      }
      // Without its table a file of fixed-size chunks is read chunk after chunk, as
      // LASzip's and lazrs's sequential readers read it.
      guard let size = parameters.chunkSize, pointOffset + 8 <= file.count else { throw error }
      let chunks = LAZChunkTable.walk(
        file: file, pointOffset: pointOffset, end: file.count, points: points,
        chunkSize: size, items: parameters.items, recordLength: recordLength,
        layered: layered)
      guard !chunks.isEmpty || points == 0 else { throw error }
      return (chunks, ["\(problem), so its chunks were read one after another"])
    }
  }

  /// Decodes `chunks` on every core (`records(file:…)` without finding them).
  private static func decode(
    file: UnsafeRawBufferPointer, chunks: [LAZChunkTable.Chunk], points: Int,
    recordLength: Int, parameters: LAZParameters, keepingGoodChunks: Bool, notes: [String]
  ) throws(LASErrorReason) -> Records {
    let layered = parameters.compressor == .layeredChunked
    let held = chunks.last.map { $0.firstPoint + $0.points } ?? 0
    let total = min(points, held)
    try checkMemory(held: held, recordLength: recordLength)
    let storage = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(held, 1) * recordLength, alignment: 16)
    if let base = storage.baseAddress { adviseHugePages(base, byteCount: storage.count) }
    let problems = ParallelSlots<(point: Int, problem: String)?>(count: chunks.count, initial: nil)
    let items = parameters.items
    nonisolated(unsafe) let file = file
    nonisolated(unsafe) let output = storage.baseAddress.unsafelyUnwrapped
    Parallel.perform(iterations: chunks.count) { index in
      let chunk = chunks[index]
      problems[index] = decode(
        chunk, of: file, items: items, layered: layered, recordLength: recordLength,
        into: output + chunk.firstPoint * recordLength)
    }
    var records = Records(
      storage: storage, points: total, notes: notes, recordLength: recordLength)
    if held < points {
      records.notes.append("the chunks hold \(held) of the \(points) points the header promises")
    }
    for index in 0..<chunks.count {
      guard let problem = problems[index] else { continue }
      let point = chunks[index].firstPoint + problem.point
      let error = LASErrorReason.lazChunk(chunk: index, point: point, problem: problem.problem)
      guard keepingGoodChunks, index > 0, chunks[index].firstPoint <= total else {
        storage.deallocate()
        throw error
      }
      records.points = chunks[index].firstPoint
      records.notes.append("\(error); the \(records.points) points before it are read")
      break
    }
    return records
  }
}

extension LAZDecompressor {
  /// Decodes the records a batch of whole chunks at a time (about `batchPoints`
  /// records, on every core) and hands each batch to `take` in file order, so that no
  /// more than a batch's records are held at once; `prepare` first learns how many
  /// records will come at most.
  ///
  /// - Returns: the records handed over, and what the reader should say about them.
  /// - Throws: as `records(file:…)` does; `take` has then seen the batches before the
  ///   corrupt chunk's.
  static func forEachBatch(
    file: UnsafeRawBufferPointer, pointOffset: Int, points: Int, recordLength: Int,
    parameters: LAZParameters, keepingGoodChunks: Bool = false, copc: LASCOPCHierarchy? = nil,
    batchPoints: Int = 1 << 22, prepare: (Int) -> Void,
    take: (UnsafeRawBufferPointer, Int) -> Void
  ) throws(LASErrorReason) -> (points: Int, notes: [String]) {
    let found = try self.chunks(
      file: file, pointOffset: pointOffset, points: points, recordLength: recordLength,
      parameters: parameters, copc: copc)
    let chunks = found.chunks
    var notes = found.notes
    let held = chunks.last.map { $0.firstPoint + $0.points } ?? 0
    let total = min(points, held)
    try checkMemory(held: held, recordLength: recordLength)
    if held < points {
      notes.append("the chunks hold \(held) of the \(points) points the header promises")
    }
    prepare(total)
    // Whole chunks, about `batchPoints` records a batch.
    var batches: [Range<Int>] = []
    var largest = 0
    var start = 0
    while start < chunks.count {
      var end = start + 1
      var count = chunks[start].points
      while end < chunks.count, count < batchPoints {
        count += chunks[end].points
        end += 1
      }
      batches.append(start..<end)
      largest = max(largest, count)
      start = end
    }
    let storage = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(largest, 1) * recordLength, alignment: 16)
    defer { storage.deallocate() }
    if let base = storage.baseAddress { adviseHugePages(base, byteCount: storage.count) }
    let layered = parameters.compressor == .layeredChunked
    let items = parameters.items
    nonisolated(unsafe) let file = file
    nonisolated(unsafe) let output = storage.baseAddress.unsafelyUnwrapped
    var delivered = 0
    for batch in batches {
      let first = chunks[batch.lowerBound].firstPoint
      let problems = ParallelSlots<(point: Int, problem: String)?>(
        count: batch.count, initial: nil)
      Parallel.perform(iterations: batch.count) { slot in
        let chunk = chunks[batch.lowerBound + slot]
        problems[slot] = decode(
          chunk, of: file, items: items, layered: layered, recordLength: recordLength,
          into: output + (chunk.firstPoint - first) * recordLength)
      }
      let last = chunks[batch.upperBound - 1]
      var end = last.firstPoint + last.points
      var stopped: LASErrorReason?
      if let slot = (0..<batch.count).first(where: { problems[$0] != nil }),
        let problem = problems[slot]
      {
        let index = batch.lowerBound + slot
        let error = LASErrorReason.lazChunk(
          chunk: index, point: chunks[index].firstPoint + problem.point, problem: problem.problem)
        guard keepingGoodChunks, index > 0, chunks[index].firstPoint <= total else { throw error }
        end = chunks[index].firstPoint
        stopped = error
      }
      let count = max(0, min(end, total) - first)
      if count > 0 {
        take(UnsafeRawBufferPointer(rebasing: storage[0..<(count * recordLength)]), count)
      }
      delivered = first + count
      if let stopped {
        notes.append("\(stopped); the \(end) points before it are read")
        break
      }
    }
    return (delivered, notes)
  }

  /// Decodes one chunk's records into `output`.
  ///
  /// - Returns: nil, or the point in the chunk where decoding failed and why.
  private static func decode(
    _ chunk: LAZChunkTable.Chunk, of file: UnsafeRawBufferPointer, items: [LAZParameters.Item],
    layered: Bool, recordLength: Int, into output: UnsafeMutableRawPointer
  ) -> (point: Int, problem: String)? {
    let bytes = UnsafeRawBufferPointer(rebasing: file[chunk.offset..<(chunk.offset + chunk.bytes)])
    return layered
      ? LAZLayeredChunk.decode(
        bytes, items: items, points: chunk.points, recordLength: recordLength, into: output)
      : LAZPointwiseChunk.decode(
        bytes, items: items, points: chunk.points, recordLength: recordLength, into: output)
  }

  /// Refuses chunks whose records would take more than half this machine's memory.
  static func checkMemory(held: Int, recordLength: Int) throws(LASErrorReason) {
    let (bytes, overflow) = max(held, 1).multipliedReportingOverflow(by: recordLength)
    let memory = Int(clamping: ProcessInfo.processInfo.physicalMemory / 2)
    guard !overflow, bytes <= memory else {
      throw .laz(
        "its chunks hold \(held) records of \(recordLength) bytes, more than half this "
          + "machine's memory (\(memory / 1_000_000) MB) holds")
    }
  }
}
