import Foundation

/// A loop the refinement closed: two frames far apart in time that see the same surface.
public struct LoopEdge: Equatable, Sendable {
  /// The two keyframes (frame indices of the recording), earlier first.
  public var first: Int
  public var second: Int
  /// How far apart the locally refined poses put them: the root mean square distance
  /// the loop's registration moved the earlier frame's points, metres.
  public var gapMeters: Float
  /// Its weight after the pose graph's robust kernel, 0…1: low when it disagreed with
  /// the other edges.
  public var weight: Double

  /// Whether it kept at least half its weight: the loops reported as closed (the others
  /// as down-weighted).
  public var isKept: Bool { weight >= 0.5 }
}

/// Loop closure over locally refined poses: finds keyframes far apart in time that see
/// the same surfaces, registers them, keeps the edges that agree with a neighbour, and
/// optimises a `PoseGraph` of the keyframes; every frame then follows its keyframes.
///
/// - **Keyframes**: one every `keyframeSeconds` of the tracked frames (more apart on
///   captures that would have more than `maximumKeyframes`). Each keeps its own
///   subsample and those of the frames `modelOffsets` around it, the model a loop
///   registers to.
/// - **Candidates**: pairs at least `minimumSeparationSeconds` apart whose views
///   overlap under the current poses (at least `minimumOverlap` of the earlier one's
///   points in the later one's view, `FrameView`), the `candidatesPerKeyframe` best of
///   each keyframe.
/// - **Registration**: the earlier keyframe's points to a `SurfelVoxelMap` of the later
///   one's model frames, point-to-plane with a Tukey kernel of 4 cm, then of
///   `AlignmentOptions.tukeyMeters`. An edge passes when at least `minimumInliers` of its
///   points end on a plane of the model (within the kernel) and its gap is under
///   `maximumGapMeters`.
/// - **Wide candidates** (`WideLoopSearch`): pairs the current poses do not overlap
///   enough, for drift beyond registration's reach, started from a turn and move that
///   the surfaces vote for; their gap may reach `maximumWideGapMeters`.
/// - **Consistency**: an edge stays only when another edge between keyframes at most 2
///   apart on both ends asks for nearly the same correction (`tolerance`: the two
///   moves of the points differ by under a third of the gap, or 5 mm; a tenth, or
///   1 cm, for a gap beyond `maximumGapMeters`): one lucky registration of two similar
///   surfaces finds no such partner.
/// - **Graph**: odometry edges between consecutive keyframes from the local poses, with
///   the information of their points moving (σ growing with the root of the time
///   between them, `odometryDriftPerRootSecond`); loop edges with the point-to-plane
///   information of their matches (σ `loopSigmaMeters`), robust; tilt priors where
///   `AlignmentOptions.tiltPriorRadians` asks.
/// - **Frames between keyframes** take the correction of the keyframes either side,
///   blended by time (rotation vector and translation interpolated).
public enum LoopClosure {
  static let keyframeSeconds = 0.125
  static let maximumKeyframes = 200
  static let modelOffsets = [-4, -2, 0, 2, 4]
  static let minimumSeparationSeconds = 0.75
  static let minimumOverlap = 0.2
  static let candidatesPerKeyframe = 8
  static let minimumInliers = 0.15
  static let maximumGapMeters: Float = 0.15
  static let searchRadiusMeters: Float = 3
  static let maximumWideGapMeters: Float = 1
  static let odometryDriftPerRootSecond = 0.04
  static let loopSigmaMeters = 0.002

  /// What the closure made.
  struct Result {
    /// World from OpenCV camera, one a frame.
    var poses: [Transform3D]
    var loops: [LoopEdge]
  }

  /// The keyframes of a recording whose tracked frames start at `start`.
  public static func keyframes(timestamps: [Double], from start: Int) -> [Int] {
    guard start < timestamps.count else { return [] }
    let duration = max(0, (timestamps.last ?? 0) - timestamps[start])
    let spacing = max(keyframeSeconds, duration / Double(maximumKeyframes))
    var chosen = [start]
    var next = timestamps[start] + spacing
    for index in (start + 1)..<max(timestamps.count, start + 1) where timestamps[index] >= next {
      chosen.append(index)
      next = timestamps[index] + spacing
    }
    if chosen.count > maximumKeyframes {
      let step = Double(chosen.count) / Double(maximumKeyframes)
      chosen = (0..<maximumKeyframes).map { chosen[Int(Double($0) * step)] }
    }
    return chosen
  }

  /// The frames `close` needs kept from the pass: the keyframes and their models'.
  static func retained(_ keyframes: [Int], count: Int) -> Set<Int> {
    Set(keyframes.flatMap { k in modelOffsets.map { k + $0 }.filter { $0 >= 0 && $0 < count } })
  }

  /// Closes the loops of a recording refined locally to `poses` (world from OpenCV
  /// camera, one a frame), from the kept `frames` (`retained`). `searchesWide` adds
  /// the candidates of `WideLoopSearch`.
  static func close(
    frames: [Int: AlignmentFrame], keyframes: [Int], poses: [Transform3D],
    timestamps: [Double], options: AlignmentOptions, voxelSizeMeters: Float, up: SIMD3<Double>,
    searchesWide: Bool = true
  ) -> Result {
    let nodes = keyframes.filter { frames[$0] != nil }
    guard let firstNode = nodes.first, let lastNode = nodes.last,
      timestamps[lastNode] - timestamps[firstNode] >= minimumSeparationSeconds
    else { return Result(poses: poses, loops: []) }
    let near = Self.candidates(nodes, frames, poses, timestamps: timestamps).map {
      LoopRegistration.Candidate(earlier: $0.earlier, later: $0.later)
    }
    var edges = LoopRegistration.register(
      near, nodes: nodes, frames: frames, poses: poses, options: options,
      voxelSizeMeters: voxelSizeMeters)
    if searchesWide {
      // Only where no pose-based edge joins the two keyframes' neighbourhoods already.
      var joined = Set<Int>()
      for edge in edges {
        for a in max(edge.earlier - 2, 0)...edge.earlier + 2 {
          for b in edge.later - 2...min(edge.later + 2, nodes.count - 1) {
            joined.insert(a * nodes.count + b)
          }
        }
      }
      let wide = WideLoopSearch.candidates(
        nodes, frames, poses, timestamps: timestamps, excluding: joined, up: up
      ).map {
        LoopRegistration.Candidate(earlier: $0.earlier, later: $0.later, guess: $0.correction)
      }
      edges += LoopRegistration.register(
        wide, nodes: nodes, frames: frames, poses: poses, options: options,
        voxelSizeMeters: voxelSizeMeters)
    }
    edges = consistent(edges)
    var graph = PoseGraph(poses: nodes.map { poses[$0] })
    for k in 1..<nodes.count {
      let points = frames[nodes[k]].map { $0.pointsInCamera.map(FloatRigid(poses[nodes[k]]).apply) }
      let seconds = max(timestamps[nodes[k]] - timestamps[nodes[k - 1]], 1e-3)
      let sigma = odometryDriftPerRootSecond * seconds.squareRoot()
      graph.edges.append(
        PoseGraph.Edge(
          from: k - 1, to: k, fromFromTo: poses[nodes[k - 1]].rigidInverse * poses[nodes[k]],
          information: PoseGraphInformation.displacement(points ?? [], sigmaMeters: sigma),
          robust: false))
    }
    for edge in edges {
      graph.edges.append(
        PoseGraph.Edge(
          from: edge.later, to: edge.earlier,
          fromFromTo: poses[nodes[edge.later]].rigidInverse * edge.registered,
          information: edge.information, robust: true))
    }
    if let sigma = options.tiltPriorRadians {
      graph.tiltPriors = nodes.enumerated().compactMap { node, index in
        frames[index].map {
          PoseGraph.TiltPrior(
            node: node, recorded: $0.worldFromCamera, up: up,
            information: 1 / pow(max(sigma, 1e-4), 2))
        }
      }
    }
    graph.optimize()
    // The first keyframe never moves: its correction is the identity exactly.
    let corrections = zip(graph.poses, nodes).enumerated().map { node, entry in
      node == 0 ? .identity : entry.0 * poses[entry.1].rigidInverse
    }
    let loops = zip(edges, graph.weights.suffix(edges.count)).map { edge, weight in
      LoopEdge(
        first: nodes[edge.earlier], second: nodes[edge.later], gapMeters: edge.gapMeters,
        weight: weight)
    }
    return Result(
      poses: interpolate(corrections, at: nodes, poses: poses, timestamps: timestamps),
      loops: loops)
  }

  /// Each keyframe's best-overlapping keyframes far enough after it.
  static func candidates(
    _ nodes: [Int], _ frames: [Int: AlignmentFrame], _ poses: [Transform3D],
    timestamps: [Double]
  ) -> [(earlier: Int, later: Int)] {
    overlapping(
      nodes, frames, poses, minimum: minimumOverlap, count: candidatesPerKeyframe,
      admits: { a, b in timestamps[nodes[b]] - timestamps[nodes[a]] >= minimumSeparationSeconds }
    ).map { ($0.earlier, $0.later) }
  }

  /// For each keyframe (node index), the `count` later ones that `admits`, within
  /// `searchRadiusMeters`, whose views overlap its own under `poses` (at least `minimum`
  /// of its points in their view, `FrameView`): those that overlap most, best first, or
  /// with `latest` the latest, latest first.
  static func overlapping(
    _ nodes: [Int], _ frames: [Int: AlignmentFrame], _ poses: [Transform3D], minimum: Double,
    count: Int, latest: Bool = false, admits: (Int, Int) -> Bool
  ) -> [(earlier: Int, later: Int, overlap: Double)] {
    let views = nodes.map { frames[$0].map(FrameView.init) }
    let radius = Double(searchRadiusMeters)
    var pairs: [(earlier: Int, later: Int, overlap: Double)] = []
    for a in nodes.indices {
      guard let frame = frames[nodes[a]] else { continue }
      var scored: [(Int, Double)] = []
      for b in (a + 1)..<max(nodes.count, a + 1) where admits(a, b) {
        guard let view = views[b] else { continue }
        let d = poses[nodes[a]].translation - poses[nodes[b]].translation
        guard (d * d).sum() < radius * radius else { continue }
        let shared = view.overlap(frame, FloatRigid(poses[nodes[b]].rigidInverse * poses[nodes[a]]))
        if shared >= minimum { scored.append((b, shared)) }
      }
      if latest { scored.reverse() } else { scored.sort { $0.1 > $1.1 } }
      pairs += scored.prefix(count).map { (a, $0.0, $0.1) }
    }
    return pairs
  }

  /// The edges with a partner that asks for nearly the same correction.
  static func consistent(_ edges: [LoopRegistration.Edge]) -> [LoopRegistration.Edge] {
    edges.enumerated().filter { index, edge in
      let points = edge.points
      return edges.enumerated().contains { other, partner in
        guard other != index, abs(partner.earlier - edge.earlier) <= 2,
          abs(partner.later - edge.later) <= 2
        else { return false }
        let difference = FrameAligner.rmsDisplacement(
          points, by: partner.correction.rigidInverse * edge.correction)
        return difference <= tolerance(edge.gapMeters)
      }
    }.map(\.element)
  }

  /// How far two neighbouring edges' moves of the points may differ: a third of the
  /// gap or 5 mm; beyond the pose-based search's gaps (`WideLoopSearch`), a tenth of
  /// the gap or 1 cm, since a wrong turn and move found by votes should not find a
  /// neighbour that agrees with it so closely.
  static func tolerance(_ gap: Float) -> Float {
    gap > maximumGapMeters ? max(0.01, gap / 10) : max(0.005, gap / 3)
  }

  /// Every frame's pose under the keyframes' `corrections`: blended between the two
  /// keyframes around it, the nearest's beyond the first and last.
  public static func interpolate(
    _ corrections: [Transform3D], at nodes: [Int], poses: [Transform3D], timestamps: [Double]
  ) -> [Transform3D] {
    guard let firstNode = nodes.first else { return poses }
    var result = poses
    var k = 0
    for index in firstNode..<poses.count {
      while k + 1 < nodes.count && nodes[k + 1] <= index { k += 1 }
      var correction = corrections[k]
      if k + 1 < nodes.count {
        let span = timestamps[nodes[k + 1]] - timestamps[nodes[k]]
        let alpha = span > 0 ? min(max((timestamps[index] - timestamps[nodes[k]]) / span, 0), 1) : 0
        let step = corrections[k + 1] * corrections[k].rigidInverse
        correction =
          Transform3D(axisAngle: alpha * step.rotationVector, translation: alpha * step.translation)
          * corrections[k]
      }
      result[index] = correction * poses[index]
    }
    return result
  }
}
