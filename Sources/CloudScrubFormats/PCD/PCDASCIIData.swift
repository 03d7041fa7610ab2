import CloudScrubCore

/// PCD ASCII data turned into binary records (little-endian, laid out as `DATA binary`
/// would lay them out), so that one decoder serves both. The lines are scanned on
/// every core straight from the mapped bytes (`TextRows`).
enum PCDASCIIData {
  /// The records of the ASCII body `body`, one line a point, telling `progress` the
  /// share of the lines counted and then parsed.
  ///
  /// - Throws: `PCDErrorReason` naming the line and field at fault; before
  ///   allocating, a point count that the body's bytes cannot hold (two bytes a value
  ///   at least).
  static func records(
    _ body: UnsafeRawBufferPointer, header: PCDHeader, progress: ProgressHandler? = nil
  ) throws(PCDErrorReason) -> [UInt8] {
    let columns = PCDColumn.interleaved(header.fields)
    let (minimumBytes, overflow) = header.points.multipliedReportingOverflow(
      by: 2 * max(1, columns.count))
    guard !overflow, minimumBytes <= body.count + 1 else {
      throw .truncated(
        points: header.points, expectedBytes: overflow ? Int.max : minimumBytes,
        availableBytes: body.count)
    }
    guard header.points > 0 else { return [] }
    guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      throw .missingLines(points: header.points, lines: 0)
    }
    let share = TextRows.countingShare
    let chunks = TextRows.chunks(
      base, from: 0, to: body.count, firstLine: header.dataLine,
      progress: ProgressParts.part(progress, from: 0, to: share))
    let rows = chunks.reduce(0) { $0 + $1.rows }
    var failure: TextRowFailure?
    let records = [UInt8](unsafeUninitializedCapacity: header.points * header.recordSize) {
      buffer, initialized in
      buffer.initialize(repeating: 0)
      initialized = buffer.count
      guard let out = buffer.baseAddress else { return }
      let sink = PCDTextSink(
        records: UnsafeMutableRawPointer(out), recordSize: header.recordSize, columns: columns)
      failure = TextRows.parse(
        base, chunks: chunks, columns: columns.count, commas: false, rowLimit: header.points,
        into: sink, progress: ProgressParts.part(progress, from: share, to: 1))
    }
    switch failure {
    case .valueCount(let line, let got)?:
      throw .valueCount(line: line, expected: columns.count, got: got)
    case .badValue(let line, let column, let token)?:
      throw .badNumber(line: line, field: columns[column].name, token: token)
    case nil:
      guard rows >= header.points else {
        throw .missingLines(points: header.points, lines: rows)
      }
      return records
    }
  }
}

/// Stores PCD ASCII values in binary records, each in its field's type.
private struct PCDTextSink: TextRowSink, @unchecked Sendable {
  enum Kind {
    case float4, float8, packedColor, unsigned(bits: Int), signed(bits: Int)
  }

  let records: UnsafeMutableRawPointer
  let recordSize: Int
  let kinds: [Kind]
  let offsets: [Int]
  let sizes: [Int]

  init(records: UnsafeMutableRawPointer, recordSize: Int, columns: [PCDColumn]) {
    self.records = records
    self.recordSize = recordSize
    offsets = columns.map(\.offset)
    sizes = columns.map(\.size)
    kinds = columns.map { column in
      let isColor = column.name == "rgb" || column.name == "rgba"
      switch column.type {
      case "F" where isColor && column.size == 4: return .packedColor
      case "F": return column.size == 4 ? .float4 : .float8
      case "U": return .unsigned(bits: column.size * 8)
      default: return .signed(bits: column.size * 8)
      }
    }
  }

  func store(
    row: Int, column: Int, decimal: DecimalParts?, token: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let at = records + row * recordSize + offsets[column]
    switch kinds[column] {
    case .float4:
      guard let value = ASCIINumberParser.float(decimal, token) else { return false }
      at.storeBytes(of: value.bitPattern.littleEndian, as: UInt32.self)
      return true
    case .float8:
      guard let value = ASCIINumberParser.double(decimal, token) else { return false }
      at.storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
      return true
    case .packedColor:
      // PCL writes a float rgb as its packed integer in ASCII; other writers print
      // the float itself.
      if let integer = Self.integer(decimal, token), integer >= 0, integer <= Int64(UInt32.max) {
        at.storeBytes(of: UInt32(integer).littleEndian, as: UInt32.self)
        return true
      }
      guard let value = ASCIINumberParser.float(decimal, token) else { return false }
      at.storeBytes(of: value.bitPattern.littleEndian, as: UInt32.self)
      return true
    case .unsigned(let bits):
      guard let value = Self.integer(decimal, token), value >= 0,
        bits == 64 || value < Int64(1) << bits
      else { return false }
      store(UInt64(value), at, sizes[column])
      return true
    case .signed(let bits):
      guard let value = Self.integer(decimal, token),
        bits == 64 || (value >= -(Int64(1) << (bits - 1)) && value < Int64(1) << (bits - 1))
      else { return false }
      store(UInt64(bitPattern: value), at, sizes[column])
      return true
    }
  }

  /// The low `size` bytes of `value`, little-endian.
  @inline(__always)
  private func store(_ value: UInt64, _ at: UnsafeMutableRawPointer, _ size: Int) {
    switch size {
    case 1: at.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
    case 2: at.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, as: UInt16.self)
    case 4: at.storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, as: UInt32.self)
    default: at.storeBytes(of: value.littleEndian, as: UInt64.self)
    }
  }

  /// A token of digits and minus signs only, as a whole number.
  @inline(__always)
  private static func integer(_ decimal: DecimalParts?, _ token: UnsafeBufferPointer<UInt8>)
    -> Int64?
  {
    guard let base = token.baseAddress,
      token.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D })
    else { return nil }
    if let decimal { return ASCIINumberParser.integer(decimal) }
    return ASCIINumberParser.parseInteger(base, token.count)
  }
}
