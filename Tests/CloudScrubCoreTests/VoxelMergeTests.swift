import Foundation
import Testing

@testable import CloudScrubCore

/// The voxel merge against a brute-force reference and against clouds whose voxels are
/// known by construction.
struct VoxelMergeTests {
  // MARK: - Brute-force reference

  private struct CellKey: Hashable {
    var x: Double
    var y: Double
    var z: Double
  }

  private struct ReferenceVoxel {
    var first: Int
    var indices: [Int] = []
  }

  /// Groups the finite points by `floor(c / size)` with a dictionary and averages by hand.
  private func referenceMerge(_ cloud: PointCloud, size: Float) -> PointCloud {
    var voxelOfCell: [CellKey: Int] = [:]
    var voxels: [ReferenceVoxel] = []
    for (index, p) in cloud.positions.enumerated() {
      guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { continue }
      let s = Double(size)
      let cell = CellKey(
        x: (Double(p.x) / s).rounded(.down), y: (Double(p.y) / s).rounded(.down),
        z: (Double(p.z) / s).rounded(.down))
      let voxel =
        voxelOfCell[cell]
        ?? {
          voxels.append(ReferenceVoxel(first: index))
          voxelOfCell[cell] = voxels.count - 1
          return voxels.count - 1
        }()
      voxels[voxel].indices.append(index)
    }
    func mean(_ indices: [Int], _ value: (Int) -> Double) -> Double {
      indices.reduce(0.0) { $0 + value($1) } / Double(indices.count)
    }
    let positions = voxels.map { v in
      Point3(
        Float(mean(v.indices) { Double(cloud.positions[$0].x) }),
        Float(mean(v.indices) { Double(cloud.positions[$0].y) }),
        Float(mean(v.indices) { Double(cloud.positions[$0].z) }))
    }
    let colors = cloud.colors.map { colors in
      voxels.map { v in
        RGB8(
          UInt8(mean(v.indices) { Double(colors[$0].r) }.rounded()),
          UInt8(mean(v.indices) { Double(colors[$0].g) }.rounded()),
          UInt8(mean(v.indices) { Double(colors[$0].b) }.rounded()))
      }
    }
    let normals = cloud.normals.map { normals in
      voxels.map { v -> Point3 in
        let x = mean(v.indices) { Double(normals[$0].x) }
        let y = mean(v.indices) { Double(normals[$0].y) }
        let z = mean(v.indices) { Double(normals[$0].z) }
        let length = (x * x + y * y + z * z).squareRoot()
        return length > 0 ? Point3(Float(x / length), Float(y / length), Float(z / length)) : .zero
      }
    }
    let attributes = cloud.attributes.map { attribute -> PointAttribute in
      switch attribute.values {
      case .uint8(let values) where attribute.name == "confidence":
        return PointAttribute(
          name: attribute.name,
          values: .uint8(
            voxels.map { v in v.indices.map { values[$0] }.filter { $0 != 255 }.max() ?? 255 }))
      case .uint32(let values):
        return PointAttribute(
          name: attribute.name, values: .uint32(voxels.map { values[$0.first] }))
      case .int16(let values):
        return PointAttribute(name: attribute.name, values: .int16(voxels.map { values[$0.first] }))
      case .float32(let values):
        return PointAttribute(
          name: attribute.name,
          values: .float32(voxels.map { v in Float(mean(v.indices) { Double(values[$0]) }) }))
      default:
        Issue.record("reference does not handle \(attribute.values.scalarType)")
        return attribute
      }
    }
    return PointCloud(
      positions: positions, colors: colors, normals: normals, attributes: attributes)
  }

  // MARK: - Comparison

  private func close(_ a: Float, _ b: Float) -> Bool {
    abs(a - b) <= 2 * Float.ulpOfOne * max(1, abs(b))
  }

  private func expectMatches(_ merged: PointCloud, _ reference: PointCloud) {
    #expect(merged.count == reference.count)
    #expect(merged.isConsistent)
    guard merged.count == reference.count else { return }
    for index in 0..<merged.count {
      let (a, b) = (merged.positions[index], reference.positions[index])
      #expect(close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z), "position \(index)")
    }
    #expect(merged.colors == reference.colors)
    if let normals = merged.normals, let expected = reference.normals {
      for (a, b) in zip(normals, expected) {
        #expect(close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z))
      }
    } else {
      #expect(merged.normals == nil && reference.normals == nil)
    }
    #expect(merged.attributes.map(\.name) == reference.attributes.map(\.name))
    for (a, b) in zip(merged.attributes, reference.attributes) {
      if case .float32(let got) = a.values, case .float32(let want) = b.values {
        #expect(zip(got, want).allSatisfy { close($0, $1) }, "\(a.name)")
      } else {
        #expect(a == b, "\(a.name)")
      }
    }
  }

  /// A recording-like cloud: positions in a few cells' range (a share of them on exact
  /// boundaries), colours, normals, confidence, frame, an intensity and an int16 label.
  private func randomCloud(count: Int, seed: UInt64, extent: Float, size: Float) -> PointCloud {
    var random = SplitMix64(seed: seed)
    func coordinate() -> Float {
      let value = (random.unit() * 2 - 1) * extent
      // One in four on a voxel boundary.
      return random.next() % 4 == 0 ? (value / size).rounded(.down) * size : value
    }
    var positions: [Point3] = []
    var colors: [RGB8] = []
    var normals: [Point3] = []
    var confidence: [UInt8] = []
    var frames: [UInt32] = []
    var intensity: [Float] = []
    var labels: [Int16] = []
    for index in 0..<count {
      positions.append(Point3(coordinate(), coordinate(), coordinate()))
      colors.append(
        RGB8(
          UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
          UInt8(truncatingIfNeeded: random.next())))
      normals.append(Point3(random.unit() - 0.5, random.unit() - 0.5, random.unit() - 0.5))
      confidence.append([0, 1, 2, 255][Int(random.next() % 4)])
      frames.append(UInt32(index / 50))
      intensity.append(random.unit() * 100)
      labels.append(Int16(truncatingIfNeeded: random.next()))
    }
    return PointCloud(
      positions: positions, colors: colors, normals: normals,
      attributes: [
        PointAttribute(name: "confidence", values: .uint8(confidence)),
        PointAttribute(name: "frame", values: .uint32(frames)),
        PointAttribute(name: "intensity", values: .float32(intensity)),
        PointAttribute(name: "label", values: .int16(labels)),
      ])
  }

  // MARK: - Against the reference

  @Test(arguments: [(1 as UInt64, 0.1 as Float), (2, 0.25), (3, 0.05), (4, 0.37)])
  func randomCloudMatchesBruteForce(seed: UInt64, size: Float) {
    let cloud = randomCloud(count: 4000, seed: seed, extent: 1, size: size)
    let reference = referenceMerge(cloud, size: size)
    #expect(reference.count > 10 && reference.count < cloud.count)
    for (tasks, pointsPerBucket) in [(1, 1 << 20), (2, 100), (5, 7), (3, 1)] {
      expectMatches(
        VoxelMerge.merge(
          cloud, voxelSizeMeters: size, taskCount: tasks, pointsPerBucket: pointsPerBucket),
        reference)
    }
    expectMatches(VoxelMerge.merge(cloud, voxelSizeMeters: size), reference)
  }

  @Test func bucketsWithManyVoxelsOrManyPointsMatchBruteForce() {
    // One bucket of 40,000 points: tens of thousands of voxels at 1 mm (the table grows
    // past its first allocation), a handful at 1 m.
    let cloud = randomCloud(count: 40_000, seed: 8, extent: 2, size: 0.001)
    for size: Float in [0.001, 1] {
      let reference = referenceMerge(cloud, size: size)
      expectMatches(
        VoxelMerge.merge(cloud, voxelSizeMeters: size, taskCount: 2, pointsPerBucket: 1 << 20),
        reference)
    }
  }

  @Test func hugeCoordinatesMatchBruteForce() {
    // 1e9 m at 1 mm: cell indices near 10¹², far past Int32 and the packed keys.
    var cloud = randomCloud(count: 3000, seed: 9, extent: 1, size: 0.001)
    cloud.positions = cloud.positions.enumerated().map { index, p in
      index % 3 == 0 ? Point3(p.x * 1e9, p.y, -p.z * 1e9) : p
    }
    let reference = referenceMerge(cloud, size: 0.001)
    expectMatches(
      VoxelMerge.merge(cloud, voxelSizeMeters: 0.001, taskCount: 3, pointsPerBucket: 50), reference)
  }

  @Test func cellsThatAgreeModulo2To32StaySeparate() {
    // At 1 m, x = 2³² lies 2³² cells from x = 0: a 32-bit key would merge them.
    let cloud = PointCloud(positions: [
      Point3(0.5, 0, 0), Point3(4_294_967_296, 0, 0), Point3(0.25, 0, 0),
      Point3(-4_294_967_296, 0, 0), Point3(3e38, -3e38, 1),
    ])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1)
    #expect(
      merged.positions == [
        Point3(0.375, 0, 0), Point3(4_294_967_296, 0, 0), Point3(-4_294_967_296, 0, 0),
        Point3(3e38, -3e38, 1),
      ])
  }

  // MARK: - Known voxels

  @Test func eightPointsInOneVoxelGiveTheirMeanAndMeanColour() {
    // The corners of a 0.5 m cube inside the voxel (1…2)³ at 1 m, mean (1.5, 1.5, 1.5).
    var positions: [Point3] = []
    var colors: [RGB8] = []
    for corner in 0..<8 {
      positions.append(
        Point3(
          corner & 1 == 0 ? 1.25 : 1.75, corner & 2 == 0 ? 1.25 : 1.75,
          corner & 4 == 0 ? 1.25 : 1.75))
      // Reds 10…80 average 45; greens alternate 0/255 (127.5, rounds up to 128); blue 7.
      colors.append(RGB8(UInt8(10 * (corner + 1)), corner.isMultiple(of: 2) ? 0 : 255, 7))
    }
    let cloud = PointCloud(
      positions: positions, colors: colors,
      attributes: [
        PointAttribute(name: "confidence", values: .uint8([1, 255, 0, 2, 1, 0, 255, 1])),
        PointAttribute(name: "frame", values: .uint32([4, 4, 5, 5, 6, 6, 7, 7])),
      ])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1)
    #expect(merged.positions == [Point3(1.5, 1.5, 1.5)])
    #expect(merged.colors == [RGB8(45, 128, 7)])
    #expect(merged.attribute(named: "confidence")?.values == .uint8([2]))
    #expect(merged.attribute(named: "frame")?.values == .uint32([4]))
  }

  @Test func unknownConfidenceStaysUnknownOnlyWhenAllAreUnknown() {
    let cloud = PointCloud(
      positions: [Point3(0.1, 0, 0), Point3(0.2, 0, 0), Point3(5, 0, 0), Point3(5.1, 0, 0)],
      attributes: [PointAttribute(name: "confidence", values: .uint8([255, 0, 255, 255]))])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1)
    #expect(merged.attribute(named: "confidence")?.values == .uint8([0, 255]))
  }

  @Test func voxelsComeInTheOrderOfTheirFirstPoint() {
    let cloud = PointCloud(
      positions: [
        Point3(5.5, 0, 0), Point3(0.5, 0, 0), Point3(5.25, 0, 0), Point3(-3.5, 0, 0),
        Point3(0.75, 0, 0),
      ],
      attributes: [PointAttribute(name: "frame", values: .uint32([0, 1, 2, 3, 4]))])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1, taskCount: 4, pointsPerBucket: 1)
    #expect(merged.positions == [Point3(5.375, 0, 0), Point3(0.625, 0, 0), Point3(-3.5, 0, 0)])
    #expect(merged.attribute(named: "frame")?.values == .uint32([0, 1, 3]))
  }

  @Test func pointsOnABoundaryBelongToTheCellAbove() {
    // 0.5 is exact in binary: 0.5 and 1.0 start cells 1 and 2 at 0.5 m; −0.5 starts −1;
    // 0 and −0 are both in cell 0, with 0.49.
    let cloud = PointCloud(positions: [
      Point3(0.5, 0, 0), Point3(0.75, 0, 0), Point3(1.0, 0, 0), Point3(0.49, 0, 0),
      Point3(-0.5, 0, 0), Point3(-0.25, 0, 0), Point3(0, 0, 0), Point3(-0.0, 0, 0),
    ])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 0.5)
    #expect(
      merged.positions == [
        Point3(0.625, 0, 0), Point3(1.0, 0, 0), Point3(Float(Double(Float(0.49)) / 3), 0, 0),
        Point3(-0.375, 0, 0),
      ])
  }

  @Test func negativeCoordinatesFloorRatherThanTruncate() {
    // Truncation would put −0.25 and 0.25 both in cell 0.
    let cloud = PointCloud(positions: [
      Point3(-0.25, -0.25, -0.25), Point3(0.25, 0.25, 0.25), Point3(-0.75, -0.75, -0.75),
    ])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1)
    #expect(merged.positions == [Point3(-0.5, -0.5, -0.5), Point3(0.25, 0.25, 0.25)])
  }

  @Test func cellIndicesAreTheFloorOfTheQuotientWithoutNegativeZero() {
    // Hand-picked quotients: zero of both signs, just either side of whole numbers, whole
    // negatives, the 2⁵² edge where every Double is whole, and the largest Floats.
    let cases: [(Float, Double, Double)] = [
      (0, 1, 0), (-0.0, 1, 0), (-1e-30, 1, -1), (1e-30, 1, 0), (0.9999999, 1, 0),
      (-0.9999999, 1, -1), (-1, 1, -1), (-2, 0.5, -4), (2.5, 0.5, 5), (-2.6, 0.5, -6),
      (0x1p52, 1, 0x1p52), (-0x1p52, 1, -0x1p52), (0x1p60, 1, 0x1p60), (-0x1p60, 1, -0x1p60),
      (0x1.8p51, 1, 0x1.8p51), (.greatestFiniteMagnitude, 1, 0x1.fffffep127),
      (-.greatestFiniteMagnitude, 1e-300, -.infinity),
    ]
    for (coordinate, size, cell) in cases {
      let got = voxelCell(coordinate, size: size)
      #expect(got.bitPattern == cell.bitPattern, "cell of \(coordinate) / \(size): \(got)")
    }
    // Every quotient of a sweep across many magnitudes agrees with libm's floor.
    var value: Float = -3e9
    while value < 3e9 {
      for size in [0.005, 0.37, 1.0] {
        let expected = (Double(value) / size).rounded(.down) + 0
        #expect(voxelCell(value, size: size).bitPattern == expected.bitPattern)
      }
      value = value < 0 ? value * 0.61 + 0.3 : value * 1.7 + 0.013
      if abs(value) < 1e-3 { value = 1e-3 }
    }
  }

  @Test func normalsAreAveragedAndRenormalised() {
    let cloud = PointCloud(
      positions: [Point3(0.1, 0.1, 0.1), Point3(0.2, 0.2, 0.2), Point3(3, 3, 3), Point3(3, 3, 3)],
      normals: [Point3(1, 0, 0), Point3(0, 1, 0), Point3(0, 0, 1), Point3(0, 0, -1)])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1)
    let half = Float(0.5).squareRoot()
    let normals = merged.normals ?? []
    #expect(normals.count == 2)
    #expect(abs(normals[0].x - half) < 1e-6 && abs(normals[0].y - half) < 1e-6)
    #expect(normals.last == .zero)
  }

  // MARK: - Edge cases

  @Test func emptyCloudGivesAnEmptyCloudWithTheSameFields() {
    let cloud = PointCloud(
      positions: [], colors: [], normals: nil,
      attributes: [PointAttribute(name: "frame", values: .uint32([]))])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 0.01)
    #expect(merged == cloud)
  }

  @Test func nanAndInfinitePointsAreDropped() {
    let cloud = PointCloud(
      positions: [
        Point3(.nan, 0, 0), Point3(0.5, 0.5, 0.5), Point3(0, .infinity, 0),
        Point3(0, 0, -.infinity), Point3(0.25, 0.25, 0.25), Point3(.nan, .nan, .nan),
      ],
      colors: [
        RGB8(255, 255, 255), RGB8(10, 20, 30), RGB8(0, 0, 0), RGB8(0, 0, 0), RGB8(30, 40, 50),
        RGB8(9, 9, 9),
      ],
      attributes: [PointAttribute(name: "frame", values: .uint32([0, 1, 2, 3, 4, 5]))])
    let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 1)
    #expect(merged.positions == [Point3(0.375, 0.375, 0.375)])
    #expect(merged.colors == [RGB8(20, 30, 40)])
    #expect(merged.attribute(named: "frame")?.values == .uint32([1]))
    let allNaN = PointCloud(positions: [Point3(.nan, 0, 0)], colors: [RGB8(1, 2, 3)])
    #expect(VoxelMerge.merge(allNaN, voxelSizeMeters: 1) == PointCloud(positions: [], colors: []))
  }

  @Test func taskAndBucketCountsDoNotChangeTheResult() {
    let cloud = SyntheticCloud.scene(count: 20_000, seed: 5, normals: true)
    let one = VoxelMerge.merge(cloud, voxelSizeMeters: 0.05, taskCount: 1, pointsPerBucket: 1 << 20)
    for (tasks, pointsPerBucket) in [(2, 1 << 14), (3, 1000), (8, 10)] {
      #expect(
        VoxelMerge.merge(
          cloud, voxelSizeMeters: 0.05, taskCount: tasks, pointsPerBucket: pointsPerBucket) == one)
    }
    #expect(one.count < cloud.count)
  }
}
