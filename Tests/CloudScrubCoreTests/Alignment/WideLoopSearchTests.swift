import Foundation
import Testing

@testable import CloudScrubCore

/// Loops beyond registration's reach: a turn and move found by votes of the surfaces
/// alone, and a loop closed under a drift of half a metre that the pose-based search
/// cannot take back.
@Suite struct WideLoopSearchTests {
  static let up = SIMD3<Double>(0, 1, 0)

  /// The subsample of a synthetic loop's frame `index` (rendered from the true pose,
  /// carrying the drifted one when the source drifts).
  static func frame(_ source: SyntheticRecordingSource, _ index: Int) throws -> AlignmentFrame {
    try AlignmentFrame(source.frame(at: index), index: index, options: AlignmentOptions())
  }

  static func turn(degrees: Double, move: SIMD3<Double>) -> Transform3D {
    Transform3D(axisAngle: up * (degrees * .pi / 180), translation: move)
  }

  /// How far `correction` leaves frame `a`'s points from where they were seen, when
  /// its pose was put `off` the truth.
  static func error(_ a: AlignmentFrame, off: Transform3D, _ correction: Transform3D) -> Float {
    let world = a.pointsInCamera.map(FloatRigid(a.worldFromCamera).apply)
    return FrameAligner.rmsDisplacement(world, by: correction * off)
  }

  /// A keyframe put 12° and 0.36 m off by its pose (its points 0.3–1 m) against a
  /// view of the same room 4 or 10 frames away, for every fifth frame of a loop: the
  /// turn and move the votes find, registered and checked for seen-through space, end
  /// within 1 cm of the truth for more than half of the pairs, and no pair that
  /// passes is more than 12 cm off (a slide along walls that the views leave loose).
  /// The wrong placements of half a metre and more that registration alone passes are
  /// all refused.
  @Test func aTurnAndMoveAreFoundWithoutThePoses() throws {
    let source = SyntheticRecordingSource(options: LoopClosureTests.options(frames: 60))
    let off = Self.turn(degrees: 12, move: SIMD3(0.3, 0.05, -0.2))
    var pairs = 0
    var exact = 0
    for first in Swift.stride(from: 0, to: 60, by: 5) {
      for second in [first + 4, first - 10] where second >= 0 && second < 60 {
        let a = try Self.frame(source, first)
        let b = try Self.frame(source, second)
        let gap = Self.error(a, off: off, .identity)
        #expect(gap > 0.3 && gap < LoopClosure.maximumWideGapMeters, "gap \(gap) m")
        let found = WideLoopSearch.hypothesis(
          WideLoopSearch.Surface(a, pose: off * a.worldFromCamera, samples: 120),
          WideLoopSearch.Surface(b, pose: b.worldFromCamera, samples: 600), up: Self.up)
        guard let correction = found else { continue }
        var poses = Array(repeating: Transform3D.identity, count: 60)
        poses[first] = off * a.worldFromCamera
        poses[second] = b.worldFromCamera
        let edges = LoopRegistration.register(
          [LoopRegistration.Candidate(earlier: 0, later: 1, guess: correction)],
          nodes: [first, second], frames: [first: a, second: b], poses: poses,
          options: AlignmentOptions(), voxelSizeMeters: AlignmentOptions().voxelSize(for: b))
        pairs += 1
        guard let edge = edges.first else { continue }
        let error = Self.error(a, off: off, edge.correction)
        #expect(error < 0.12, "frames \(first), \(second): registered \(error) m off")
        if error < 0.01 {
          exact += 1
          #expect(abs(edge.gapMeters - gap) < 0.01)
        }
      }
    }
    print("wide pairs: \(exact) of \(pairs) within 1 cm")
    #expect(pairs >= 20)
    #expect(2 * exact > pairs, "\(exact) of \(pairs) within 1 cm")
  }

  /// Two views under their true poses ask for no correction beyond a cube and a half
  /// of the grid.
  @Test func agreeingViewsAskForLittle() throws {
    let source = SyntheticRecordingSource(options: LoopClosureTests.options(frames: 60))
    let a = try Self.frame(source, 20)
    let b = try Self.frame(source, 24)
    let found = WideLoopSearch.hypothesis(
      WideLoopSearch.Surface(a, pose: a.worldFromCamera, samples: 120),
      WideLoopSearch.Surface(b, pose: b.worldFromCamera, samples: 600), up: Self.up)
    #expect(found != nil)
    guard let correction = found else { return }
    let error = Self.error(a, off: .identity, correction)
    #expect(error < 0.08, "points moved \(error) m")
  }

  /// The locally refined poses of a loop drifted by 0.5 m and 15° (as odometry would
  /// leave them; the pose-based search cannot register a gap that large): the wide
  /// search keeps loops with larger gaps, and the first keyframe's camera, seen from
  /// the last one's, ends within a twentieth of the drift of where it truly is;
  /// without the wide search it stays more than half the drift off.
  @Test func aLoopDriftedHalfAMetreIsClosed() throws {
    let drift = SyntheticDrift(translationMeters: 0.5, rotationRadians: 15 * .pi / 180)
    let count = 240
    let source = SyntheticRecordingSource(
      options: LoopClosureTests.options(frames: count, drift: drift))
    let times = (0..<count).map(source.timestampSeconds)
    let keyframes = LoopClosure.keyframes(timestamps: times, from: 0)
    var frames: [Int: AlignmentFrame] = [:]
    for index in LoopClosure.retained(keyframes, count: count) {
      frames[index] = try Self.frame(source, index)
    }
    let poses = (0..<count).map { source.pose(at: $0).worldFromOpenCVCamera }
    let (first, last) = (keyframes[0], keyframes[keyframes.count - 1])
    // Where the first keyframe's camera stands as seen from the last one's.
    func seen(_ poses: [Transform3D]) -> SIMD3<Double> {
      poses[last].rigidInverse.apply(to: poses[first].translation)
    }
    let truth = seen((0..<count).map { source.truePose(at: $0).worldFromOpenCVCamera })
    func worst(_ poses: [Transform3D]) -> Double {
      DriftAlignmentTests.distance(seen(poses), truth)
    }
    func close(wide: Bool) -> LoopClosure.Result {
      LoopClosure.close(
        frames: frames, keyframes: keyframes, poses: poses, timestamps: times,
        options: AlignmentOptions(), voxelSizeMeters: 0.02, up: Self.up, searchesWide: wide)
    }
    let before = worst(poses)
    let closed = close(wide: true)
    let narrow = close(wide: false)
    print(
      "wide loop: keyframes off by \(before) m drifted, \(worst(closed.poses)) m closed, "
        + "\(worst(narrow.poses)) m without the wide search; loops "
        + "\(closed.loops.map { ($0.first, $0.second, $0.gapMeters, $0.weight) })")
    #expect(before > 0.45)
    let wide = closed.loops.filter {
      $0.gapMeters > LoopClosure.maximumGapMeters && $0.weight > 0.5
    }
    #expect(!wide.isEmpty, "no loop beyond the pose-based search's gap kept its weight")
    #expect(worst(closed.poses) < 0.05 * before)
    #expect(worst(narrow.poses) > 0.5 * before, "the pose-based search alone closes it")
  }
}
