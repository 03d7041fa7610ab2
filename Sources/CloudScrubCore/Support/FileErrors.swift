/// An error about a file, with the file's path, which its message names last.
public struct FileError: Error, CustomStringConvertible, Sendable {
  /// What went wrong, without the path.
  public var reason: Reason
  public var path: String

  public enum Reason: Sendable, Equatable {
    case cannotOpen(String)
    case cannotRead(String)
    case cannotWrite(String)
    case notARegularFile
    /// The file got shorter while it was mapped and read (another process truncated it).
    case changedWhileReading
    case wouldOverwriteInput
    case unsupportedFormat(String)
  }

  public init(_ reason: Reason, path: String) {
    self.reason = reason
    self.path = path
  }

  public var description: String {
    let what: String
    switch reason {
    case .cannotOpen(let why): what = "cannot open: \(why)"
    case .cannotRead(let why): what = "cannot read: \(why)"
    case .cannotWrite(let why): what = "cannot write: \(why)"
    case .notARegularFile: what = "not a regular file"
    case .changedWhileReading:
      what = "the file was truncated by another program while it was being read"
    case .wouldOverwriteInput: what = "refusing to write over an input file"
    case .unsupportedFormat(let why): what = "unsupported input: \(why)"
    }
    return "\(what): \(path)"
  }
}
