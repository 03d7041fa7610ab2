import CloudScrubCore
import Foundation

/// A text point file that cannot be read: what is wrong and where, and the path.
public typealias XYZError = InputFileError<XYZErrorReason>

/// What is wrong with a text point file, without the path.
public enum XYZErrorReason: Error, Equatable, Sendable, CustomStringConvertible {
  case noPoints
  case tooFewColumns(line: Int, got: Int)
  case columnCount(line: Int, expected: Int, got: Int)
  case badNumber(line: Int, column: Int, token: String)
  case noCoordinateColumns(header: [String])

  public var description: String {
    switch self {
    case .noPoints: return "text point file has no line of numbers"
    case .tooFewColumns(let line, let got):
      return "line \(line) has \(got) values; a point needs x y z at least"
    case .columnCount(let line, let expected, let got):
      return "line \(line) has \(got) values, the lines before it \(expected)"
    case .badNumber(let line, let column, let token):
      return "line \(line), column \(column + 1) is not a number: '\(token)'"
    case .noCoordinateColumns(let header):
      return "header line names no x, y and z columns (\(header.joined(separator: " ")))"
    }
  }
}

/// Reads points from text: XYZ, TXT or CSV, one point a line, values separated by
/// spaces, tabs or commas; `#` lines are comments. An optional first line of column
/// names (or CloudScrub's `# columns:` comment) says which column is what (`x y z`,
/// `r g b` or `red green blue`, `nx ny nz`, anything else an attribute); without one,
/// the columns are `x y z`, then `r g b` when there are six or more, the rest
/// attributes named `column_N`. Every value is rounded once to `Float`. Colours in 0–1 (every value at most 1, some
/// fractional) are scaled to 0–255; others are rounded and clamped.
public enum XYZReader {
  /// A text point file read: its points and its `#` comment lines (without the `#`).
  public struct Document: Sendable {
    public var cloud: PointCloud
    public var comments: [String]
  }

  /// Reads the text point file at `path` through a memory map, telling `progress` the
  /// share of its lines counted and then parsed.
  ///
  /// - Throws: `XYZError` naming the line at fault, with the path; `FileError` when
  ///   the file cannot be opened.
  public static func read(path: String, progress: ProgressHandler? = nil) throws -> Document {
    let file = try MappedFile(path: path)
    do {
      return try read(bytes: file.bytes, progress: progress)
    } catch {
      throw XYZError(error, path: path)
    }
  }

  /// Reads text points held in memory. The lines before the first point are read one
  /// by one (comments, the header line); the points are scanned on every core straight
  /// from the bytes (`TextRows`), each value rounded once to `Float`.
  ///
  /// - Throws: `XYZErrorReason` naming the line at fault.
  public static func read(bytes: UnsafeRawBufferPointer, progress: ProgressHandler? = nil)
    throws(XYZErrorReason) -> Document
  {
    var lines = TextLines(bytes)
    var names: [String]?
    var comments: [String] = []
    var first: (start: Int, line: Int, columns: Int)?
    while first == nil {
      let start = lines.cursor
      guard let line = lines.next() else { break }
      let number = lines.lineNumber - 1
      if lines.isBlank(line) { continue }
      if lines.firstByte(line) == UInt8(ascii: "#") {
        let text = lines.text(line)
        if let range = text.range(of: "# columns:") {
          names = text[range.upperBound...].split(separator: " ").map(String.init)
        } else if comments.count < TextRows.commentLimit {
          comments.append(commentText(text))
        }
        continue
      }
      let tokens = lines.tokens(line, commas: true)
      if names == nil && tokens.contains(where: { lines.double($0) == nil }) {
        names = tokens.map { lines.text($0) }
        continue
      }
      guard tokens.count >= 3 else { throw .tooFewColumns(line: number, got: tokens.count) }
      first = (start, number, tokens.count)
    }
    guard let first, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      throw .noPoints
    }
    let share = TextRows.countingShare
    let chunks = TextRows.chunks(
      base, from: first.start, to: bytes.count, firstLine: first.line,
      progress: ProgressParts.part(progress, from: 0, to: share))
    for chunk in chunks {
      for range in chunk.comments where comments.count < TextRows.commentLimit {
        comments.append(commentText(lines.text(range)))
      }
    }
    let rows = chunks.reduce(0) { $0 + $1.rows }
    // Each value takes two bytes at least: more rows of this width than the bytes hold
    // means a short line, found (and named) without allocating for the claim.
    let (values, overflow) = rows.multipliedReportingOverflow(by: first.columns)
    guard !overflow, values <= (bytes.count - first.start) / 2 + 1 else {
      throw failure(
        TextRows.parse(
          base, chunks: chunks, columns: first.columns, commas: true, into: FloatCheckSink()),
        columns: first.columns) ?? .noPoints
    }
    let sink = FloatColumnsSink(columns: first.columns, rows: rows)
    defer { sink.deallocate() }
    let parsed = TextRows.parse(
      base, chunks: chunks, columns: first.columns, commas: true, into: sink,
      progress: ProgressParts.part(progress, from: share, to: 1))
    if let error = failure(parsed, columns: first.columns) { throw error }
    return Document(cloud: try cloud(sink.arrays(), names: names), comments: comments)
  }

  /// The error a row failure stands for.
  private static func failure(_ failure: TextRowFailure?, columns: Int) -> XYZErrorReason? {
    switch failure {
    case .valueCount(let line, let got)?: .columnCount(line: line, expected: columns, got: got)
    case .badValue(let line, let column, let token)?:
      .badNumber(line: line, column: column, token: token)
    case nil: nil
    }
  }

  /// A comment line's text without its `#` and the spaces around it.
  private static func commentText(_ text: String) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.dropFirst().drop { $0 == " " })
  }

  static func cloud(_ columns: [[Float]], names given: [String]?) throws(XYZErrorReason)
    -> PointCloud
  {
    let names = roles(count: columns.count, header: given)
    func index(_ role: String) -> Int? { names.firstIndex(of: role) }
    guard let x = index("x"), let y = index("y"), let z = index("z") else {
      throw .noCoordinateColumns(header: given ?? [])
    }
    let count = columns[0].count
    var cloud = PointCloud(
      positions: (0..<count).map { Point3(columns[x][$0], columns[y][$0], columns[z][$0]) })
    var used = [x, y, z]
    if let r = index("r"), let g = index("g"), let b = index("b") {
      let channels = [columns[r], columns[g], columns[b]]
      let unit =
        channels.allSatisfy { $0.allSatisfy { $0 <= 1 } }
        && channels.contains { $0.contains { $0 != $0.rounded() } }
      func byte(_ value: Float) -> UInt8 {
        let scaled = unit ? value * 255 : value
        return scaled.isNaN ? 0 : UInt8(min(255, max(0, scaled.rounded())))
      }
      cloud.colors = (0..<count).map {
        RGB8(byte(channels[0][$0]), byte(channels[1][$0]), byte(channels[2][$0]))
      }
      used += [r, g, b]
    }
    if let nx = index("nx"), let ny = index("ny"), let nz = index("nz") {
      cloud.normals = (0..<count).map {
        Point3(columns[nx][$0], columns[ny][$0], columns[nz][$0])
      }
      used += [nx, ny, nz]
    }
    for k in columns.indices where !used.contains(k) {
      cloud.attributes.append(PointAttribute(name: names[k], values: .float32(columns[k])))
    }
    return cloud
  }

  /// Each column's role: `x y z r g b nx ny nz` or an attribute name.
  static func roles(count: Int, header: [String]?) -> [String] {
    guard let header, header.count == count else {
      let standard = count >= 6 ? ["x", "y", "z", "r", "g", "b"] : ["x", "y", "z"]
      return (0..<count).map { $0 < standard.count ? standard[$0] : "column_\($0)" }
    }
    let aliases = [
      "red": "r", "green": "g", "blue": "b", "normal_x": "nx", "normal_y": "ny",
      "normal_z": "nz",
    ]
    return header.map { raw in
      let name = raw.trimmingCharacters(in: CharacterSet(charactersIn: "/\"' ")).lowercased()
      return aliases[name] ?? name
    }
  }

  /// Whether `prefix` (a file's first bytes) looks like text points: printable text
  /// whose first line that is no comment (after an optional header line) holds at
  /// least three numbers. `isWholeFile`: the prefix is the whole file, so its last
  /// line is complete even without a line break.
  public static func looksLikeText(_ prefix: [UInt8], isWholeFile: Bool) -> Bool {
    guard !prefix.isEmpty,
      prefix.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
    else { return false }
    return prefix.withUnsafeBytes { bytes in
      var lines = TextLines(bytes)
      var sawHeader = false
      while let line = lines.next() {
        // The last line of a prefix may be cut: judge only complete lines.
        guard isWholeFile || line.upperBound < bytes.count else { return false }
        if lines.isBlank(line) || lines.firstByte(line) == UInt8(ascii: "#") { continue }
        let tokens = lines.tokens(line, commas: true)
        if tokens.allSatisfy({ lines.double($0) != nil }) { return tokens.count >= 3 }
        if sawHeader { return false }
        sawHeader = true
      }
      return false
    }
  }
}

/// `Float` columns that the row scanners of every core fill, each row its own slots.
private struct FloatColumnsSink: TextRowSink, @unchecked Sendable {
  let columns: [UnsafeMutablePointer<Float>]
  let rows: Int

  init(columns count: Int, rows: Int) {
    self.rows = rows
    columns = (0..<count).map { _ in
      let column = UnsafeMutablePointer<Float>.allocate(capacity: max(rows, 1))
      column.initialize(repeating: 0, count: max(rows, 1))
      return column
    }
  }

  func store(
    row: Int, column: Int, decimal: DecimalParts?, token: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard let value = ASCIINumberParser.float(decimal, token) else { return false }
    columns[column][row] = value
    return true
  }

  func arrays() -> [[Float]] {
    columns.map { Array(UnsafeBufferPointer(start: $0, count: rows)) }
  }

  func deallocate() {
    for column in columns {
      column.deinitialize(count: max(rows, 1))
      column.deallocate()
    }
  }
}

/// Checks that every value is a number and stores nothing (for a file whose rows
/// cannot all be as wide as its first: the check finds the line that is not).
private struct FloatCheckSink: TextRowSink, Sendable {
  func store(
    row: Int, column: Int, decimal: DecimalParts?, token: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    ASCIINumberParser.float(decimal, token) != nil
  }
}
