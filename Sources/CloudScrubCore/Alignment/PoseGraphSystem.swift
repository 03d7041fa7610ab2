import Foundation

/// A pose graph's normal equations H x = g in blocks of 6 × 6, one a node: diagonal
/// blocks, and one coupling block a pair of nodes an edge joins. Solved by conjugate
/// gradients with the inverse diagonal blocks as preconditioner, so a step costs a few
/// hundred passes over the edges instead of a dense factorisation of every node
/// against every other.
struct PoseGraphSystem {
  let nodes: Int
  private var diagonal: [Double]
  private var couplings: [Int: [Double]] = [:]
  private(set) var gradient: [Double]

  init(nodes: Int) {
    self.nodes = nodes
    diagonal = Array(repeating: 0, count: nodes * 36)
    gradient = Array(repeating: 0, count: nodes * 6)
  }

  /// Adds `block` to node `node`'s diagonal block and `sign` times `line` to its
  /// gradient.
  mutating func addDiagonal(_ node: Int, _ block: [Double], gradient line: [Double], sign: Double) {
    for i in 0..<36 { diagonal[node * 36 + i] += block[i] }
    for i in 0..<6 { gradient[node * 6 + i] += sign * line[i] }
  }

  /// Adds a symmetric coupling `block` between nodes `a` and `b` (H[a][b] and H[b][a]).
  mutating func addCoupling(_ a: Int, _ b: Int, _ block: [Double]) {
    guard a != b else {
      for i in 0..<36 { diagonal[a * 36 + i] += 2 * block[i] }
      return
    }
    let key = min(a, b) * nodes + max(a, b)
    couplings[key, default: Array(repeating: 0, count: 36)] = zip(
      couplings[key] ?? Array(repeating: 0, count: 36), block
    ).map(+)
  }

  /// Levenberg–Marquardt damping: each diagonal entry grows by `damping` times itself.
  mutating func damp(_ damping: Double) {
    for node in 0..<nodes {
      for i in 0..<6 {
        let index = node * 36 + i * 7
        diagonal[index] += damping * max(diagonal[index], 1e-9) + 1e-12
      }
    }
  }

  /// H v.
  func multiply(_ v: [Double]) -> [Double] {
    var out = [Double](repeating: 0, count: v.count)
    for node in 0..<nodes {
      for row in 0..<6 {
        var sum = 0.0
        for column in 0..<6 { sum += diagonal[node * 36 + row * 6 + column] * v[node * 6 + column] }
        out[node * 6 + row] += sum
      }
    }
    for (key, block) in couplings {
      let a = key / nodes
      let b = key % nodes
      for row in 0..<6 {
        var toA = 0.0
        var toB = 0.0
        for column in 0..<6 {
          toA += block[row * 6 + column] * v[b * 6 + column]
          toB += block[column * 6 + row] * v[a * 6 + column]
        }
        out[a * 6 + row] += toA
        out[b * 6 + row] += toB
      }
    }
    return out
  }

  /// x with H x = gradient, to a relative residual of 1e-12 (at most 4 × 6 × nodes
  /// iterations); nil when a diagonal block is not positive definite.
  func solve() -> [Double]? {
    var inverses: [[Double]] = []
    for node in 0..<nodes {
      let block = Array(diagonal[(node * 36)..<(node * 36 + 36)])
      var columns: [Double] = []
      for unit in 0..<6 {
        var factor = block
        let e = (0..<6).map { $0 == unit ? 1.0 : 0 }
        guard let column = PoseGraph.choleskySolve(&factor, e, 6) else { return nil }
        columns += column
      }
      inverses.append(columns)
    }
    func precondition(_ r: [Double]) -> [Double] {
      var z = [Double](repeating: 0, count: r.count)
      for node in 0..<nodes {
        for row in 0..<6 {
          var sum = 0.0
          // Column-major from the unit solves; the inverse is symmetric.
          for column in 0..<6 { sum += inverses[node][column * 6 + row] * r[node * 6 + column] }
          z[node * 6 + row] = sum
        }
      }
      return z
    }
    func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
    var x = [Double](repeating: 0, count: gradient.count)
    var r = gradient
    var z = precondition(r)
    var p = z
    var rz = dot(r, z)
    let stop = 1e-24 * max(dot(gradient, gradient), 1e-300)
    for _ in 0..<(4 * gradient.count) {
      guard dot(r, r) > stop else { break }
      let ap = multiply(p)
      let curvature = dot(p, ap)
      guard curvature > 0 else { break }
      let alpha = rz / curvature
      for i in x.indices {
        x[i] += alpha * p[i]
        r[i] -= alpha * ap[i]
      }
      z = precondition(r)
      let next = dot(r, z)
      let beta = next / rz
      rz = next
      for i in p.indices { p[i] = z[i] + beta * p[i] }
    }
    return x
  }
}
