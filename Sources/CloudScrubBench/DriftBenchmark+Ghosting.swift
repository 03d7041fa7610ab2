import CloudScrubCore
import CloudScrubSession
import Foundation

extension DriftBenchmark {
  /// The ghosting of the recorded poses, of refinement local only, with loops closed
  /// (the default), with loops closed and polished, and of Open3D's multiway
  /// registration on the same keyframes when it is installed; the loops closed, and
  /// the times.
  func ghostingSection(
    _ report: inout BenchReport, source: any RecordingSource, result: DriftAlignment.Result,
    sample: GhostingSample, options: CloudScrubCore.AlignmentOptions, wholeSeconds: Double
  ) throws {
    var localOptions = options
    localOptions.closesLoops = false
    var local: DriftAlignment.Result?
    let localSeconds = try Stopwatch.best(runs: repeats) {
      local = try DriftAlignment.run(source, options: localOptions, refine: true)
    }
    var polishOptions = options
    polishOptions.polishesAfterLoops = true
    let polished = try DriftAlignment.run(source, options: polishOptions, refine: true)
    let peer = try Self.multiway(source, result: result, options: options)

    report.section(
      "ghosting: median distance between the surfaces of frames ≥ \(sample.farGap) apart"
        + " (near: \(sample.nearGap) apart, the noise floor)")
    let refined = sample.measure(result.poses)
    let multiway = try? peer.get()
    let peerGhosting = multiway.map { sample.measure($0.poses) }
    var rows: [(String, Ghosting)] = [
      ("recorded poses", sample.measure(result.originalPoses)),
      ("refine --local", sample.measure(local?.poses ?? result.originalPoses)),
      ("refine (loops closed)", refined),
      ("loops closed, then polished", sample.measure(polished.poses)),
    ]
    if let multiway, let peerGhosting {
      rows.append(("Open3D \(multiway.version) multiway", peerGhosting))
    }
    for (name, g) in rows {
      let isOurs = name == "refine (loops closed)"
      let ratio = g.ratio ?? .infinity
      report.row(
        name, "\(mm(g.farMedianMeters)) mm ",
        "near \(mm(g.nearMedianMeters)) mm; far/near "
          + (g.ratio.map { PLYBenchmark.fixed($0, 2) } ?? "-")
          + " (\(g.farPairs) far, \(g.nearPairs) near pairs)",
        target: isOurs ? ratio <= 1.5 : nil, goal: isOurs ? "≤ 1.5× the noise floor" : "")
    }
    // What no poses can take away: each far pair registered on its own.
    let floor = sample.pairwiseFloor(result.poses, options: options)
    let near = refined.nearMedianMeters
    report.row(
      "far pairs registered alone", "\(mm(floor)) mm ",
      "about the lowest far figure any poses reach; far/near "
        + (floor.flatMap { f in near.map { PLYBenchmark.fixed(Double(f / $0), 2) } } ?? "-"))
    if let peerGhosting, let ours = refined.farMedianMeters,
      let theirs = peerGhosting.farMedianMeters
    {
      report.row(
        "against Open3D", PLYBenchmark.fixed(Double(ours / theirs), 2) + "× ",
        "our far ghosting over Open3D's", target: ours <= theirs, goal: "≤ 1×")
    }
    try noiseByTimeApart(
      &report, source: source, result: result, sample: sample, far: refined.farMedianMeters,
      options: options)
    let kept = result.loops.filter(\.isKept)
    report.row(
      "loops closed", "\(kept.count) of \(result.loops.count) ",
      "gaps before closing: "
        + kept.prefix(8).map {
          "\($0.first)–\($0.second) " + PLYBenchmark.fixed(Double($0.gapMeters) * 1000, 1)
        }.joined(separator: ", ") + " mm" + (kept.count > 8 ? ", …" : ""))
    report.row(
      "refine --local", PLYBenchmark.seconds(localSeconds),
      "\(Int(Double(source.frameCount) / localSeconds)) frames/s with reading the frames")
    switch peer {
    case .success(let multiway):
      report.row(
        "Open3D multiway", PLYBenchmark.seconds(multiway.seconds),
        "\(multiway.pairs) pairs registered on the same keyframes; refine (whole pass) "
          + PLYBenchmark.fixed(multiway.seconds / wholeSeconds, 1) + "× faster")
    case .failure(let failure):
      report.note(failure.reason)
    }
  }

  /// How far apart two frames' surfaces lie once each pair is registered on its own, by
  /// how many frames apart they are: what the depth alone differs by, with no pose
  /// error left. A phone's depth map shares much of its error with the maps just before
  /// it (through smoothing over time, or an error that follows the view, which has
  /// barely moved), so the near pairs' figure grows with their distance in time, up to
  /// about what frames far apart reach; frames whose noise is drawn anew stay level.
  private func noiseByTimeApart(
    _ report: inout BenchReport, source: any RecordingSource, result: DriftAlignment.Result,
    sample: GhostingSample, far: Float?, options: CloudScrubCore.AlignmentOptions
  ) throws {
    let poses = result.poses.map(\.worldFromOpenCVCamera)
    let times = result.timestampsSeconds
    var widest: Float?
    for gap in Self.noiseGaps {
      // The ghosting's own sample has the near pairs' gap; the others are read anew.
      let gapped =
        gap == sample.nearGap
        ? sample : try GhostingSample.read(source, options: options, nearGap: gap)
      let alone = gapped.pairwiseFloor(poses, options: options, pairs: gapped.near)
      if gap == Self.noiseGaps.last { widest = alone }
      let seconds = gap < times.count ? PLYBenchmark.fixed(times[gap] - times[0], 2) : "-"
      report.row(
        "frames \(gap) apart, alone", "\(mm(alone)) mm ",
        "\(gapped.near.count) pairs about \(seconds) s apart, each registered on its own")
    }
    if let far, let widest, widest > 0 {
      report.row(
        "far over \(Self.noiseGaps.last ?? 0) apart",
        PLYBenchmark.fixed(Double(far / widest), 2) + "× ",
        "refine's far ghosting over what frames \(Self.noiseGaps.last ?? 0) apart reach alone")
    }
  }

  /// Millimetres with one decimal, or "-".
  private func mm(_ m: Float?) -> String {
    m.map { PLYBenchmark.fixed(Double($0) * 1000, 1) } ?? "-"
  }

  /// The frames apart `noiseByTimeApart` measures: the near pairs' 6, then about half a
  /// second and a second at 60 frames a second.
  static let noiseGaps = [GhostingSample.defaultNearGap, 30, 60]
}
