/// Pairs frames of two streams that run at different rates (TrueDepth depth at 15–30
/// frames a second beside colour at 30–60) by time.
public enum TimePairing {
  /// For each time in `targets`, the index of the nearest time in `candidates` that lies
  /// within `toleranceSeconds`, or `nil` when none does.
  ///
  /// Both lists must be sorted ascending; the walk is linear in their total length.
  public static func nearest(
    to targets: [Double], in candidates: [Double], toleranceSeconds: Double
  ) -> [Int?] {
    var result: [Int?] = []
    result.reserveCapacity(targets.count)
    var j = 0
    for t in targets {
      // Move on while the next candidate is at least as close.
      while j + 1 < candidates.count && abs(candidates[j + 1] - t) <= abs(candidates[j] - t) {
        j += 1
      }
      if j < candidates.count && abs(candidates[j] - t) <= toleranceSeconds {
        result.append(j)
      } else {
        result.append(nil)
      }
    }
    return result
  }
}
