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
