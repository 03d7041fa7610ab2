import Foundation
import Testing

@testable import CloudScrubCore

/// The pose graph on chains whose least-squares answer is worked out by hand.
@Suite struct PoseGraphTests {
  static func shift(_ x: Double, _ y: Double = 0) -> Transform3D {
    Transform3D(axisAngle: .zero, translation: SIMD3(x, y, 0))
  }

  /// Odometry edges along x from node 0 to node `count − 1`, each saying `step`.
  static func chain(_ count: Int, step: Double, sigma: Double) -> [PoseGraph.Edge] {
    (1..<count).map { k in
      PoseGraph.Edge(
        from: k - 1, to: k, fromFromTo: shift(step), information: information(sigma: sigma),
        robust: false)
    }
  }

  /// Isotropic information 1 / σ² on every component.
  static func information(sigma: Double) -> [Double] {
    (0..<36).map { $0 % 7 == 0 ? 1 / (sigma * sigma) : 0 }
  }

  /// Ten nodes 0.1 m apart along x; each odometry edge says 0.102 m (2 mm too long),
  /// and a loop edge from node 0 to node 9 says 0.9 m. With equal information on all ten
  /// edges the 18 mm the chain overshoots is shared equally, 1.8 mm an edge: each
  /// odometry edge ends 0.1002 m long and node 9 at 9 × 0.1002 = 0.9018 m.
  @Test func aLoopSharesTheChainsErrorEquallyAmongEqualEdges() {
    var graph = PoseGraph(poses: (0..<10).map { Self.shift(0.102 * Double($0)) })
    graph.edges = Self.chain(10, step: 0.102, sigma: 0.01)
    graph.edges.append(
      PoseGraph.Edge(
        from: 0, to: 9, fromFromTo: Self.shift(0.9),
        information: Self.information(sigma: 0.01), robust: false))
    graph.optimize()
    #expect(graph.poses[0] == Self.shift(0))
    for k in 0..<10 {
      let x = graph.poses[k].translation.x
      #expect(abs(x - 0.1002 * Double(k)) < 1e-7, "node \(k) at \(x) m")
      #expect(abs(graph.poses[k].translation.y) < 1e-9)
      #expect(graph.poses[k].rotationVector == .zero || abs(graph.poses[k].rotationVector.z) < 1e-9)
    }
  }

  /// Exact odometry and two true loops (0→9, 2→7), then a wrong loop from node 0 to
  /// node 5 claiming node 5 sits 0.2 m off to the side: the robust kernel must take its
  /// weight away and leave every node within a millimetre of the truth.
  @Test func aWrongLoopLosesItsWeightAndBendsNothing() {
    let truth = (0..<10).map { Self.shift(0.1 * Double($0)) }
    var graph = PoseGraph(poses: truth)
    graph.edges = Self.chain(10, step: 0.1, sigma: 0.003)
    for (a, b) in [(0, 9), (2, 7)] {
      graph.edges.append(
        PoseGraph.Edge(
          from: a, to: b, fromFromTo: Self.shift(0.1 * Double(b - a)),
          information: Self.information(sigma: 0.002), robust: true))
    }
    graph.edges.append(
      PoseGraph.Edge(
        from: 0, to: 5, fromFromTo: Self.shift(0.5, 0.2),
        information: Self.information(sigma: 0.002), robust: true))
    graph.optimize()
    let weights = graph.weights.suffix(3)
    #expect(weights.last ?? 1 < 0.01, "the wrong loop kept weight \(weights)")
    #expect(weights.dropLast().allSatisfy { $0 > 0.9 }, "true loops lost weight: \(weights)")
    for (k, pose) in graph.poses.enumerated() {
      let d = pose.translation - truth[k].translation
      #expect((d * d).sum().squareRoot() < 0.001, "node \(k) off by \(d)")
    }
  }

  /// A held tilt: a loop edge asks node 3 to turn 2° about x (a tilt, world up y), and
  /// the tilt prior holds it, while a turn about y (yaw) passes.
  @Test func aTiltPriorHoldsTiltAndLetsYawPass() {
    var graph = PoseGraph(poses: (0..<4).map { Self.shift(0.1 * Double($0)) })
    graph.edges = Self.chain(4, step: 0.1, sigma: 0.05)
    let angle = 2 * Double.pi / 180
    let turn = Transform3D(axisAngle: SIMD3(angle, angle, 0), translation: SIMD3(0.3, 0, 0))
    graph.edges.append(
      PoseGraph.Edge(
        from: 0, to: 3, fromFromTo: turn, information: Self.information(sigma: 0.001),
        robust: false))
    graph.tiltPriors = (0..<4).map {
      PoseGraph.TiltPrior(
        node: $0, recorded: Self.shift(0.1 * Double($0)), up: SIMD3(0, 1, 0), information: 1e10)
    }
    graph.optimize()
    let w = graph.poses[3].rotationVector
    #expect(abs(w.x) < 1e-4, "tilt \(w.x) rad")
    #expect(abs(w.y - angle) < 0.05 * angle, "yaw \(w.y) rad, wanted \(angle)")
  }

  @Test func choleskySolvesASmallSystem() throws {
    // [[4, 2], [2, 3]] x = [2, 1] → x = [0.5, 0].
    var h = [4.0, 2, 2, 3]
    let x = try #require(PoseGraph.choleskySolve(&h, [2, 1], 2))
    #expect(abs(x[0] - 0.5) < 1e-12 && abs(x[1]) < 1e-12)
    var singular = [1.0, 1, 1, 1]
    #expect(PoseGraph.choleskySolve(&singular, [1, 1], 2) == nil)
  }
}
