import Foundation
import Testing

@testable import CloudScrubCore

/// The grid used for statistical outlier removal on large clouds must return exactly
/// the k-d tree's neighbours (which `OutlierRemovalTests` checks against brute force).
struct CleaningNeighbourGridTests {
  /// Surfaces, outliers in the air, exact duplicates and a lattice full of ties.
  private func cloud() -> [Point3] {
    var positions = SyntheticCloud.scene(count: 9000, seed: 11).positions
    var random = SplitMix64(seed: 12)
    for i in Swift.stride(from: 0, to: positions.count, by: 97) {
      positions[i] = Point3(random.unit() * 4 - 2, random.unit() * 2.5, random.unit() * 4 - 2)
    }
    for i in 0..<200 { positions.append(positions[i * 13]) }
    for x in 0..<20 {
      for z in 0..<20 { positions.append(Point3(Float(x) * 0.01, 1, Float(z) * 0.01)) }
    }
    positions.append(Point3(.nan, 0, 0))
    return positions
  }

  private func gridNeighbours(_ tree: KDTree, _ grid: NeighbourGrid, k: Int) -> [[Neighbour]] {
    let results = ParallelSlots<[Neighbour]>(count: tree.sourceCount, initial: [])
    grid.forEachNearest(tree, count: k) { entry, search, found in
      results[Int(entry.index)] = (0..<found).map {
        Neighbour(index: Int(search.index($0)), distanceSquared: search.distanceSquared($0))
      }
    }
    return (0..<tree.sourceCount).map { results[$0] }
  }

  @Test(arguments: [8, 20])
  func gridFindsTheTreesNeighbours(k: Int) throws {
    let positions = cloud()
    let tree = KDTree(positions)
    let grid = try #require(NeighbourGrid(tree, neighbours: k))
    let found = gridNeighbours(tree, grid, k: k)
    for (index, p) in positions.enumerated() where p.x.isFinite {
      #expect(found[index] == tree.nearest(to: p, count: k, excluding: index), "point \(index)")
    }
  }

  @Test func treeSearchInTreeOrderMatchesSingleQueries() {
    let positions = cloud()
    let tree = KDTree(positions)
    let results = ParallelSlots<[Neighbour]>(count: positions.count, initial: [])
    tree.forEachNearest(count: 20) { entry, search, found in
      results[Int(entry.index)] = (0..<found).map {
        Neighbour(index: Int(search.index($0)), distanceSquared: search.distanceSquared($0))
      }
    }
    for (index, p) in positions.enumerated() where p.x.isFinite {
      #expect(results[index] == tree.nearest(to: p, count: 20, excluding: index), "point \(index)")
    }
  }

  @Test func smallOrSpreadCloudsHaveNoGrid() {
    #expect(NeighbourGrid(KDTree(Array(cloud().prefix(100))), neighbours: 20) == nil)
    // Two clusters a kilometre apart would need far too many cells.
    var spread = SyntheticCloud.scene(count: 5000, seed: 2).positions
    spread += spread.map { Point3($0.x + 1000, $0.y, $0.z) }
    #expect(NeighbourGrid(KDTree(spread), neighbours: 20) == nil)
  }
}
