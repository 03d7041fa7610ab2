import Testing

@testable import CloudScrubCore

/// Culling with pose corrections: a node whose points a correction moves into view is
/// chosen, because each cube is grown by the furthest a correction moves a point.
@Suite struct LODPlanMarginTests {
  typealias Tagged = PointOctreeTests

  @Test func aNodeMovedIntoViewByItsCorrectionIsChosen() throws {
    let store = try Tagged.syntheticStore()
    let tree = PointOctree(store: store, options: LODPlanTests.options)
    let (clipFromWorld, view) = LODPlanTests.narrowView(of: store)
    // Every frame moved 0.2 m up and turned 2° about z: what was below the narrow view
    // is drawn inside it.
    let shift = Transform3D(
      axisAngle: SIMD3(0, 0, 2 * Double.pi / 180), translation: SIMD3(0, 0.2, 0))
    let corrections = FramePoseCorrections(
      refinedFromOriginal: Array(repeating: shift, count: store.frameCount))
    let margin = LODPlan.marginMeters(for: corrections, in: tree)
    // 0.2 m of translation plus 2° times a radius of at least the scene's own size.
    #expect(margin > 0.2)
    #expect(LODPlan.marginMeters(for: nil, in: tree) == 0)
    let plain = LODPlan(octree: tree, view: view, visibleFrames: 0...29, budgetPoints: 5_000)
    let grown = LODPlan(
      octree: tree, view: view, visibleFrames: 0...29, budgetPoints: 5_000, marginMeters: margin)
    let chosen = Set(grown.items.map(\.node))
    var movedIntoView = 0
    let matrix = Matrix4(shift)
    for (index, node) in tree.nodes.enumerated() {
      for k in 0..<node.pointCount {
        let p = node.points.positions[k]
        let moved = matrix.transform(SIMD4(p.x, p.y, p.z, 1))
        let c = clipFromWorld.transform(moved)
        guard abs(c.x) <= c.w && abs(c.y) <= c.w && abs(c.z) <= c.w else { continue }
        if !chosen.contains(index) { Issue.record("node \(index) is drawn in view but culled") }
        if !Set(plain.items.map(\.node)).contains(index) { movedIntoView += 1 }
      }
    }
    // The correction does bring points of nodes the plain plan culls into view.
    #expect(movedIntoView > 0)
    #expect(grown.totalPoints >= plain.totalPoints)
  }
}
