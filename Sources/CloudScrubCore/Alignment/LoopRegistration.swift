import Foundation

/// Loop closure's registrations: each candidate pair's earlier keyframe registered to a
/// model of the later one's frames (see `LoopClosure`), on every core, one model a
/// later keyframe.
enum LoopRegistration {
  /// A registered pair that passed the quality test.
  struct Edge {
    /// Node indices (into the keyframes).
    var earlier: Int
    var later: Int
    /// The earlier keyframe's registered pose (world from OpenCV camera).
    var registered: Transform3D
    /// `registered` times the inverse of the pose it started from: the world-space
    /// correction the loop asks of the earlier keyframe.
    var correction: Transform3D
    var gapMeters: Float
    /// The point-to-plane information of its matches (`PoseGraphInformation`).
    var information: [Double]
    /// The earlier keyframe's points under the pose it started from.
    var points: [SIMD3<Float>]
  }

  /// A pair to register (node indices into the keyframes, earlier first).
  struct Candidate {
    var earlier: Int
    var later: Int
    /// A world correction of the earlier keyframe's pose to start from
    /// (`WideLoopSearch`); nil to start from the current poses.
    var guess: Transform3D? = nil
  }

  static func register(
    _ candidates: [Candidate], nodes: [Int], frames: [Int: AlignmentFrame],
    poses: [Transform3D], options: AlignmentOptions, voxelSizeMeters: Float
  ) -> [Edge] {
    let groups = Dictionary(grouping: candidates, by: \.later).sorted { $0.key < $1.key }
    let slots = ParallelSlots<[Edge]>(count: groups.count, initial: [])
    Parallel.perform(iterations: groups.count) { index in
      let (later, pairs) = groups[index]
      var model = SurfelVoxelMap(voxelSizeMeters: voxelSizeMeters)
      for offset in LoopClosure.modelOffsets {
        guard let frame = frames[nodes[later] + offset] else { continue }
        let transform = FloatRigid(poses[nodes[later] + offset])
        model.add(
          points: frame.pointsInCamera.map(transform.apply),
          normals: frame.normalsInCamera.map(transform.rotate), weight: 1)
      }
      var found: [Edge] = []
      for pair in pairs {
        guard let frame = frames[nodes[pair.earlier]] else { continue }
        let start = poses[nodes[pair.earlier]]
        guard
          let edge = registered(
            frame, from: start, guess: pair.guess, to: &model, options: options,
            nodes: (pair.earlier, later))
        else { continue }
        // A wide guess must also leave neither view's points where the other saw
        // through.
        if pair.guess != nil, let other = frames[nodes[later]] {
          let through = max(
            WideLoopSearch.seenThrough(
              frame, at: edge.registered, by: other, at: poses[nodes[later]]),
            WideLoopSearch.seenThrough(
              other, at: poses[nodes[later]], by: frame, at: edge.registered))
          guard through <= WideLoopSearch.maximumSeenThrough else { continue }
        }
        found.append(edge)
      }
      slots.modify(index) { $0 = found }
    }
    return (0..<groups.count).flatMap { slots[$0] }
  }

  /// `frame` registered to `model` from `start`: coarse (a Tukey kernel of at least
  /// 4 cm, 20 iterations), then fine (`options`' kernel, `fineIterations`); nil when
  /// either finds no match.
  static func coarseToFine(
    _ frame: AlignmentFrame, to model: inout SurfelVoxelMap, from start: Transform3D,
    options: AlignmentOptions, fineIterations: Int = 20
  ) -> Transform3D? {
    var coarse = options
    coarse.tukeyMeters = max(0.04, options.tukeyMeters)
    coarse.maxIterations = 20
    var fine = options
    fine.maxIterations = fineIterations
    let first = PointToPlaneRegistration(options: coarse).register(frame, to: &model, from: start)
    guard first.matches > 0 else { return nil }
    let second = PointToPlaneRegistration(options: fine).register(
      frame, to: &model, from: first.worldFromCamera)
    return second.matches > 0 ? second.worldFromCamera : nil
  }

  /// One pair's registration (`coarseToFine`) from `start`, or from `guess` times it
  /// with a kernel of 10 cm first; nil when it fails the quality test. The gap is
  /// measured from `start`, and may reach `LoopClosure.maximumWideGapMeters` with a guess.
  static func registered(
    _ frame: AlignmentFrame, from start: Transform3D, guess: Transform3D? = nil,
    to model: inout SurfelVoxelMap,
    options: AlignmentOptions, nodes: (earlier: Int, later: Int)
  ) -> Edge? {
    var from = start
    if let guess {
      // A guess is good to a few centimetres: a wider kernel first.
      var wide = options
      wide.tukeyMeters = max(0.1, options.tukeyMeters)
      wide.maxIterations = 20
      let widest = PointToPlaneRegistration(options: wide).register(
        frame, to: &model, from: guess * start)
      guard widest.matches > 0 else { return nil }
      from = widest.worldFromCamera
    }
    guard let pose = coarseToFine(frame, to: &model, from: from, options: options) else {
      return nil
    }
    let transform = FloatRigid(pose)
    var matched: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []
    for p in frame.pointsInCamera {
      let world = transform.apply(p)
      guard let plane = model.plane(containing: world) else { continue }
      let r = abs((plane.normal * (world - plane.point)).sum())
      if r < options.tukeyMeters {
        matched.append(world)
        normals.append(plane.normal)
      }
    }
    let count = max(frame.pointsInCamera.count, 1)
    guard Double(matched.count) / Double(count) >= LoopClosure.minimumInliers,
      matched.count >= options.minMatches
    else { return nil }
    let points = frame.pointsInCamera.map(FloatRigid(start).apply)
    let correction = pose * start.rigidInverse
    let gap = FrameAligner.rmsDisplacement(points, by: correction)
    guard gap <= (guess == nil ? LoopClosure.maximumGapMeters : LoopClosure.maximumWideGapMeters)
    else { return nil }
    return Edge(
      earlier: nodes.earlier, later: nodes.later, registered: pose, correction: correction,
      gapMeters: gap,
      information: PoseGraphInformation.pointToPlane(
        matched, normals, sigmaMeters: LoopClosure.loopSigmaMeters),
      points: points)
  }
}

/// The 6 × 6 information of a pose graph's edge (row-major, for a world twist (ω, v)
/// about the origin, which moves a point p by ω × p + v), as the mean over the edge's
/// points of what the twist does to them, over σ².
enum PoseGraphInformation {
  /// Every point's whole move counts: |ω × p + v|².
  static func displacement(_ points: [SIMD3<Float>], sigmaMeters: Double) -> [Double] {
    var m = [Double](repeating: 0, count: 36)
    guard !points.isEmpty else {
      return (0..<36).map { $0 % 7 == 0 ? 1 / (sigmaMeters * sigmaMeters) : 0 }
    }
    for point in points {
      let p = SIMD3<Double>(point)
      let squared = (p * p).sum()
      // [[|p|²I − ppᵀ, [p]×], [−[p]×, I]], [p]× the cross-product matrix of p.
      let cross: [Double] = [0, -p.z, p.y, p.z, 0, -p.x, -p.y, p.x, 0]
      for row in 0..<3 {
        for column in 0..<3 {
          m[row * 6 + column] += (row == column ? squared : 0) - p[row] * p[column]
          m[row * 6 + column + 3] += cross[row * 3 + column]
          m[(row + 3) * 6 + column] -= cross[row * 3 + column]
        }
        m[(row + 3) * 6 + row + 3] += 1
      }
    }
    let scale = 1 / (Double(points.count) * sigmaMeters * sigmaMeters)
    return m.map { $0 * scale }
  }

  /// Only the move along each point's normal counts: (n · (ω × p + v))², the
  /// point-to-plane distance, so directions the surfaces leave free carry nothing.
  static func pointToPlane(
    _ points: [SIMD3<Float>], _ normals: [SIMD3<Float>], sigmaMeters: Double
  ) -> [Double] {
    var m = [Double](repeating: 0, count: 36)
    for (point, normal) in zip(points, normals) {
      let p = SIMD3<Double>(point)
      let n = SIMD3<Double>(normal)
      let arm = SIMD3(p.y * n.z - p.z * n.y, p.z * n.x - p.x * n.z, p.x * n.y - p.y * n.x)
      let j = [arm.x, arm.y, arm.z, n.x, n.y, n.z]
      for row in 0..<6 { for column in 0..<6 { m[row * 6 + column] += j[row] * j[column] } }
    }
    let scale = 1 / (Double(max(points.count, 1)) * sigmaMeters * sigmaMeters)
    return m.map { $0 * scale }
  }
}
