import Foundation
import Testing

@testable import CloudScrubCore

/// The grid used for statistical outlier removal on large clouds must return exactly
/// the k-d tree's neighbour distances (which `OutlierRemovalTests` checks against brute
/// force), whatever ties, duplicates and outliers the cloud holds.
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
    // A crowd too dense for its cells: its blocks go to the tree.
    for _ in 0..<600 {
      positions.append(Point3(0.5 + random.unit() * 0.002, 0.3 + random.unit() * 0.002, 0.1))
    }
    positions.append(Point3(.nan, 0, 0))
    return positions
  }

  private func gridDistances(_ grid: NeighbourGrid, count: Int, k: Int) -> [[Float]] {
    let results = ParallelSlots<[Float]>(count: count, initial: [])
    grid.forEachNearestDistances(count: k) { entry, distances in
      results[Int(entry.index)] = Array(distances)
    }
    return (0..<count).map { results[$0] }
  }

  @Test(arguments: [8, 20])
  func gridFindsTheTreesDistances(k: Int) throws {
    let positions = cloud()
    let reference = KDTree(positions)
    let grid = try #require(NeighbourGrid(KDTree(mortonOrdering: positions), neighbours: k))
    let found = gridDistances(grid, count: positions.count, k: k)
    for (index, p) in positions.enumerated() where p.x.isFinite {
      let expected = reference.nearest(to: p, count: k, excluding: index).map(\.distanceSquared)
      #expect(found[index] == expected, "point \(index)")
    }
    #expect(found[positions.count - 1].isEmpty)
  }

  /// A tree built in Morton order (no median selection) answers exactly as the
  /// median-split tree does, nearest and radius queries alike.
  @Test func mortonOrderedTreeMatchesTheMedianTree() {
    let positions = cloud()
    let median = KDTree(positions)
    let morton = KDTree(mortonOrdering: positions)
    #expect(morton.count == median.count)
    #expect(morton.sourceCount == positions.count)
    for index in Swift.stride(from: 0, to: positions.count, by: 7) where positions[index].x.isFinite
    {
      let p = positions[index]
      #expect(
        morton.nearest(to: p, count: 12, excluding: index)
          == median.nearest(to: p, count: 12, excluding: index), "point \(index)")
      #expect(
        morton.within(radiusMeters: 0.03, of: p) == median.within(radiusMeters: 0.03, of: p),
        "point \(index)")
    }
    #expect(KDTree(mortonOrdering: []).count == 0)
    #expect(
      KDTree(mortonOrdering: [Point3(.nan, 0, 0)]).nearest(to: Point3(0, 0, 0), count: 1).isEmpty)
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

  /// Half the points packed into a patch, half spread over a floor: cells sized for the
  /// floor would hold hundreds of the packed points, so the tree alone serves.
  @Test func unevenDensityHasNoGrid() {
    var random = SplitMix64(seed: 21)
    var positions: [Point3] = []
    for _ in 0..<5000 { positions.append(Point3(random.unit() * 2, 0, random.unit() * 2)) }
    for _ in 0..<5000 { positions.append(Point3(random.unit() * 0.02, 0, random.unit() * 0.02)) }
    #expect(NeighbourGrid(KDTree(mortonOrdering: positions), neighbours: 20) == nil)
    // Spread evenly instead, the same count gets a grid.
    let even = (0..<10_000).map { _ in Point3(random.unit() * 2, 0, random.unit() * 2) }
    #expect(NeighbourGrid(KDTree(mortonOrdering: even), neighbours: 20) != nil)
  }

  @Test func smallOrSpreadCloudsHaveNoGrid() {
    #expect(
      NeighbourGrid(KDTree(mortonOrdering: Array(cloud().prefix(100))), neighbours: 20) == nil)
    // Two clusters a kilometre apart would need far too many cells.
    var spread = SyntheticCloud.scene(count: 5000, seed: 2).positions
    spread += spread.map { Point3($0.x + 1000, $0.y, $0.z) }
    #expect(NeighbourGrid(KDTree(mortonOrdering: spread), neighbours: 20) == nil)
  }
}
