/// An error about one input file of a given format: what is wrong (the format's own
/// `Reason`, whose description reads without the path) and which file, named last.
///
/// Each reader names its specialisation (`R3DError`, `EXRError`, …), so callers can
/// catch one format's errors and match on its reasons.
public struct InputFileError<Failure: Equatable & Sendable & CustomStringConvertible>: Error,
  Equatable, Sendable, CustomStringConvertible
{
  /// The format's own list of what can go wrong.
  public typealias Reason = Failure

  /// What went wrong, without the path.
  public var reason: Reason
  /// The file at fault (or the name the caller gave its bytes); printed last.
  public var path: String

  public init(_ reason: Reason, path: String) {
    self.reason = reason
    self.path = path
  }

  public var description: String { "\(reason): \(path)" }
}

/// What an error message quotes of the input: a token or line cut to its first 40
/// characters and an ellipsis, so that a 64 MB "number" is named without being printed.
public enum InputExcerpt {
  public static let characters = 40

  /// `text`, cut to `characters` characters and "…" when it is longer.
  public static func of(_ text: some StringProtocol) -> String {
    var end = text.startIndex
    var count = 0
    while end < text.endIndex && count < characters {
      end = text.index(after: end)
      count += 1
    }
    return end == text.endIndex ? String(text) : String(text[..<end]) + "…"
  }

  /// The bytes as UTF-8 text, cut the same way; only the first bytes are decoded.
  public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    // Four bytes a character at most, one more to know whether there is more.
    of(String(decoding: bytes.prefix(4 * characters + 1), as: UTF8.self))
  }
}
