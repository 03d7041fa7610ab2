import CloudScrubCore
import Foundation

/// Reads an ASCII vertex element whose properties are all scalars, on every core when
/// the file has one record a line (as every common writer does).
///
/// The records are split at line starts into one piece a core; the newlines of each
/// piece are counted to find which record it starts with, and each piece is parsed into
/// its own rows of the shared columns. A piece that turns out not to hold one record a
/// line (a record spanning lines, blank lines) sends the whole element back to the
/// one-core token stream, which reads any layout and reports errors with their line.
struct ASCIIVertexReader {
  let bytes: UnsafeRawBufferPointer
  let element: PLYElement
  let layout: PLYVertexLayout

  /// Whether this reader applies: the element has no list property.
  static func applies(to element: PLYElement) -> Bool { element.fixedRecordSize != nil }

  func read(tokens: inout ASCIITokenizer, progress: ProgressHandler?) throws(PLYError) -> PointCloud
  {
    let count = element.count
    let fields = planFields()
    var positions = [Point3](repeating: .zero, count: count)
    var normals = [Point3](repeating: .zero, count: layout.normal == nil ? 0 : count)
    var colors = [RGB8](repeating: RGB8(0, 0, 0), count: layout.color == nil ? 0 : count)
    let attributeStorage = layout.attributes.map { _ in
      let pointer = UnsafeMutablePointer<Double>.allocate(capacity: count)
      pointer.initialize(repeating: 0, count: count)
      return pointer
    }
    defer { attributeStorage.forEach { $0.deallocate() } }

    let outcome = positions.withUnsafeMutableBufferPointer { positions in
      normals.withUnsafeMutableBufferPointer { normals in
        colors.withUnsafeMutableBufferPointer { colors in
          positions.withMemoryRebound(to: Float.self) { positionFloats in
            normals.withMemoryRebound(to: Float.self) { normalFloats in
              colors.withMemoryRebound(to: UInt8.self) { colorBytes in
                let columns = ASCIIVertexColumns(
                  positions: positionFloats.baseAddress.unsafelyUnwrapped,
                  normals: layout.normal == nil ? nil : normalFloats.baseAddress,
                  colors: layout.color == nil ? nil : colorBytes.baseAddress,
                  attributes: attributeStorage)
                let chunk = ASCIIVertexChunk(
                  base: bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self),
                  element: element, fields: fields, columns: columns)
                if let parallel = parseInParallel(chunk, tokens: tokens, progress: progress) {
                  return parallel
                }
                return chunk.parse(
                  from: tokens.cursor, to: bytes.count, line: tokens.line, records: 0..<count,
                  onePerLine: false, progress: progress)
              }
            }
          }
        }
      }
    }
    switch outcome {
    case .done(let cursor, let line):
      tokens.move(to: cursor, line: line)
    case .failed(let error):
      throw error
    case .misaligned:
      preconditionFailure("the one-core parse never reports misalignment")
    }
    progress?(1)
    let attributes = zip(layout.attributes, attributeStorage).map { property, storage in
      PointAttribute(
        name: PLYVertexLayout.attributeName(for: element.properties[property].name),
        values: AttributeValues(
          converting: Array(UnsafeBufferPointer(start: storage, count: count)),
          to: scalarType(property)))
    }
    return PointCloud(
      positions: positions, colors: layout.color == nil ? nil : colors,
      normals: layout.normal == nil ? nil : normals, attributes: attributes)
  }

  // MARK: - Plan

  private func scalarType(_ property: Int) -> ScalarType {
    if case .scalar(let type) = element.properties[property].kind { return type }
    preconditionFailure("the fast reader is used only when every property is a scalar")
  }

  private func planFields() -> [(field: ASCIIField, type: ScalarType)] {
    var fields = element.properties.indices.map { (field: ASCIIField.skip, type: scalarType($0)) }
    for (slot, property) in layout.position.enumerated() {
      if let property { fields[property].field = .position(slot) }
    }
    for (slot, property) in (layout.normal ?? []).enumerated() {
      fields[property].field = .normal(slot)
    }
    for (channel, property) in (layout.color ?? []).enumerated() {
      fields[property].field = .color(channel)
    }
    for (column, property) in layout.attributes.enumerated() {
      fields[property].field = .attribute(column)
    }
    return fields
  }

  // MARK: - Parallel

  /// The smallest element worth splitting across cores.
  static let parallelThreshold = 50_000

  private func parseInParallel(
    _ chunk: ASCIIVertexChunk, tokens: ASCIITokenizer, progress: ProgressHandler?
  ) -> ASCIIVertexChunk.Outcome? {
    let cores = Parallel.cores
    let count = element.count
    guard cores > 1, count >= Self.parallelThreshold else { return nil }
    let base = chunk.base
    let end = bytes.count
    // The records must start at a line start: past the rest of the current line, which
    // must be blank.
    var start = tokens.cursor
    var line = tokens.line
    if start > 0 && base[start - 1] != 10 {
      while start < end && base[start] != 10 {
        guard base[start] <= 32 else { return nil }
        start += 1
      }
      guard start < end else { return nil }
      start += 1
      line += 1
    }
    // Pieces of about equal size, each starting at a line start.
    var bounds = [start]
    for k in 1..<cores {
      var b = max(start + (end - start) * k / cores, bounds[k - 1])
      while b < end && b > start && base[b - 1] != 10 { b += 1 }
      bounds.append(b)
    }
    bounds.append(end)
    let pieces = cores
    let pieceBounds = bounds
    let lineCounts = ParallelSlots(count: pieces, initial: 0)
    Parallel.perform(iterations: pieces) { k in
      lineCounts[k] = Self.countLines(
        chunk.base, pieceBounds[k]..<pieceBounds[k + 1], fileEnd: end)
    }
    // Which records each piece holds: one a line.
    var firstRecord = 0
    var ranges: [Range<Int>] = []
    for k in 0..<pieces {
      ranges.append(min(firstRecord, count)..<min(firstRecord + lineCounts[k], count))
      firstRecord += lineCounts[k]
    }
    guard firstRecord >= count, let lastPiece = ranges.lastIndex(where: { !$0.isEmpty }) else {
      return nil
    }
    let outcomes = ParallelSlots<ASCIIVertexChunk.Outcome?>(count: pieces, initial: nil)
    let pieceRanges = ranges
    let firstLine = line
    let reporter = SendableBox(progress)
    Parallel.perform(iterations: lastPiece + 1) { k in
      let ranges = pieceRanges
      let bounds = pieceBounds
      guard !ranges[k].isEmpty else { return }
      // Every piece but the last must hold exactly one record a line, so that the next
      // piece starts at a record. The last is read as a token stream to its last record,
      // exactly as the one-core reader would read it from there.
      let last = k == lastPiece
      outcomes[k] = chunk.parse(
        from: bounds[k], to: last ? end : bounds[k + 1], line: firstLine + ranges[k].lowerBound,
        records: last ? ranges[k].lowerBound..<count : ranges[k], onePerLine: !last,
        progress: k == 0 ? reporter.value : nil)
    }
    for k in 0..<lastPiece where !ranges[k].isEmpty {
      guard case .done? = outcomes[k] else { return nil }
    }
    guard case .done(let cursor, let lastLine)? = outcomes[lastPiece] else { return nil }
    return .done(cursor: cursor, line: lastLine)
  }

  /// Lines in `range`: its newlines, plus one for text after the last newline at the
  /// end of the file. Eight bytes at a time: a byte of `word ^ 0x0A…` is zero exactly
  /// where the word holds a newline.
  private static func countLines(
    _ base: UnsafePointer<UInt8>, _ range: Range<Int>, fileEnd: Int
  ) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var newlines = 0
    var i = range.lowerBound
    let raw = UnsafeRawPointer(base)
    while i &+ 8 <= range.upperBound {
      let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ (ones &* 10)
      // High bit set in each byte of `zeros` whose byte in x is zero.
      let zeros = ~(((x & low7) &+ low7) | x | low7)
      newlines &+= zeros.nonzeroBitCount
      i &+= 8
    }
    while i < range.upperBound {
      newlines &+= base[i] == 10 ? 1 : 0
      i &+= 1
    }
    if range.upperBound == fileEnd && !range.isEmpty && base[fileEnd - 1] != 10 { newlines += 1 }
    return newlines
  }
}

/// A value handed, unchanged, to concurrent tasks.
final class SendableBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
