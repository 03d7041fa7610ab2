/// Called with the fraction of a long job done so far, from 0 to 1.
public typealias ProgressHandler = (Double) -> Void

/// Progress handlers for the parts of a job.
public enum ProgressParts {
  /// A handler for the part of a job between `lower` and `upper` of the whole: the part's
  /// own fraction `f` reaches `handler` as `lower + f × (upper − lower)`. Nil for nil.
  public static func part(_ handler: ProgressHandler?, from lower: Double, to upper: Double)
    -> ProgressHandler?
  {
    guard let handler else { return nil }
    return { fraction in handler(lower + min(max(fraction, 0), 1) * (upper - lower)) }
  }
}

/// Tells a handler how much of a count is done, only when another hundredth is: for a
/// loop that advances a few items at a time.
public struct ProgressSteps {
  private let handler: ProgressHandler?
  private let total: Int
  private var reported = -1

  public init(_ handler: ProgressHandler?, total: Int) {
    self.handler = handler
    self.total = max(total, 1)
  }

  /// Reports `done` of the total, when it is another hundredth past the last report.
  public mutating func update(_ done: Int) {
    guard let handler else { return }
    let step = Int(Double(min(max(done, 0), total)) / Double(total) * 100)
    guard step > reported else { return }
    reported = step
    handler(Double(step) / 100)
  }
}
