import CloudScrubCore

/// A LAS file that cannot be read or written: what is wrong and where, and the path.
public typealias LASError = InputFileError<LASErrorReason>

/// What is wrong with a LAS file, without the path.
public enum LASErrorReason: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file does not start with `LASF`.
  case notLAS
  /// The header is shorter than its version needs.
  case shortHeader(bytes: Int, needed: Int)
  /// A version other than 1.0–1.4.
  case unsupportedVersion(major: Int, minor: Int)
  /// A LAZ file whose compression cannot be read: what is wrong with it.
  case laz(String)
  /// A LAZ chunk that cannot be decoded: the chunk, the file's point index, the problem.
  case lazChunk(chunk: Int, point: Int, problem: String)
  /// A point data record format other than 0–10.
  case unsupportedPointFormat(Int)
  /// A record length shorter than the point format's.
  case recordLength(format: Int, length: Int, minimum: Int)
  /// The points (or a VLR) lie past the end of the file.
  case truncated(what: String, offset: Int, neededBytes: Int, fileBytes: Int)
  /// A scale factor that is zero or not finite.
  case badScale(axis: String)
  /// (writing) A coordinate that the chosen scale and offset cannot hold.
  case coordinateOutOfRange(point: Int, axis: String, value: Double)

  public var description: String {
    switch self {
    case .notLAS: return "not a LAS file (no 'LASF' signature)"
    case .shortHeader(let bytes, let needed):
      return "LAS header is \(bytes) bytes, its version needs \(needed)"
    case .unsupportedVersion(let major, let minor):
      return "LAS version \(major).\(minor) is not one of 1.0–1.4"
    case .laz(let problem): return "LAZ file: \(problem)"
    case .lazChunk(let chunk, let point, let problem):
      return "LAZ chunk \(chunk) is corrupt at point \(point): \(problem)"
    case .unsupportedPointFormat(let format):
      return "LAS point data record format \(format) is not one of 0–10"
    case .recordLength(let format, let length, let minimum):
      return "LAS point format \(format) records are \(minimum) bytes at least, the header "
        + "says \(length)"
    case .truncated(let what, let offset, let needed, let file):
      return "LAS \(what) at byte \(offset) needs \(needed) bytes; the file (\(file) bytes) "
        + "is \(offset + needed - file) bytes short"
    case .badScale(let axis): return "LAS \(axis) scale factor is zero or not finite"
    case .coordinateOutOfRange(let point, let axis, let value):
      return "point \(point): \(axis) = \(value) m lies outside what LAS's 32-bit coordinates "
        + "hold at 0.1 mm from the file's offset"
    }
  }
}
