import Foundation
import Testing

@testable import CloudScrubCore

@Suite struct NormalEstimationTests {
  private static func plane(count: Int, seed: UInt64) -> [Point3] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in Point3(random.unit() * 4 - 2, 0, random.unit() * 4 - 2) }
  }

  @Test func planeNormalsFaceAViewpointAbove() {
    let points = Self.plane(count: 2000, seed: 1)
    let normals = NormalEstimation.estimate(points, neighbours: 12) { _ in SIMD3(0.5, 3, -1) }
    for n in normals {
      #expect(abs(n.x) < 1e-6 && abs(n.y - 1) < 1e-6 && abs(n.z) < 1e-6)
    }
  }

  @Test func planeNormalsFaceAViewpointBelow() {
    let points = Self.plane(count: 2000, seed: 2)
    let normals = NormalEstimation.estimate(points, neighbours: 12) { _ in SIMD3(0, -2, 0) }
    for n in normals {
      #expect(abs(n.x) < 1e-6 && abs(n.y + 1) < 1e-6 && abs(n.z) < 1e-6)
    }
  }

  @Test func planeNormalsFollowEachPointsOwnViewpoint() {
    let points = Self.plane(count: 500, seed: 3)
    let normals = NormalEstimation.estimate(points, neighbours: 8) { i in
      SIMD3(0, i.isMultiple(of: 2) ? 1 : -1, 0)
    }
    for (i, n) in normals.enumerated() {
      #expect(abs(n.y - (i.isMultiple(of: 2) ? 1 : -1)) < 1e-6)
    }
  }

  @Test func sphereNormalsPointRadiallyOutward() {
    var random = SplitMix64(seed: 4)
    let centre = SIMD3<Float>(1, 2, -3)
    let radius: Float = 0.8
    let directions = (0..<6000).map { _ -> SIMD3<Float> in
      let z = random.unit() * 2 - 1
      let longitude = random.unit() * 2 * Float.pi
      let ring = (1 - z * z).squareRoot()
      return SIMD3(ring * cos(longitude), ring * sin(longitude), z)
    }
    let points = directions.map {
      let p = centre + radius * $0
      return Point3(p.x, p.y, p.z)
    }
    // Each point seen from outside, two radii out along its own direction.
    let normals = NormalEstimation.estimate(points, neighbours: 15) { i in
      centre + 3 * radius * directions[i]
    }
    var worstDegrees: Float = 0
    for (n, d) in zip(normals, directions) {
      let cosine = n.x * d.x + n.y * d.y + n.z * d.z
      worstDegrees = max(worstDegrees, acos(min(cosine, 1)) * 180 / .pi)
    }
    #expect(worstDegrees < 3)
  }

  @Test func tiltedPlaneNormalIsItsUnitNormal() {
    var random = SplitMix64(seed: 5)
    let u = SIMD3<Float>(1, 0, 1) / Float(2).squareRoot()
    let v = SIMD3<Float>(0, 1, 0)
    let expected = SIMD3<Float>(1, 0, -1) / Float(2).squareRoot()
    let points = (0..<1000).map { _ -> Point3 in
      let p = (random.unit() * 2 - 1) * u + (random.unit() * 2 - 1) * v + SIMD3(3, 4, 5)
      return Point3(p.x, p.y, p.z)
    }
    let normals = NormalEstimation.estimate(points, neighbours: 10) { _ in
      SIMD3(3, 4, 5) + 10 * expected
    }
    for n in normals {
      #expect(abs(n.x * expected.x + n.y * expected.y + n.z * expected.z - 1) < 1e-4)
    }
  }

  @Test func undefinedNormalsAreZero() {
    #expect(NormalEstimation.estimate([], neighbours: 10) { _ in .zero }.isEmpty)
    let two = [Point3(0, 0, 0), Point3(1, 0, 0)]
    #expect(NormalEstimation.estimate(two, neighbours: 10) { _ in .zero } == [.zero, .zero])
    let same = [Point3](repeating: Point3(1, 1, 1), count: 20)
    #expect(
      NormalEstimation.estimate(same, neighbours: 5) { _ in .zero }.allSatisfy { $0 == .zero })
    var withNaN = Self.plane(count: 100, seed: 6)
    withNaN[7] = Point3(.nan, 0, 0)
    let normals = NormalEstimation.estimate(withNaN, neighbours: 6) { _ in SIMD3(0, 1, 0) }
    #expect(normals[7] == .zero)
    #expect(normals.enumerated().allSatisfy { $0.offset == 7 || abs($0.element.y - 1) < 1e-6 })
  }

  @Test func jacobiSolvesRandomSymmetricMatrices() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<200 {
      func value() -> Double { Double(random.unit()) * 2 - 1 }
      let m = SymmetricMatrix3(
        xx: value(), xy: value(), xz: value(), yy: value(), yz: value(), zz: value())
      let (values, vectors) = m.eigen()
      for i in 0..<3 {
        let v = vectors[i]
        let product = SIMD3(
          m.xx * v.x + m.xy * v.y + m.xz * v.z, m.xy * v.x + m.yy * v.y + m.yz * v.z,
          m.xz * v.x + m.yz * v.y + m.zz * v.z)
        let residual = product - values[i] * v
        #expect((residual * residual).sum().squareRoot() < 1e-9)
        for j in 0..<3 {
          #expect(abs((vectors[i] * vectors[j]).sum() - (i == j ? 1 : 0)) < 1e-9)
        }
      }
    }
  }
}
