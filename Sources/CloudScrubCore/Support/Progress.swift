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

/// Tells a handler the fraction done only when it reaches another hundredth: for a
/// loop that advances a little at a time.
public struct ProgressSteps {
  private let handler: ProgressHandler?
  private var reported = -1

  public init(_ handler: ProgressHandler?) {
    self.handler = handler
  }

  /// Reports `fraction` (clamped to 0…1) when it is another hundredth past the last
  /// report.
  public mutating func update(_ fraction: Double) {
    guard let handler else { return }
    let step = Int(min(max(fraction, 0), 1) * 100)
    guard step > reported else { return }
    reported = step
    handler(Double(step) / 100)
  }
}
