import Foundation
import Testing

@testable import CloudScrubCore

// MARK: - Reference implementations

/// Brute-force neighbour searches and outlier filters, written from the definitions, that
/// the k-d tree and `OutlierRemoval` must match exactly.
enum BruteForceNeighbours {
  static func isFinite(_ p: Point3) -> Bool { p.x.isFinite && p.y.isFinite && p.z.isFinite }

  static func distanceSquared(_ p: Point3, _ q: Point3) -> Float {
    let dx = p.x - q.x
    let dy = p.y - q.y
    let dz = p.z - q.z
    return dx * dx + dy * dy + dz * dz
  }

  /// Every finite point but `excluding`, sorted by (squared distance, index).
  static func sorted(_ positions: [Point3], from q: Point3, excluding: Int?) -> [Neighbour] {
    positions.indices
      .filter { $0 != excluding && isFinite(positions[$0]) }
      .map { Neighbour(index: $0, distanceSquared: distanceSquared(positions[$0], q)) }
      .sorted { ($0.distanceSquared, $0.index) < ($1.distanceSquared, $1.index) }
  }

  /// The statistical filter exactly as `OutlierRemoval.statistical` documents it.
  static func statistical(_ positions: [Point3], k: Int, stdRatio: Double) -> [Bool] {
    var keep = positions.map(isFinite)
    let finite = positions.indices.filter { keep[$0] }
    guard k >= 1, finite.count >= 2 else { return keep }
    var means = [Double](repeating: 0, count: positions.count)
    for i in finite {
      // The k smallest distances, nearest first; which of several tied points supplies
      // a distance does not change the sum.
      var distances = finite.filter { $0 != i }.map { distanceSquared(positions[$0], positions[i]) }
      distances.sort()
      let neighbours = distances.prefix(k)
      var sum = 0.0
      for d in neighbours { sum += Double(d.squareRoot()) }
      means[i] = sum / Double(neighbours.count)
    }
    var sum = 0.0
    for i in finite { sum += means[i] }
    let mean = sum / Double(finite.count)
    var squares = 0.0
    for i in finite { squares += (means[i] - mean) * (means[i] - mean) }
    let threshold = mean + stdRatio * (squares / Double(finite.count - 1)).squareRoot()
    for i in finite { keep[i] = means[i] <= threshold }
    return keep
  }

  static func radius(_ positions: [Point3], radius: Float, minNeighbours: Int) -> [Bool] {
    positions.indices.map { i in
      guard isFinite(positions[i]) else { return false }
      guard minNeighbours >= 1 else { return true }
      guard radius >= 0 else { return false }
      let r2 = radius * radius
      let inside = positions.indices.filter {
        $0 != i && isFinite(positions[$0]) && distanceSquared(positions[$0], positions[i]) <= r2
      }
      return inside.count >= minNeighbours
    }
  }
}

/// Seeded test clouds.
enum TestClouds {
  /// Gaussian-ish clusters plus scattered outliers and a few exact duplicates. With
  /// `gridMeters`, coordinates snap to a grid so that many distances tie exactly.
  static func clustered(count: Int, seed: UInt64, gridMeters: Float? = nil) -> [Point3] {
    var random = SplitMix64(seed: seed)
    func uniform(_ range: ClosedRange<Float>) -> Float {
      range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
    }
    func bump() -> Float { (random.unit() + random.unit() + random.unit() - 1.5) * 0.15 }
    let centres = (0..<5).map { _ in Point3(uniform(-1...1), uniform(-1...1), uniform(-1...1)) }
    var points: [Point3] = []
    for i in 0..<count {
      let pick = random.unit()
      var p: Point3
      if pick < 0.03, i > 0 {
        p = points[Int(random.next() % UInt64(points.count))]
      } else if pick < 0.12 {
        p = Point3(uniform(-2...2), uniform(-2...2), uniform(-2...2))
      } else {
        let c = centres[Int(random.next() % 5)]
        p = Point3(c.x + bump(), c.y + bump(), c.z + bump())
      }
      if let grid = gridMeters {
        p = Point3(
          (p.x / grid).rounded() * grid, (p.y / grid).rounded() * grid,
          (p.z / grid).rounded() * grid)
      }
      points.append(p)
    }
    return points
  }
}

// MARK: - The index

@Suite struct OutlierKDTreeQueryTests {
  @Test(arguments: [(1, nil), (2, 1.0 / 32), (3, 1.0 / 8), (4, nil)] as [(UInt64, Float?)])
  func nearestNeighboursEqualBruteForce(seed: UInt64, grid: Float?) {
    let points = TestClouds.clustered(count: 1500, seed: seed, gridMeters: grid)
    let tree = KDTree(points)
    #expect(tree.count == points.count)
    var random = SplitMix64(seed: seed &+ 100)
    let ks = [1, 4, 20, 60]
    for i in stride(from: 0, to: points.count, by: 13) {
      let all = BruteForceNeighbours.sorted(points, from: points[i], excluding: i)
      for k in ks {
        #expect(tree.nearest(to: points[i], count: k, excluding: i) == Array(all.prefix(k)))
      }
    }
    for _ in 0..<40 {
      let q = Point3(random.unit() * 5 - 2.5, random.unit() * 5 - 2.5, random.unit() * 5 - 2.5)
      let all = BruteForceNeighbours.sorted(points, from: q, excluding: nil)
      for k in ks { #expect(tree.nearest(to: q, count: k) == Array(all.prefix(k))) }
    }
  }

  @Test(arguments: [(5, nil), (6, 1.0 / 16)] as [(UInt64, Float?)])
  func radiusQueriesEqualBruteForce(seed: UInt64, grid: Float?) {
    let points = TestClouds.clustered(count: 1500, seed: seed, gridMeters: grid)
    let tree = KDTree(points)
    for i in stride(from: 0, to: points.count, by: 17) {
      let all = BruteForceNeighbours.sorted(points, from: points[i], excluding: nil)
      for radius: Float in [0, 0.03, 0.0625, 0.2, 1] {
        let inside = all.filter { $0.distanceSquared <= radius * radius }
        #expect(tree.within(radiusMeters: radius, of: points[i]) == inside)
        #expect(
          tree.within(radiusMeters: radius, of: points[i], excluding: i)
            == inside.filter { $0.index != i })
      }
    }
  }

  @Test func treeBuiltOnSeveralCoresMatchesBruteForce() {
    // Past 65,536 points the subtrees are built concurrently.
    let points = TestClouds.clustered(count: 90_000, seed: 7, gridMeters: 1.0 / 256)
    let tree = KDTree(points)
    for i in stride(from: 0, to: points.count, by: 4001) {
      // (distance bits, index) as one integer orders like (distance, index).
      let keys = points.indices.filter { $0 != i }.map {
        UInt64(BruteForceNeighbours.distanceSquared(points[$0], points[i]).bitPattern) << 32
          | UInt64($0)
      }.sorted()
      let expected = keys.prefix(20).map {
        Neighbour(
          index: Int($0 & 0xFFFF_FFFF),
          distanceSquared: Float(bitPattern: UInt32(truncatingIfNeeded: $0 >> 32)))
      }
      #expect(tree.nearest(to: points[i], count: 20, excluding: i) == expected)
      let radius: Float = 0.05
      let radiusSquared = radius * radius
      let inside = keys.filter { $0 >> 32 <= UInt64(radiusSquared.bitPattern) }.count
      #expect(tree.within(radiusMeters: radius, of: points[i], excluding: i).count == inside)
    }
  }

  @Test func tiesAtEqualDistanceGoToTheLowerIndex() {
    // Eight corners of a cube around the origin, all at the same distance, shuffled.
    let corners = [
      Point3(1, 1, 1), Point3(-1, 1, 1), Point3(1, -1, 1), Point3(1, 1, -1),
      Point3(-1, -1, 1), Point3(-1, 1, -1), Point3(1, -1, -1), Point3(-1, -1, -1),
    ]
    let points = (0..<40).map { corners[$0 % 8] }
    let tree = KDTree(points)
    #expect(tree.nearest(to: .zero, count: 5).map(\.index) == [0, 1, 2, 3, 4])
    #expect(tree.within(radiusMeters: 2, of: .zero).map(\.index) == Array(0..<40))
  }

  @Test func smallAndEmptyTreesAnswerWithWhatTheyHold() {
    let empty = KDTree([])
    #expect(empty.count == 0)
    #expect(empty.nearest(to: .zero, count: 3).isEmpty)
    #expect(empty.within(radiusMeters: 10, of: .zero).isEmpty)
    let three = [Point3(0, 0, 0), Point3(1, 0, 0), Point3(0, 2, 0)]
    let tree = KDTree(three)
    #expect(tree.nearest(to: .zero, count: 10).map(\.index) == [0, 1, 2])
    #expect(tree.nearest(to: .zero, count: 10, excluding: 0).map(\.index) == [1, 2])
    #expect(tree.nearest(to: .zero, count: 0).isEmpty)
    #expect(tree.within(radiusMeters: 1, of: .zero).map(\.index) == [0, 1])
    #expect(tree.within(radiusMeters: -1, of: .zero).isEmpty)
  }

  @Test func nonFinitePointsAreLeftOutOfTheTree() {
    let points = [
      Point3(0, 0, 0), Point3(.nan, 0, 0), Point3(0.5, 0, 0), Point3(0, .infinity, 0),
    ]
    let tree = KDTree(points)
    #expect(tree.count == 2)
    #expect(tree.nearest(to: .zero, count: 4).map(\.index) == [0, 2])
    #expect(tree.nearest(to: Point3(.nan, 0, 0), count: 4).isEmpty)
  }
}

// MARK: - The filters

@Suite struct OutlierRemovalTests {
  @Test(
    arguments: [
      (11, 8, 1.0, nil), (12, 20, 2.0, nil), (13, 6, 0.5, 1.0 / 32), (14, 3, 1.5, 1.0 / 8),
    ]
      as [(UInt64, Int, Double, Float?)])
  func statisticalMaskEqualsBruteForce(seed: UInt64, k: Int, stdRatio: Double, grid: Float?) {
    let points = TestClouds.clustered(count: 2500, seed: seed, gridMeters: grid)
    let keep = OutlierRemoval.statistical(points, neighbours: k, stdRatio: stdRatio)
    #expect(keep == BruteForceNeighbours.statistical(points, k: k, stdRatio: stdRatio))
    let removed = keep.filter { !$0 }.count
    #expect(removed > 0 && removed < points.count / 4)
  }

  @Test(
    arguments: [
      (21, 0.05, 3, nil), (22, 0.1, 10, nil), (23, 0.0625, 4, 1.0 / 32), (24, 0.25, 1, 1.0 / 8),
    ] as [(UInt64, Float, Int, Float?)])
  func radiusMaskEqualsBruteForce(seed: UInt64, radius: Float, minNeighbours: Int, grid: Float?) {
    let points = TestClouds.clustered(count: 2500, seed: seed, gridMeters: grid)
    let keep = OutlierRemoval.radius(points, radiusMeters: radius, minNeighbours: minNeighbours)
    #expect(
      keep
        == BruteForceNeighbours.radius(points, radius: radius, minNeighbours: minNeighbours))
    #expect(keep.contains(true) && keep.contains(false))
  }

  @Test func scatteredPointsFarFromClustersAreRemoved() {
    var points = TestClouds.clustered(count: 2000, seed: 31)
    let far = [Point3(10, 10, 10), Point3(-9, 4, 12), Point3(7, -11, -8)]
    points += far
    let statistical = OutlierRemoval.statistical(points, neighbours: 10, stdRatio: 2)
    let radius = OutlierRemoval.radius(points, radiusMeters: 0.2, minNeighbours: 2)
    for i in points.count - far.count..<points.count {
      #expect(!statistical[i])
      #expect(!radius[i])
    }
  }

  @Test func emptyInputGivesEmptyMasks() {
    #expect(OutlierRemoval.statistical([], neighbours: 10, stdRatio: 2).isEmpty)
    #expect(OutlierRemoval.radius([], radiusMeters: 1, minNeighbours: 2).isEmpty)
  }

  @Test func fewerPointsThanKUseAllTheOthers() {
    let points = [Point3(0, 0, 0), Point3(0.1, 0, 0), Point3(0, 0.1, 0), Point3(5, 5, 5)]
    let keep = OutlierRemoval.statistical(points, neighbours: 20, stdRatio: 1)
    #expect(keep == BruteForceNeighbours.statistical(points, k: 20, stdRatio: 1))
    #expect(keep == [true, true, true, false])
    #expect(OutlierRemoval.statistical([Point3(1, 2, 3)], neighbours: 5, stdRatio: 1) == [true])
    #expect(
      OutlierRemoval.radius(points, radiusMeters: 0.2, minNeighbours: 5) == [
        false, false, false, false,
      ])
  }

  @Test func identicalPointsAreAllKept() {
    let points = [Point3](repeating: Point3(1, 2, 3), count: 50)
    #expect(OutlierRemoval.statistical(points, neighbours: 8, stdRatio: 0).allSatisfy { $0 })
    #expect(OutlierRemoval.radius(points, radiusMeters: 0, minNeighbours: 49).allSatisfy { $0 })
    #expect(OutlierRemoval.radius(points, radiusMeters: 0, minNeighbours: 50).allSatisfy { !$0 })
  }

  @Test func duplicatesCountAsNeighbours() {
    let points = [Point3(0, 0, 0), Point3(0, 0, 0), Point3(3, 0, 0)]
    #expect(
      OutlierRemoval.radius(points, radiusMeters: 0, minNeighbours: 1) == [true, true, false])
  }

  @Test func radiusIsInclusive() {
    let points = [Point3(0, 0, 0), Point3(0.5, 0, 0), Point3(2, 0, 0)]
    #expect(
      OutlierRemoval.radius(points, radiusMeters: 0.5, minNeighbours: 1) == [true, true, false])
  }

  @Test func nonFinitePointsAreRemovedAndIgnored() {
    var points = TestClouds.clustered(count: 500, seed: 41)
    points[3] = Point3(.nan, 0, 0)
    points[77] = Point3(0, -.infinity, 0)
    let statistical = OutlierRemoval.statistical(points, neighbours: 6, stdRatio: 1)
    #expect(statistical == BruteForceNeighbours.statistical(points, k: 6, stdRatio: 1))
    #expect(!statistical[3] && !statistical[77])
    let radius = OutlierRemoval.radius(points, radiusMeters: 0.1, minNeighbours: 2)
    #expect(radius == BruteForceNeighbours.radius(points, radius: 0.1, minNeighbours: 2))
    #expect(!radius[3] && !radius[77])
  }

  @Test func nonPositiveParametersKeepEveryPointOrReachNone() {
    let points = TestClouds.clustered(count: 100, seed: 51)
    #expect(OutlierRemoval.statistical(points, neighbours: 0, stdRatio: 1).allSatisfy { $0 })
    #expect(OutlierRemoval.radius(points, radiusMeters: 1, minNeighbours: 0).allSatisfy { $0 })
    #expect(OutlierRemoval.radius(points, radiusMeters: -1, minNeighbours: 1).allSatisfy { !$0 })
  }
}

// MARK: - Timing

/// Outlier-removal times over a million-point scene, printed for a release build:
/// `CLOUDSCRUB_TIMING=1 swift test -c release --filter OutlierTiming`. Off otherwise.
@Suite(
  .enabled(if: ProcessInfo.processInfo.environment["CLOUDSCRUB_TIMING"] != nil), .serialized)
struct OutlierTimingTests {
  /// The synthetic room corner plus 1 % uniform noise in and around it.
  static func noisyScene(count: Int) -> [Point3] {
    var points = SyntheticCloud.scene(count: count, seed: 1).positions
    var random = SplitMix64(seed: 2)
    for _ in 0..<count / 100 {
      points.append(
        Point3(random.unit() * 5 - 2.5, random.unit() * 3 - 0.25, random.unit() * 5 - 2.5))
    }
    return points
  }

  /// Seconds `body` takes, best of `runs`, and its last result.
  private func seconds<R>(runs: Int = 3, _ body: () -> R) -> (Double, R) {
    var best = Double.infinity
    var start = DispatchTime.now().uptimeNanoseconds
    var result = body()
    for run in 0..<runs {
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      guard run + 1 < runs else { break }
      start = DispatchTime.now().uptimeNanoseconds
      result = body()
    }
    return (best, result)
  }

  @Test func millionPointRemovalTime() {
    let points = Self.noisyScene(count: 1_000_000)
    let noise = points.count - 1_000_000
    func report(_ what: String, _ time: Double, _ keep: [Bool]) {
      let removed = keep.filter { !$0 }.count
      let noiseRemoved = keep[1_000_000...].filter { !$0 }.count
      print(
        String(
          format: "timing: %@: %.1f ms; removed %d of %d (%d of %d noise points)", what,
          time * 1000, removed, points.count, noiseRemoved, noise))
    }
    let (build, tree) = seconds { KDTree(points) }
    print(String(format: "timing: k-d tree build, %d points: %.1f ms", tree.count, build * 1000))
    let (statistical, keep) = seconds {
      OutlierRemoval.statistical(points, neighbours: 20, stdRatio: 2)
    }
    report("statistical k = 20, std = 2", statistical, keep)
    let (radius, radiusKeep) = seconds {
      OutlierRemoval.radius(points, radiusMeters: 0.02, minNeighbours: 4)
    }
    report("radius 0.02 m, 4 neighbours", radius, radiusKeep)
  }
}
