import CloudScrubCore
import Foundation

/// Parsing and writing Stray Scanner's text and NumPy files, with errors that name the
/// file and the line.
enum StrayScannerFiles {
  /// One row of `odometry.csv`.
  struct OdometryRow: Equatable {
    /// The line in the file (from 1), for errors.
    var line: Int
    var timestamp: Double
    /// The `frame` column, or the row's position when the file has none.
    var frame: Int
    var position: SIMD3<Double>
    /// Scalar last: (qx, qy, qz, qw).
    var quaternion: SIMD4<Double>
    /// fx, fy, cx, cy when the file has those columns (forks add them).
    var intrinsics: SIMD4<Double>?
  }

  static let requiredColumns = ["timestamp", "x", "y", "z", "qx", "qy", "qz", "qw"]
  static let intrinsicsColumns = ["fx", "fy", "cx", "cy"]

  /// The text's lines, numbered from 1, without line ends; blank lines dropped. Split
  /// on bytes: in a Swift `String` a CRLF is one character that is not "\n".
  static func lines(_ bytes: [UInt8]) -> [(number: Int, text: String)] {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
      .enumerated()
      .map {
        (
          number: $0.offset + 1,
          text: String(decoding: $0.element, as: UTF8.self).trimmingWhitespace()
        )
      }
      .filter { !$0.text.isEmpty }
  }

  /// The comma-separated fields of a line, trimmed (Stray writes a space after each
  /// comma).
  static func fields(_ line: String) -> [String] {
    line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
  }

  /// Parses `odometry.csv`: a header row naming the columns, then one row a frame.
  /// Columns are found by name, so their order and any extra columns do not matter.
  ///
  /// - Throws: `CaptureFolderError.badLine` naming the line and the file when the
  ///   header lacks a column or a row is not all numbers.
  static func odometry(_ bytes: [UInt8], path: String) throws(CaptureFolderError) -> [OdometryRow] {
    let all = lines(bytes)
    guard let header = all.first else {
      throw CaptureFolderError(
        .badLine(line: 1, expected: "a header row naming the columns"), path: path)
    }
    let names = fields(header.text).map { $0.lowercased() }
    var column: [String: Int] = [:]
    for (index, name) in names.enumerated() where column[name] == nil { column[name] = index }
    for name in requiredColumns where column[name] == nil {
      throw CaptureFolderError(
        .badLine(line: header.number, expected: "a header naming a '\(name)' column"), path: path)
    }
    let hasIntrinsics = intrinsicsColumns.allSatisfy { column[$0] != nil }
    var rows: [OdometryRow] = []
    for (position, line) in all.dropFirst().enumerated() {
      let values = fields(line.text)
      func number(_ name: String) throws(CaptureFolderError) -> Double {
        guard let index = column[name], index < values.count, let value = Double(values[index]),
          value.isFinite
        else {
          throw CaptureFolderError(
            .badLine(
              line: line.number,
              expected: "\(names.count) comma-separated numbers, with a number in column '\(name)'"),
            path: path)
        }
        return value
      }
      var frame = position
      if column["frame"] != nil {
        let value = try number("frame")
        guard value >= 0, value <= 9_999_999, value.rounded() == value else {
          throw CaptureFolderError(
            .badLine(line: line.number, expected: "a whole frame number from 0 in column 'frame'"),
            path: path)
        }
        frame = Int(value)
      }
      var intrinsics: SIMD4<Double>?
      if hasIntrinsics {
        intrinsics = SIMD4(try number("fx"), try number("fy"), try number("cx"), try number("cy"))
      }
      let quaternion = SIMD4(
        try number("qx"), try number("qy"), try number("qz"), try number("qw"))
      guard Transform3D.isRotation(quaternion: quaternion) else {
        throw CaptureFolderError(
          .badLine(
            line: line.number,
            expected: "a rotation in qx qy qz qw, not \((0..<4).map { quaternion[$0] })"),
          path: path)
      }
      rows.append(
        OdometryRow(
          line: line.number, timestamp: try number("timestamp"), frame: frame,
          position: SIMD3(try number("x"), try number("y"), try number("z")),
          quaternion: quaternion, intrinsics: intrinsics))
    }
    return rows
  }

  /// Parses `camera_matrix.csv`: three rows of three numbers, row-major K.
  ///
  /// - Throws: `CaptureFolderError.badLine` naming the line and the file.
  static func cameraMatrix(_ bytes: [UInt8], path: String) throws(CaptureFolderError) -> (
    fx: Double, fy: Double, cx: Double, cy: Double
  ) {
    let all = lines(bytes)
    var rows: [[Double]] = []
    for line in all.prefix(3) {
      let values = fields(line.text).compactMap { Double($0) }.filter(\.isFinite)
      guard values.count == 3, fields(line.text).count == 3 else {
        throw CaptureFolderError(
          .badLine(line: line.number, expected: "3 comma-separated numbers"), path: path)
      }
      rows.append(values)
    }
    guard rows.count == 3 else {
      throw CaptureFolderError(
        .badLine(
          line: (all.last?.number ?? 0) + 1, expected: "3 rows of 3 numbers (the 3×3 camera matrix)"
        ),
        path: path)
    }
    guard rows[0][0] > 0, rows[1][1] > 0 else {
      throw CaptureFolderError(
        .badLine(line: all[0].number, expected: "a positive fx and fy"), path: path)
    }
    return (rows[0][0], rows[1][1], rows[0][2], rows[1][2])
  }

  // MARK: - NumPy

  /// Reads a NumPy `.npy` file of little-endian `uint16` in C order, shape (height,
  /// width): older Stray exports store depth in millimetres so. The header is checked
  /// (magic, version, dtype `<u2`, C order, 2-D shape) and the data's size against the
  /// file's before anything is allocated.
  ///
  /// - Throws: `CaptureFolderError.badImage` naming what is wrong, with the path.
  static func npyUInt16(_ bytes: [UInt8], path: String) throws(CaptureFolderError) -> Gray16Image {
    func bad(_ message: String) -> CaptureFolderError {
      CaptureFolderError(.badImage(message: "NumPy file: \(message)"), path: path)
    }
    let magic: [UInt8] = [0x93] + Array("NUMPY".utf8)
    guard bytes.count >= 10, bytes.starts(with: magic) else { throw bad("no \\x93NUMPY signature") }
    let major = bytes[6]
    let headerStart: Int
    let headerLength: Int
    switch major {
    case 1:
      headerStart = 10
      headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
    case 2, 3:
      guard bytes.count >= 12 else { throw bad("header ends early") }
      headerStart = 12
      headerLength = (8..<12).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 8)) }
    default: throw bad("unknown format version \(major)")
    }
    guard headerLength <= bytes.count - headerStart else {
      throw bad(
        "header of \(headerLength) bytes runs past the end of the file (\(bytes.count) bytes)")
    }
    let header = String(decoding: bytes[headerStart..<headerStart + headerLength], as: UTF8.self)
    guard let descr = value(of: "descr", in: header) else { throw bad("header has no 'descr'") }
    let dtype = descr
    guard dtype == "<u2" else {
      throw bad("dtype is \(dtype), expected <u2 (little-endian uint16)")
    }
    guard let order = value(of: "fortran_order", in: header), order.hasPrefix("False") else {
      throw bad("data is not in C order (fortran_order must be False)")
    }
    guard let shapeText = value(of: "shape", in: header), shapeText.hasPrefix("("),
      let close = shapeText.firstIndex(of: ")")
    else { throw bad("header has no 'shape' tuple") }
    let dimensions = shapeText[shapeText.index(after: shapeText.startIndex)..<close]
      .split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    let sizes = dimensions.compactMap { Int($0) }
    guard sizes.count == dimensions.count, sizes.count == 2 || (sizes.count == 3 && sizes[2] == 1)
    else {
      throw bad("shape (\(dimensions.joined(separator: ", "))) is not (height, width)")
    }
    let height = sizes[0]
    let width = sizes[1]
    guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
      throw bad("shape claims \(width)×\(height) samples")
    }
    let dataStart = headerStart + headerLength
    let needed = width * height * 2
    guard bytes.count - dataStart >= needed else {
      throw bad("data ends after \(bytes.count - dataStart) bytes, the shape needs \(needed)")
    }
    var samples = [UInt16](repeating: 0, count: width * height)
    bytes.withUnsafeBytes { raw in
      for i in 0..<samples.count {
        samples[i] = UInt16(
          littleEndian: raw.loadUnaligned(fromByteOffset: dataStart + 2 * i, as: UInt16.self))
      }
    }
    return Gray16Image(width: width, height: height, samples: samples)
  }

  /// The value after `'key':` in a NumPy header dictionary: a quoted string without
  /// its quotes, else the text up to the end (a tuple or a boolean starts it).
  private static func value(of key: String, in header: String) -> String? {
    for quote in ["'", "\""] {
      if let range = header.range(of: "\(quote)\(key)\(quote)") {
        let rest = header[range.upperBound...].drop { $0 == " " }
        guard rest.first == ":" else { return nil }
        let value = rest.dropFirst().drop { $0 == " " }
        if let first = value.first, first == "'" || first == "\"" {
          return String(value.dropFirst().prefix { $0 != first })
        }
        return String(value)
      }
    }
    return nil
  }

  /// The (height, width) of a `.npy` file's array from its header alone, for sizing.
  static func npySize(_ bytes: [UInt8], path: String) throws(CaptureFolderError) -> (
    width: Int, height: Int
  ) {
    let image = try npyUInt16(bytes, path: path)
    return (image.width, image.height)
  }

  /// A `.npy` file (version 1.0) of `image` as little-endian uint16, shape (height, width).
  static func npyBytes(_ image: Gray16Image) -> [UInt8] {
    var header =
      "{'descr': '<u2', 'fortran_order': False, 'shape': (\(image.height), \(image.width)), }"
    // NumPy pads the header with spaces and a newline so the data starts 64-aligned.
    let unpadded = 10 + header.utf8.count + 1
    header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
    var bytes: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0]
    let length = header.utf8.count
    bytes += [UInt8(length & 0xFF), UInt8(length >> 8)]
    bytes += Array(header.utf8)
    bytes.reserveCapacity(bytes.count + image.samples.count * 2)
    for sample in image.samples {
      bytes.append(UInt8(sample & 0xFF))
      bytes.append(UInt8(sample >> 8))
    }
    return bytes
  }
}
