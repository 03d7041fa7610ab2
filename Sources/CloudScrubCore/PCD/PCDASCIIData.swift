/// PCD ASCII data turned into binary records (little-endian, laid out as `DATA binary`
/// would lay them out), so that one decoder serves both.
enum PCDASCIIData {
  /// The records of the ASCII body `body`, one line a point.
  ///
  /// - Throws: `PCDErrorReason` naming the line and field at fault; before
  ///   allocating, a point count that the body's bytes cannot hold (two bytes a value
  ///   at least).
  static func records(
    _ body: UnsafeRawBufferPointer, header: PCDHeader
  ) throws(PCDErrorReason) -> [UInt8] {
    let columns = PCDColumn.interleaved(header.fields)
    let (minimumBytes, overflow) = header.points.multipliedReportingOverflow(
      by: 2 * max(1, columns.count))
    guard !overflow, minimumBytes <= body.count + 1 else {
      throw .truncated(
        points: header.points, expectedBytes: overflow ? Int.max : minimumBytes,
        availableBytes: body.count)
    }
    var records = [UInt8](repeating: 0, count: header.points * header.recordSize)
    var lines = TextLines(body, firstLine: header.dataLine)
    var point = 0
    while point < header.points {
      guard let line = lines.next() else {
        throw .missingLines(points: header.points, lines: point)
      }
      let number = lines.lineNumber - 1
      if lines.isBlank(line) || lines.firstByte(line) == UInt8(ascii: "#") { continue }
      let tokens = lines.tokens(line, commas: false)
      guard tokens.count == columns.count else {
        throw .valueCount(line: number, expected: columns.count, got: tokens.count)
      }
      let base = point * header.recordSize
      for (column, token) in zip(columns, tokens) {
        guard let stored = store(token, column, lines) else {
          throw .badNumber(line: number, field: column.name, token: lines.text(token))
        }
        let at = base + column.offset
        withUnsafeBytes(of: stored.littleEndian) { bytes in
          for k in 0..<column.size { records[at + k] = bytes[k] }
        }
      }
      point += 1
    }
    return records
  }

  /// The token's value in the column's type, as the low `size` bytes of a `UInt64`.
  private static func store(_ token: Range<Int>, _ column: PCDColumn, _ lines: TextLines)
    -> UInt64?
  {
    let isColor = column.name == "rgb" || column.name == "rgba"
    if column.type == "F" && !(isColor && column.size == 4) {
      if column.size == 4 { return lines.float(token).map { UInt64($0.bitPattern) } }
      return lines.double(token).map(\.bitPattern)
    }
    if column.type == "F" {
      // PCL writes a float rgb as its packed integer in ASCII; other writers print
      // the float itself.
      if let integer = integer(token, lines), integer >= 0, integer <= Int64(UInt32.max) {
        return UInt64(integer)
      }
      return lines.float(token).map { UInt64($0.bitPattern) }
    }
    guard let value = integer(token, lines) else { return nil }
    let bits = column.size * 8
    if column.type == "U" {
      guard value >= 0, bits == 64 || value < Int64(1) << bits else { return nil }
      return UInt64(value)
    }
    guard bits == 64 || (value >= -(Int64(1) << (bits - 1)) && value < Int64(1) << (bits - 1))
    else { return nil }
    return UInt64(bitPattern: value)
  }

  private static func integer(_ token: Range<Int>, _ lines: TextLines) -> Int64? {
    guard let base = lines.bytes.baseAddress,
      token.allSatisfy({ (0x30...0x39).contains(lines.bytes[$0]) || lines.bytes[$0] == 0x2D })
    else { return nil }
    return ASCIINumberParser.parseInteger(
      base.assumingMemoryBound(to: UInt8.self) + token.lowerBound, token.count)
  }
}
