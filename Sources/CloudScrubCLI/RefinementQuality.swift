import CloudScrubCore
import Foundation

/// What a refinement did beyond the alignment error: the loops it closed, the pose
/// jumps it found, and the ghosting (`Ghosting`) under the recorded and the refined
/// poses, judged on one `GhostingSample`; `refine` and `info --alignment` print it.
struct RefinementQuality {
  var loops: [LoopEdge]
  var jumps: [Int]
  var before: Ghosting
  var after: Ghosting
  /// The far figure with each far pair registered alone (`GhostingSample.pairwiseFloor`):
  /// about the lowest any poses reach.
  var floor: Float?

  /// The quality of `result`, a refining pass over `source` (reads the ghosting's
  /// sample of frames).
  init(_ result: DriftAlignment.Result, source: any RecordingSource) throws {
    let sample = try GhostingSample.read(source)
    loops = result.loops
    jumps = result.poseJumps
    before = sample.measure(result.originalPoses)
    after = sample.measure(result.poses)
    floor = sample.pairwiseFloor(result.poses, options: AlignmentOptions())
  }

  /// Labelled lines, as `info` lays out its rows.
  var lines: [(label: String, text: String)] {
    func mm(_ meters: Float?) -> String { RecordingInfo.millimetres(meters) }
    let kept = loops.filter(\.isKept)
    let spans = kept.prefix(6).map { "\($0.first)↔\($0.second)" }.joined(separator: ", ")
    return [
      (
        "loops closed",
        "\(kept.count)"
          + (loops.count > kept.count ? " (\(loops.count - kept.count) more down-weighted)" : "")
          + (kept.isEmpty ? "" : ": frames " + spans + (kept.count > 6 ? ", …" : ""))
      ),
      (
        "pose jumps",
        jumps.isEmpty
          ? "none"
          : "\(jumps.count), taken back at frames "
            + jumps.prefix(8).map(String.init).joined(separator: ", ")
            + (jumps.count > 8 ? ", …" : "")
      ),
      (
        "ghosting",
        "\(mm(before.farMedianMeters)) before, \(mm(after.farMedianMeters)) after"
          + " (frames ≥ \(GhostingSample.defaultFarGap) apart, \(after.farPairs) pairs); noise floor"
          + " \(mm(after.nearMedianMeters)) (frames \(GhostingSample.defaultNearGap) apart);"
          + " each far pair registered alone \(mm(floor))"
      ),
    ]
  }

  var json: JSON {
    func meters(_ value: Float?) -> JSON { value.map { JSON.double(Double($0)) } ?? .null }
    func ghosting(_ g: Ghosting) -> JSON {
      .object([
        ("far_median_meters", meters(g.farMedianMeters)),
        ("near_median_meters", meters(g.nearMedianMeters)), ("far_pairs", .int(g.farPairs)),
        ("near_pairs", .int(g.nearPairs)),
      ])
    }
    return .object([
      (
        "loops",
        .array(
          loops.map { loop in
            .object([
              ("first_frame", .int(loop.first)), ("second_frame", .int(loop.second)),
              ("gap_meters", .double(Double(loop.gapMeters))), ("weight", .double(loop.weight)),
            ])
          })
      ),
      ("pose_jump_frames", .array(jumps.map(JSON.int))),
      ("ghosting_before", ghosting(before)), ("ghosting_after", ghosting(after)),
      ("far_pairs_registered_alone_median_meters", meters(floor)),
    ])
  }
}
