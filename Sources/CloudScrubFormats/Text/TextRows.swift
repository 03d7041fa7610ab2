import CloudScrubCore
import Foundation

/// Where a text reader keeps the values of its rows: it is handed each value as the
/// decimal the scanner read (nil when the token is no plain decimal) and its bytes.
protocol TextRowSink {
  /// Stores value `column` of row `row`; false when the token is no value of the column.
  func store(
    row: Int, column: Int, decimal: DecimalParts?, token: UnsafeBufferPointer<UInt8>
  ) -> Bool
}

/// Why a text row could not be read.
enum TextRowFailure: Equatable {
  /// Line `line` holds `got` values, not the expected number.
  case valueCount(line: Int, got: Int)
  /// Value `column` (0-based) of line `line` is no number of its column.
  case badValue(line: Int, column: Int, token: String)

  var line: Int {
    switch self {
    case .valueCount(let line, _), .badValue(let line, _, _): line
    }
  }
}

/// A line-aligned piece of a text body: its bytes, the number of its first line, the
/// index of its first row, how many rows (lines neither blank nor `#` comments) it holds,
/// and its first comment lines.
struct TextRowChunk: Sendable {
  var start: Int
  var end: Int
  var firstLine = 0
  var firstRow = 0
  var lines = 0
  var rows = 0
  /// The byte ranges of its `#` lines, at most `TextRows.commentLimit`.
  var comments: [Range<Int>] = []
}

/// Reads the rows of a text body (PCD ASCII data, XYZ text) on every core: the body is
/// cut at line breaks into pieces, each piece's lines and rows are counted, then each
/// piece's values are scanned straight from the mapped bytes into their columns.
///
/// Values are separated by spaces and tabs (and commas, when asked); a line break may
/// be `\n` or `\r\n`. Lines that are blank or start with `#` are no rows.
enum TextRows {
  /// Comment lines a piece keeps (a reader keeps no more in all).
  static let commentLimit = 1000

  /// The share of a read's progress that counting the pieces takes (`chunks`), before
  /// they are parsed (`parse`): the first pass over the bytes, which reads them from
  /// the disk when they are not cached.
  static let countingShare = 0.3

  /// The pieces of `base[start..<end]`, whose first line is `firstLine`, counted,
  /// telling `progress` the share of the pieces counted.
  static func chunks(
    _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, firstLine: Int,
    progress: ProgressHandler? = nil
  ) -> [TextRowChunk] {
    let cores = Parallel.cores
    // Enough pieces for progress in steps of a few hundredths (`parse`).
    let pieces = max(1, min(max(cores * 4, 64), (end - start) >> 20))
    var bounds = [start]
    for k in 1..<max(pieces, 1) {
      let target = max(start + (end - start) * k / pieces, bounds[bounds.count - 1])
      let next = lineEnd(base, from: target, to: end)
      let cut = min(next + 1, end)
      if cut > bounds[bounds.count - 1] && cut < end { bounds.append(cut) }
    }
    bounds.append(end)
    let cuts = bounds
    let slots = ParallelSlots(
      count: bounds.count - 1, initial: TextRowChunk(start: 0, end: 0))
    nonisolated(unsafe) let base = base
    Parallel.forEachRange(
      cuts.count - 1, minimumPerTask: 1, slabs: cuts.count - 1, progress: progress
    ) { range in
      for k in range { slots[k] = count(base, from: cuts[k], to: cuts[k + 1]) }
    }
    var chunks = (0..<slots.count).map { slots[$0] }
    var line = firstLine
    var row = 0
    for k in chunks.indices {
      chunks[k].firstLine = line
      chunks[k].firstRow = row
      line += chunks[k].lines
      row += chunks[k].rows
    }
    return chunks
  }

  /// Scans the first `rowLimit` rows of every piece, `columns` values a row, into `sink`;
  /// the failure on the earliest line, if any.
  static func parse<Sink: TextRowSink & Sendable>(
    _ base: UnsafePointer<UInt8>, chunks: [TextRowChunk], columns: Int, commas: Bool,
    rowLimit: Int = .max, into sink: Sink, progress: ProgressHandler? = nil
  ) -> TextRowFailure? {
    let failures = ParallelSlots<TextRowFailure?>(count: chunks.count, initial: nil)
    nonisolated(unsafe) let base = base
    Parallel.forEachRange(
      chunks.count, minimumPerTask: 1, slabs: chunks.count, progress: progress
    ) { range in
      for k in range {
        failures[k] = parse(
          base, chunk: chunks[k], columns: columns, commas: commas, rowLimit: rowLimit,
          into: sink)
        if failures[k] != nil { break }
      }
    }
    return (0..<chunks.count).lazy.compactMap { failures[$0] }.min { $0.line < $1.line }
  }

  // MARK: - One piece

  @inline(__always)
  private static func isSeparator(_ byte: UInt8, _ commas: Bool) -> Bool {
    byte == 0x20 || byte == 0x09 || (commas && byte == 0x2C)
  }

  /// The index of the first line break at or after `from`, or `end`.
  @inline(__always)
  private static func lineEnd(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
    guard from < end, let found = memchr(base + from, 0x0A, end - from) else { return end }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

  /// The end of line `start..<lineBreak` without a carriage return.
  @inline(__always)
  private static func trimmed(_ base: UnsafePointer<UInt8>, _ start: Int, _ lineBreak: Int)
    -> Int
  {
    lineBreak > start && base[lineBreak - 1] == 0x0D ? lineBreak - 1 : lineBreak
  }

  /// The first byte of a line that is no space or tab, if any.
  @inline(__always)
  private static func firstByte(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int)
    -> UInt8?
  {
    var i = start
    while i < end && (base[i] == 0x20 || base[i] == 0x09) { i += 1 }
    return i < end ? base[i] : nil
  }

  private static func count(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int)
    -> TextRowChunk
  {
    var chunk = TextRowChunk(start: start, end: end)
    var i = start
    while i < end {
      let lineBreak = lineEnd(base, from: i, to: end)
      let last = trimmed(base, i, lineBreak)
      chunk.lines += 1
      switch firstByte(base, i, last) {
      case nil: break
      case UInt8(ascii: "#"):
        if chunk.comments.count < commentLimit { chunk.comments.append(i..<last) }
      default: chunk.rows += 1
      }
      i = lineBreak + 1
    }
    return chunk
  }

  /// How many tokens `start..<end` holds, split at spaces, tabs and (when `commas`)
  /// commas; `TextLines.tokenCount` counts a line with it too.
  static func tokenCount(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ commas: Bool
  ) -> Int {
    var count = 0
    var i = start
    while i < end {
      while i < end && isSeparator(base[i], commas) { i += 1 }
      if i < end { count += 1 }
      while i < end && !isSeparator(base[i], commas) { i += 1 }
    }
    return count
  }

  private static func parse<Sink: TextRowSink>(
    _ base: UnsafePointer<UInt8>, chunk: TextRowChunk, columns: Int, commas: Bool,
    rowLimit: Int, into sink: Sink
  ) -> TextRowFailure? {
    var row = chunk.firstRow
    var line = chunk.firstLine
    var i = chunk.start
    while i < chunk.end && row < rowLimit {
      let lineBreak = lineEnd(base, from: i, to: chunk.end)
      let last = trimmed(base, i, lineBreak)
      defer {
        i = lineBreak + 1
        line += 1
      }
      guard let first = firstByte(base, i, last), first != UInt8(ascii: "#") else { continue }
      var at = i
      for column in 0..<columns {
        while at < last && isSeparator(base[at], commas) { at += 1 }
        guard at < last else {
          return .valueCount(line: line, got: tokenCount(base, i, last, commas))
        }
        let tokenStart = at
        var decimal = ASCIINumberParser.scanDecimal(base, &at, last)
        if at < last && !isSeparator(base[at], commas) {
          decimal = nil
          while at < last && !isSeparator(base[at], commas) { at += 1 }
        }
        let token = UnsafeBufferPointer(start: base + tokenStart, count: at - tokenStart)
        guard sink.store(row: row, column: column, decimal: decimal, token: token) else {
          let got = tokenCount(base, i, last, commas)
          if got != columns { return .valueCount(line: line, got: got) }
          return .badValue(
            line: line, column: column, token: InputExcerpt.of(token))
        }
      }
      while at < last && isSeparator(base[at], commas) { at += 1 }
      if at < last { return .valueCount(line: line, got: tokenCount(base, i, last, commas)) }
      row += 1
    }
    return nil
  }
}

extension ASCIINumberParser {
  /// The token's `Float`, from its scanned decimal when the fast path decides it.
  @inline(__always)
  static func float(_ decimal: DecimalParts?, _ token: UnsafeBufferPointer<UInt8>) -> Float? {
    if let decimal, let value = float(decimal) { return value }
    guard let base = token.baseAddress else { return nil }
    return parseFloat(base, token.count)
  }

  /// The token's `Double`, from its scanned decimal when the fast path decides it.
  @inline(__always)
  static func double(_ decimal: DecimalParts?, _ token: UnsafeBufferPointer<UInt8>) -> Double? {
    if let decimal, let value = double(decimal) { return value }
    guard let base = token.baseAddress else { return nil }
    return parseDouble(base, token.count)
  }
}
