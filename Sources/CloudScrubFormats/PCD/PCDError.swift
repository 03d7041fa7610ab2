import CloudScrubCore

/// A PCD file that cannot be read: what is wrong and where, and the file's path.
public typealias PCDError = InputFileError<PCDErrorReason>

/// What is wrong with a PCD file, without the path.
public enum PCDErrorReason: Error, Equatable, Sendable, CustomStringConvertible {
  /// The header ends (or passes `limitBytes`) before its `DATA` line.
  case noDataLine(limitBytes: Int)
  /// A header line needed before `DATA` is absent.
  case missingLine(keyword: String)
  /// A header line that cannot be read.
  case malformedLine(line: Int, text: String)
  /// `SIZE`, `TYPE` or `COUNT` lists a different number of values than `FIELDS`.
  case fieldListLength(line: Int, keyword: String, expected: Int, got: Int)
  /// A field whose type letter and size CloudScrub does not read.
  case unsupportedType(field: String, type: String, size: Int)
  /// The fields lack one of `x`, `y`, `z`.
  case noCoordinates(fields: [String])
  /// `POINTS` differs from `WIDTH × HEIGHT`, or passes the limit.
  case pointCount(points: Int, width: Int, height: Int)
  /// The data is shorter than the points need.
  case truncated(points: Int, expectedBytes: Int, availableBytes: Int)
  /// An ASCII data line with the wrong number of values.
  case valueCount(line: Int, expected: Int, got: Int)
  /// An ASCII value that is no number.
  case badNumber(line: Int, field: String, token: String)
  /// Fewer ASCII data lines than points.
  case missingLines(points: Int, lines: Int)
  /// A `DATA` kind other than ascii, binary and binary_compressed.
  case unknownData(String)
  /// `binary_compressed` data with no LZF decompressor at hand.
  case compressedNeedsLZF
  /// The sizes before compressed data disagree with the points or the file.
  case compressedSizes(compressedBytes: Int, uncompressedBytes: Int, expectedBytes: Int)
  /// LZF could not decompress the data.
  case decompressionFailed(compressedBytes: Int)

  public var description: String {
    switch self {
    case .noDataLine(let limit):
      return "PCD header has no DATA line in its first \(limit) bytes"
    case .missingLine(let keyword): return "PCD header has no \(keyword) line"
    case .malformedLine(let line, let text):
      return "PCD header line \(line) is malformed: '\(text)'"
    case .fieldListLength(let line, let keyword, let expected, let got):
      return "PCD header line \(line): \(keyword) has \(got) values for \(expected) fields"
    case .unsupportedType(let field, let type, let size):
      return "PCD field '\(field)' has type \(type) of size \(size), which CloudScrub does not read"
    case .noCoordinates(let fields):
      return "PCD fields lack x, y and z (fields: \(fields.joined(separator: " ")))"
    case .pointCount(let points, let width, let height):
      return "PCD header claims \(points) points for WIDTH \(width) × HEIGHT \(height)"
    case .truncated(let points, let expected, let available):
      return "PCD data is truncated: \(points) points need \(expected) bytes, the file has "
        + "\(available) after the header"
    case .valueCount(let line, let expected, let got):
      return "PCD line \(line) has \(got) values, expected \(expected)"
    case .badNumber(let line, let field, let token):
      return "PCD line \(line): field '\(field)' is not a number: '\(token)'"
    case .missingLines(let points, let lines):
      return "PCD ASCII data has \(lines) lines for \(points) points"
    case .unknownData(let kind):
      return "PCD DATA '\(kind)' is none of ascii, binary, binary_compressed"
    case .compressedNeedsLZF:
      return "PCD binary_compressed data needs LZF (liblzf), which this reader was not given"
    case .compressedSizes(let compressed, let uncompressed, let expected):
      return "PCD binary_compressed sizes disagree: \(compressed) compressed bytes, "
        + "\(uncompressed) uncompressed, the points need \(expected)"
    case .decompressionFailed(let compressed):
      return "PCD binary_compressed data (\(compressed) bytes) is not valid LZF"
    }
  }
}
