import CloudScrubCore
import Testing

@testable import CloudScrubFormats

/// The octree's cell sets and its placement, against the plain definitions: a `Set` of
/// cells, and one pass over the points in file order, level after level.
@Suite struct COPCOctreePlacementTests {
  @Test func theCellSetAnswersAsASetOfTheSameCells() {
    var numbers = SplitMix64(seed: 3)
    var cells = LAZCellSet()
    var reference = Set<UInt64>()
    // Runs of neighbouring cells across block edges, and cells far apart.
    for run in 0..<2_000 {
      let level = Int(numbers.next() % 13)
      let side = UInt64(128) << level
      var x = numbers.next() % side
      var y = numbers.next() % side
      var z = numbers.next() % side
      for _ in 0..<(run % 2 == 0 ? 40 : 1) {
        let key = COPCOctree.pack(level, x, y, z)
        #expect(cells.insert(key) == reference.insert(key).inserted)
        x = min(side - 1, x + numbers.next() % 3)
        y = min(side - 1, y + numbers.next() % 2)
        z = (z + side - numbers.next() % 2) % side
      }
    }
    #expect(reference.count > 20_000)
  }

  /// Each point's level and cell over 128, found one point after another.
  static func reference(_ points: [SIMD3<Double>], rootCell: Double, deepest: Int) -> [UInt64] {
    var taken = [Set<UInt64>](repeating: [], count: deepest + 1)
    return points.map { unit in
      for level in 0...deepest {
        let side = Double(COPCOctree.grid << level)
        let c = (unit / rootCell * Double(1 << level)).rounded(.down)
        let x = UInt64(min(max(c.x, 0), side - 1))
        let y = UInt64(min(max(c.y, 0), side - 1))
        let z = UInt64(min(max(c.z, 0), side - 1))
        if level == deepest || taken[level].insert(COPCOctree.pack(level, x, y, z)).inserted {
          return COPCOctree.pack(level, x >> 7, y >> 7, z >> 7)
        }
      }
      return 0
    }
  }

  @Test(arguments: [0, 1, 4])
  func octantsPlacedInParallelMatchOnePassInFileOrder(deepest: Int) {
    var numbers = SplitMix64(seed: UInt64(10 + deepest))
    // Clusters in every octant and points on the planes between them, so that most
    // points go below the root and some lie on an octant's edge.
    var points: [SIMD3<Double>] = []
    for _ in 0..<60_000 {
      let centre = SIMD3(Double(numbers.next() % 3), Double(numbers.next() % 3), 1) * 0.5
      let spread = SIMD3<Double>.random(in: 0..<0.01, using: &numbers)
      points.append(centre + spread)
    }
    let rootCell = 1.0 / Double(COPCOctree.grid)
    let placed = COPCOctree.place(
      count: points.count, corner: .zero, rootCell: rootCell, deepest: deepest
    ) { points[$0] }
    let expected = Self.reference(points, rootCell: rootCell, deepest: deepest)
    #expect(placed == expected)
    let levels = Set(placed.map { $0 >> 57 })
    #expect(levels.count == deepest + 1, "levels used: \(levels.sorted())")
  }
}
