import Foundation

/// Loop candidates for drift beyond what registration from the current poses can take
/// back (a few centimetres): where the current poses put two keyframes is trusted only
/// to within `maximumYawDegrees` of heading and `maximumShiftMeters` of position.
///
/// Phone tracking keeps gravity (its tilt does not drift) but drifts in heading and
/// position, so two keyframes are compared in the 4 degrees of freedom that are left:
/// a turn about `up` and a move.
///
/// - **Candidates**: pairs of keyframes at least `minimumSeconds` apart that no edge of
///   the pose-based search joins already (one within 2 keyframes of both ends: there
///   the drift was within its reach), whose current camera centres are within
///   `LoopClosure.searchRadiusMeters`, whose views overlap under the current poses
///   (`FrameView`; at least `minimumOverlap` of the earlier one's points, far less than
///   the pose-based search asks); for each keyframe the `candidatesPerKeyframe` latest
///   of these (drift grows with time, and the pose-based search holds the frames a few
///   seconds apart already), and of those the `maximumCandidates` that overlap most.
/// - **Votes**: for each turn of `yawStepDegrees` within ±`maximumYawDegrees` (about
///   the vertical line through the earlier keyframe's points' middle), every
///   pair of an earlier point and a later point (`earlierSamples` and `laterSamples`
///   of them, evenly spread) whose normals agree within `normalDegrees` once turned
///   votes for the move that joins them, in cubes of `binMeters`; then the turns a
///   third and two thirds of a step either side of the best one. A flat patch spreads
///   its votes over a plane of moves; the moves that several surfaces agree on (a
///   corner, a wall and the floor) gather the most. The turn and cube with the most
///   votes win, and the move is the mean of the votes around that cube.
/// - `LoopRegistration` then registers the pair from that turn and move. The edge goes
///   through the same tests as every other, with a gap up to
///   `LoopClosure.maximumWideGapMeters`, and one more: at most `maximumSeenThrough` of
///   either view's points may lie where the other saw through (`seenThrough`). Two
///   views of a room laid wrongly on each other often still match a wall or two, but
///   then put one view's points in space the other looked past.
enum WideLoopSearch {
  static let minimumSeconds = 3.0
  static let candidatesPerKeyframe = 1
  static let maximumCandidates = 100
  static let minimumOverlap = 0.02
  static let maximumYawDegrees = 20.0
  static let yawStepDegrees = 1.5
  static let maximumShiftMeters: Float = 1
  static let maximumRiseMeters: Float = 0.3
  static let binMeters: Float = 0.05
  static let normalDegrees: Float = 20
  static let earlierSamples = 100
  static let laterSamples = 400
  static let minimumVotes = 10

  /// The pairs of keyframes (node indices, earlier first) to try without trusting the
  /// poses, with the world correction each asks of the earlier keyframe's pose; none
  /// whose key (earlier × node count + later) is in `joined`.
  static func candidates(
    _ nodes: [Int], _ frames: [Int: AlignmentFrame], _ poses: [Transform3D],
    timestamps: [Double], excluding joined: Set<Int>, up: SIMD3<Double>
  ) -> [(earlier: Int, later: Int, correction: Transform3D)] {
    let chosen = LoopClosure.overlapping(
      nodes, frames, poses, minimum: minimumOverlap, count: candidatesPerKeyframe, latest: true,
      admits: { a, b in
        timestamps[nodes[b]] - timestamps[nodes[a]] >= minimumSeconds
          && !joined.contains(a * nodes.count + b)
      })
    let pairs = chosen.sorted {
      ($0.overlap, -$0.earlier) > ($1.overlap, -$1.earlier)
    }.prefix(maximumCandidates).map {
      ($0.earlier, $0.later)
    }
    let found = ParallelSlots<Transform3D?>(count: pairs.count, initial: nil)
    Parallel.perform(iterations: pairs.count) { index in
      let (a, b) = pairs[index]
      guard let first = frames[nodes[a]], let second = frames[nodes[b]] else { return }
      let correction = hypothesis(
        Surface(first, pose: poses[nodes[a]], samples: earlierSamples),
        Surface(second, pose: poses[nodes[b]], samples: laterSamples), up: up)
      found.modify(index) { $0 = correction }
    }
    return pairs.indices.compactMap { index in
      found[index].map { (pairs[index].0, pairs[index].1, $0) }
    }
  }

  /// The fraction of `frame`'s points (under `pose`) that lie in space `other` saw
  /// through: in front of the nearest surface `other` saw in their direction (under
  /// `otherPose`), by more than `seenThroughMeters` plus `seenThroughFraction` of its
  /// depth. A wrong turn and move that lays two views' walls on each other's still puts
  /// one view's points where the other looked past.
  static func seenThrough(
    _ frame: AlignmentFrame, at pose: Transform3D, by other: AlignmentFrame,
    at otherPose: Transform3D
  ) -> Double {
    var nearest: [SIMD2<Int32>: Float] = [:]
    for p in other.pointsInCamera where p.z > 0 {
      let cell = directionCell(p)
      nearest[cell] = min(nearest[cell] ?? .infinity, p.z)
    }
    let otherFromFrame = FloatRigid(otherPose.rigidInverse * pose)
    var inView = 0
    var through = 0
    for point in frame.pointsInCamera {
      let p = otherFromFrame.apply(point)
      guard p.z > 0, let seen = nearest[directionCell(p)] else { continue }
      inView += 1
      if p.z < seen - seenThroughMeters - seenThroughFraction * seen { through += 1 }
    }
    return inView > 0 ? Double(through) / Double(inView) : 0
  }

  static let maximumSeenThrough = 0.04
  static let seenThroughMeters: Float = 0.05
  static let seenThroughFraction: Float = 0.05
  /// Cells of directions `directionStep` wide (in x / z and y / z).
  static let directionStep: Float = 0.03

  private static func directionCell(_ p: SIMD3<Float>) -> SIMD2<Int32> {
    let limit: Float = 1e6
    let u = min(max((p.x / p.z / directionStep).rounded(.down), -limit), limit)
    let v = min(max((p.y / p.z / directionStep).rounded(.down), -limit), limit)
    return SIMD2(Int32(u), Int32(v))
  }

  /// An even spread of a frame's points and normals, in the world.
  struct Surface {
    var points: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []

    init(_ frame: AlignmentFrame, pose: Transform3D, samples: Int) {
      let transform = FloatRigid(pose)
      let step = max(1, frame.pointsInCamera.count / max(samples, 1))
      for index in Swift.stride(from: 0, to: frame.pointsInCamera.count, by: step) {
        points.append(transform.apply(frame.pointsInCamera[index]))
        normals.append(transform.rotate(frame.normalsInCamera[index]))
      }
    }
  }

  /// The turn about `up` and move that bring `from`'s surface onto `to`'s (see the
  /// type's votes), or nil when no move gathers `minimumVotes`.
  static func hypothesis(_ from: Surface, _ to: Surface, up: SIMD3<Double>) -> Transform3D? {
    guard !from.points.isEmpty, !to.points.isEmpty else { return nil }
    let grid = VoteGrid(up: up)
    var votes = [Int32](repeating: 0, count: grid.count)
    let agree = cos(normalDegrees * .pi / 180)
    let steps = Int((maximumYawDegrees / yawStepDegrees).rounded(.down))
    // Turns about the vertical line through the earlier surface's middle, so that a
    // turn moves its points little and the moves stay within the grid.
    let pivot =
      from.points.reduce(SIMD3<Double>.zero) { $0 + SIMD3<Double>($1) }
      / Double(from.points.count)
    func turned(_ angle: Double) -> Transform3D {
      let rotation = Transform3D(axisAngle: up * angle)
      return Transform3D(axisAngle: up * angle, translation: pivot - rotation.apply(to: pivot))
    }
    var best: (votes: Int32, angle: Double, bin: Int)? = nil
    func sweep(_ angles: [Double]) {
      for angle in angles {
        let turn = FloatRigid(turned(angle))
        for index in votes.indices { votes[index] = 0 }
        forEachVote(from, to, turn, agree, grid) { bin, _ in votes[bin] += 1 }
        var peak = 0
        for index in votes.indices where votes[index] > votes[peak] { peak = index }
        if votes[peak] > (best?.votes ?? 0) { best = (votes[peak], angle, peak) }
      }
    }
    let step = yawStepDegrees * .pi / 180
    sweep((-steps...steps).map { Double($0) * step })
    // Then a third of a step either side of the winner, twice.
    if let coarse = best?.angle {
      sweep([-2, -1, 1, 2].map { coarse + Double($0) * step / 3 })
    }
    guard let best, best.votes >= Int32(minimumVotes) else { return nil }
    // The move: the mean of the winning turn's votes within a cube and a half of the
    // winning cube's centre.
    let winner = turned(best.angle)
    let turn = FloatRigid(winner)
    let centre = grid.centre(of: best.bin)
    var sum = SIMD3<Double>.zero
    var counted = 0.0
    forEachVote(from, to, turn, agree, grid) { _, move in
      let d = move - centre
      guard (d * d).sum() <= 2.25 * binMeters * binMeters else { return }
      sum += SIMD3<Double>(move)
      counted += 1
    }
    let move = counted > 0 ? sum / counted : SIMD3<Double>(centre)
    return Transform3D(axisAngle: up * best.angle, translation: winner.translation + move)
  }

  /// Calls `vote` with the cube and the move of each pair of points whose normals
  /// agree under `turn` and whose move lies within the grid.
  private static func forEachVote(
    _ from: Surface, _ to: Surface, _ turn: FloatRigid, _ agree: Float, _ grid: VoteGrid,
    _ vote: (Int, SIMD3<Float>) -> Void
  ) {
    for (p, n) in zip(from.points, from.normals) {
      let q = turn.apply(p)
      let m = turn.rotate(n)
      for (r, o) in zip(to.points, to.normals) where (m * o).sum() >= agree {
        let move = r - q
        if let bin = grid.bin(of: move) { vote(bin, move) }
      }
    }
  }

  /// Cubes of `binMeters` over the moves searched: ±`maximumShiftMeters` across `up`,
  /// ±`maximumRiseMeters` along it.
  struct VoteGrid {
    let across: SIMD3<Float>
    let along: SIMD3<Float>
    let vertical: SIMD3<Float>
    let level: Int
    let rise: Int

    init(up: SIMD3<Double>) {
      vertical = SIMD3<Float>(up)
      let seed: SIMD3<Float> = abs(vertical.x) < 0.9 ? SIMD3(1, 0, 0) : SIMD3(0, 0, 1)
      let first = seed - (seed * vertical).sum() * vertical
      across = first / (first * first).sum().squareRoot()
      along = SIMD3(
        vertical.y * across.z - vertical.z * across.y,
        vertical.z * across.x - vertical.x * across.z,
        vertical.x * across.y - vertical.y * across.x)
      level = 2 * Int((maximumShiftMeters / binMeters).rounded(.up))
      rise = 2 * Int((maximumRiseMeters / binMeters).rounded(.up))
    }

    var count: Int { level * level * rise }

    func bin(of move: SIMD3<Float>) -> Int? {
      let i = Int(((move * across).sum() / binMeters).rounded(.down)) + level / 2
      let j = Int(((move * along).sum() / binMeters).rounded(.down)) + level / 2
      let k = Int(((move * vertical).sum() / binMeters).rounded(.down)) + rise / 2
      guard i >= 0, i < level, j >= 0, j < level, k >= 0, k < rise else { return nil }
      return (k * level + j) * level + i
    }

    func centre(of bin: Int) -> SIMD3<Float> {
      let i = bin % level
      let j = (bin / level) % level
      let k = bin / (level * level)
      let x: Float = Float(i - level / 2) + 0.5
      let y: Float = Float(j - level / 2) + 0.5
      let z: Float = Float(k - rise / 2) + 0.5
      let level: SIMD3<Float> = across * x + along * y
      return binMeters * (level + vertical * z)
    }
  }
}
