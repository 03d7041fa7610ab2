import Foundation

/// Camera poses tied by measured relative poses, optimised together: the backbone of
/// loop closure.
///
/// A node is a world-from-camera pose; node 0 never moves. An edge from node i to node
/// j measures `iFromJ`, what `poses[i]⁻¹ · poses[j]` should be. Its residual is the
/// world-space correction the measurement asks of the poses, D = poses[i] · iFromJ ·
/// poses[j]⁻¹ (the identity when they agree), written as a 6-vector r: D's rotation
/// vector ω and its translation v, so that D moves a world point p by about ω × p + v.
/// An edge weighs rᵀ Λ r with its 6 × 6 information Λ in the same coordinates (see
/// `PoseGraphInformation`). Each Gauss–Newton step moves every pose by a small world
/// twist δ (poses[i] ← exp(δᵢ) · poses[i]), which changes r by δᵢ − δⱼ to first order.
///
/// Robust edges (loops) weigh through a Cauchy kernel, w = 1 / (1 + rᵀΛr / μ), with
/// graduated non-convexity: μ starts above every robust edge's cost, where the kernel is
/// nearly quadratic, and falls to 1 step by step, so that edges that agree with the rest
/// keep their weight and one that disagrees loses it instead of bending the graph.
struct PoseGraph {
  struct Edge {
    var from: Int
    var to: Int
    var fromFromTo: Transform3D
    /// Row-major 6 × 6, for r = (ω, v) about the world origin.
    var information: [Double]
    var robust: Bool
  }

  /// A prior holding a node's tilt: the correction poses[node] · recorded⁻¹ turns the
  /// world's up direction by nothing, with `information` per radian².
  struct TiltPrior {
    var node: Int
    var recorded: Transform3D
    var up: SIMD3<Double>
    var information: Double
  }

  var poses: [Transform3D]
  var edges: [Edge] = []
  var tiltPriors: [TiltPrior] = []
  /// The robust edges' last weights (1 for the others), in `edges`' order.
  private(set) var weights: [Double] = []

  init(poses: [Transform3D]) {
    self.poses = poses
  }

  static func residual(_ edge: Edge, _ poses: [Transform3D]) -> [Double] {
    let d = poses[edge.from] * edge.fromFromTo * poses[edge.to].rigidInverse
    let w = d.rotationVector
    let t = d.translation
    return [w.x, w.y, w.z, t.x, t.y, t.z]
  }

  static func cost(_ r: [Double], _ information: [Double]) -> Double {
    var sum = 0.0
    for row in 0..<6 {
      var line = 0.0
      for column in 0..<6 { line += information[row * 6 + column] * r[column] }
      sum += r[row] * line
    }
    return sum
  }

  /// The tilt residual of a prior: the part of the correction's rotation vector across
  /// the up direction.
  static func tiltResidual(_ prior: TiltPrior, _ poses: [Transform3D]) -> SIMD3<Double> {
    let w = (poses[prior.node] * prior.recorded.rigidInverse).rotationVector
    return w - (w * prior.up).sum() * prior.up
  }

  /// Optimises the poses: `stages` of graduated non-convexity with `iterations`
  /// Levenberg–Marquardt steps each.
  mutating func optimize(stages: Int = 6, iterations: Int = 6) {
    weights = edges.map { _ in 1 }
    guard poses.count > 1 else { return }
    let startCosts = edges.map {
      $0.robust ? Self.cost(Self.residual($0, poses), $0.information) : 0
    }
    var mu = max(1, startCosts.max() ?? 1)
    let fall = pow(mu, 1 / Double(max(stages - 1, 1)))
    for stage in 0..<stages {
      if stage == stages - 1 { mu = 1 }
      var damping = 1e-6
      for _ in 0..<iterations {
        for (index, edge) in edges.enumerated() where edge.robust {
          let s = Self.cost(Self.residual(edge, poses), edge.information)
          weights[index] = 1 / (1 + s / mu)
        }
        let before = totalCost()
        guard let step = solve(damping: damping) else { break }
        let saved = poses
        apply(step)
        if totalCost() > before {
          poses = saved
          damping *= 10
          if damping > 1e3 { break }
          continue
        }
        damping = max(damping / 10, 1e-9)
        if step.map(abs).max() ?? 0 < 1e-9 { break }
      }
      mu = max(1, mu / fall)
    }
  }

  private func totalCost() -> Double {
    var sum = 0.0
    for (index, edge) in edges.enumerated() {
      sum += weights[index] * Self.cost(Self.residual(edge, poses), edge.information)
    }
    for prior in tiltPriors {
      let r = Self.tiltResidual(prior, poses)
      sum += prior.information * (r * r).sum()
    }
    return sum
  }

  private mutating func apply(_ step: [Double]) {
    for node in 1..<poses.count {
      let base = (node - 1) * 6
      let omega = SIMD3(step[base], step[base + 1], step[base + 2])
      let shift = SIMD3(step[base + 3], step[base + 4], step[base + 5])
      poses[node] = Transform3D(axisAngle: omega, translation: shift) * poses[node]
    }
  }

  /// The damped Gauss–Newton step of every node but the first.
  private func solve(damping: Double) -> [Double]? {
    var system = PoseGraphSystem(nodes: poses.count - 1)
    for (index, edge) in edges.enumerated() {
      let weight = weights[index]
      let lambda = edge.information.map { $0 * weight }
      let r = Self.residual(edge, poses)
      var line = [Double](repeating: 0, count: 6)
      for row in 0..<6 {
        for column in 0..<6 { line[row] += lambda[row * 6 + column] * r[column] }
      }
      // Node 0 is fixed: its rows and columns leave the system.
      if edge.from > 0 { system.addDiagonal(edge.from - 1, lambda, gradient: line, sign: 1) }
      if edge.to > 0 { system.addDiagonal(edge.to - 1, lambda, gradient: line, sign: -1) }
      if edge.from > 0 && edge.to > 0 {
        system.addCoupling(edge.from - 1, edge.to - 1, lambda.map { -$0 })
      }
    }
    for prior in tiltPriors where prior.node > 0 {
      let r = Self.tiltResidual(prior, poses)
      let up = [prior.up.x, prior.up.y, prior.up.z]
      var block = [Double](repeating: 0, count: 36)
      var line = [Double](repeating: 0, count: 6)
      for row in 0..<3 {
        for column in 0..<3 {
          block[row * 6 + column] =
            prior.information * ((row == column ? 1 : 0) - up[row] * up[column])
        }
        line[row] = prior.information * r[row]
      }
      system.addDiagonal(prior.node - 1, block, gradient: line, sign: 1)
    }
    system.damp(damping)
    return system.solve()?.map { -$0 }
  }

  /// Solves H x = b for a symmetric positive definite H (row-major, overwritten by its
  /// Cholesky factor); nil when H is not positive definite.
  static func choleskySolve(_ h: inout [Double], _ b: [Double], _ n: Int) -> [Double]? {
    var x = b
    let solved = h.withUnsafeMutableBufferPointer { a -> Bool in
      for j in 0..<n {
        var diagonal = a[j * n + j]
        for k in 0..<j { diagonal -= a[j * n + k] * a[j * n + k] }
        guard diagonal > 0 else { return false }
        let root = diagonal.squareRoot()
        a[j * n + j] = root
        for i in (j + 1)..<max(n, j + 1) {
          var sum = a[i * n + j]
          let rowI = i * n
          let rowJ = j * n
          for k in 0..<j { sum -= a[rowI + k] * a[rowJ + k] }
          a[rowI + j] = sum / root
        }
      }
      return true
    }
    guard solved else { return nil }
    // L y = b, then Lᵀ x = y.
    for i in 0..<n {
      var sum = x[i]
      for k in 0..<i { sum -= h[i * n + k] * x[k] }
      x[i] = sum / h[i * n + i]
    }
    for i in stride(from: n - 1, through: 0, by: -1) {
      var sum = x[i]
      for k in (i + 1)..<max(n, i + 1) { sum -= h[k * n + i] * x[k] }
      x[i] = sum / h[i * n + i]
    }
    return x
  }
}
