/// A request that cannot be carried out as asked: a mistake in a command's options, an
/// output name that names no format, a frame selection that selects nothing. The
/// command line exits with status 2 for it; the window shows it.
public struct UsageError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
