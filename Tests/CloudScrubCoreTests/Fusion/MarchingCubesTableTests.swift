import Testing

@testable import CloudScrubCore

@Suite struct MarchingCubesTableTests {
  @Test func emptyAndFullCubesHaveNoTriangles() {
    #expect(MarchingCubesTable.triangles[0].isEmpty)
    #expect(MarchingCubesTable.triangles[255].isEmpty)
  }

  /// Corner 0 alone inside: one triangle on its three edges (x: 0, y: 4, z: 8), wound
  /// so that its normal points away from the corner, towards (1, 1, 1).
  @Test func oneCornerIsCutOffByOneOutwardTriangle() {
    let triangles = MarchingCubesTable.triangles[1]
    #expect(triangles.count == 1)
    let (a, b, c) = triangles[0]
    #expect(Set([a, b, c]) == [0, 4, 8])
    func midpoint(_ edge: UInt8) -> SIMD3<Double> {
      let (low, high) = MarchingCubesTable.corners(ofEdge: Int(edge))
      return
        (SIMD3<Double>(MarchingCubesTable.position(ofCorner: low))
        + SIMD3<Double>(MarchingCubesTable.position(ofCorner: high))) / 2
    }
    let normal = (midpoint(b) - midpoint(a)).cross(midpoint(c) - midpoint(a))
    #expect((normal * SIMD3(1, 1, 1)).sum() > 0)
  }

  /// Every pattern's triangles use exactly the edges whose corners differ in sign.
  @Test func trianglesUseExactlyTheCrossingEdges() {
    for pattern in 0..<256 {
      var crossing = Set<UInt8>()
      for edge in 0..<12 {
        let (low, high) = MarchingCubesTable.corners(ofEdge: edge)
        if (pattern >> low) & 1 != (pattern >> high) & 1 { crossing.insert(UInt8(edge)) }
      }
      let used = Set(MarchingCubesTable.triangles[pattern].flatMap { [$0.0, $0.1, $0.2] })
      #expect(used == crossing, "pattern \(pattern)")
    }
  }

  @Test func edgesJoinTheCornersTheyName() {
    for edge in 0..<12 {
      let (low, high) = MarchingCubesTable.corners(ofEdge: edge)
      let difference =
        MarchingCubesTable.position(ofCorner: high)
        &- MarchingCubesTable.position(ofCorner: low)
      #expect(
        difference == SIMD3((edge / 4) == 0 ? 1 : 0, edge / 4 == 1 ? 1 : 0, edge / 4 == 2 ? 1 : 0))
      #expect(MarchingCubesTable.edge(between: low, high) == edge)
    }
  }
}
