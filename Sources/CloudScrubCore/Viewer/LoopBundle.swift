/// The loops a refinement closed, gathered for the timeline into bundles: loops whose
/// two ends both lie near those of a bundle's loops join it, so that a capture that
/// comes back to a wall shows one mark from the stretch that first saw it to the
/// stretch that saw it again, however many keyframe pairs tie the two.
///
/// A loop joins the first bundle (in the order they were made, loops taken by their
/// first end, then their second) whose ranges of first ends and of second ends, grown
/// to hold its own, each stay within `span` frames; otherwise it starts a bundle. Both
/// ends of every loop of a bundle lie inside its ranges, so where loops tie every part
/// of a long stretch to another the bundles tile it instead of becoming one.
public struct LoopBundle: Equatable, Sendable {
  /// The earlier ends of its loops (timeline positions), lowest to highest.
  public var first: ClosedRange<Int>
  /// The later ends.
  public var second: ClosedRange<Int>
  /// How many loops it holds.
  public var count: Int

  /// The bundles of `loops` (earlier end first), in the order they were started: by
  /// their earliest loop.
  public static func bundles(_ loops: [FramePair], span: Int) -> [LoopBundle] {
    var bundles: [LoopBundle] = []
    for loop in loops.sorted(by: { ($0.first, $0.second) < ($1.first, $1.second) }) {
      let index = bundles.firstIndex {
        $0.first.widened(to: loop.first).width <= span
          && $0.second.widened(to: loop.second).width <= span
      }
      guard let index else {
        bundles.append(
          LoopBundle(first: loop.first...loop.first, second: loop.second...loop.second, count: 1))
        continue
      }
      bundles[index].first = bundles[index].first.widened(to: loop.first)
      bundles[index].second = bundles[index].second.widened(to: loop.second)
      bundles[index].count += 1
    }
    return bundles
  }
}

extension ClosedRange where Bound == Int {
  /// The frames from its first to its last, not counting the first.
  fileprivate var width: Int { upperBound - lowerBound }

  /// The range grown to hold `value`.
  fileprivate func widened(to value: Int) -> ClosedRange<Int> {
    Swift.min(lowerBound, value)...Swift.max(upperBound, value)
  }
}
