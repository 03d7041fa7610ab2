import CloudScrubCore
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Cleaning the real desk capture: the export gets smaller, and the surfaces that make
/// the scene — the desk top and the monitor's screen — survive outlier removal.
///
/// The planes are measured from the raw merge itself: the desk as the most populated
/// 1 cm slice of height, the monitor as the largest near-vertical plane above the desk
/// (a seeded RANSAC). The heights measured when the test was written are checked too.
@Suite(.enabled(if: TestData.sharedData != nil))
struct RealCaptureCleaningTests {
  struct Plane {
    var normal: SIMD3<Float>
    var offset: Float
    func distance(_ p: Point3) -> Float { abs((normal * SIMD3(p.x, p.y, p.z)).sum() - offset) }
  }

  static func merged() throws -> PointCloud {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let loader = RecordingLoader(
      source: try Record3DEXRRecording(folder: folder), selection: FrameSelection(every: 4),
      unprojection: UnprojectionOptions(stride: 2), decoder: TurboJPEGDecoder())
    return try loader.load().cloud()
  }

  /// The centre of the most populated 1 cm slice of height (y is up in ARKit's world).
  static func deskHeight(_ cloud: PointCloud) -> Float {
    var counts: [Int: Int] = [:]
    for p in cloud.positions { counts[Int((p.y * 100).rounded(.down)), default: 0] += 1 }
    let best =
      counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? 0
    return (Float(best) + 0.5) / 100
  }

  /// The near-vertical plane with the most points within 1 cm, among points at least
  /// 10 cm above the desk.
  static func monitorPlane(_ cloud: PointCloud, above desk: Float) -> Plane {
    let candidates = cloud.positions.filter { $0.y > desk + 0.1 }
    var random = SplitMix64(seed: 11)
    var best = Plane(normal: SIMD3(1, 0, 0), offset: 0)
    var bestCount = -1
    let sample = stride(from: 0, to: candidates.count, by: max(1, candidates.count / 20_000)).map {
      candidates[$0]
    }
    for _ in 0..<400 {
      let a = sample[Int(random.next() % UInt64(sample.count))]
      let b = sample[Int(random.next() % UInt64(sample.count))]
      let c = sample[Int(random.next() % UInt64(sample.count))]
      let u = SIMD3(b.x - a.x, b.y - a.y, b.z - a.z)
      let v = SIMD3(c.x - a.x, c.y - a.y, c.z - a.z)
      var n = SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
      let length = (n * n).sum().squareRoot()
      guard length > 1e-6 else { continue }
      n /= length
      guard abs(n.y) < 0.2 else { continue }
      let plane = Plane(normal: n, offset: (n * SIMD3(a.x, a.y, a.z)).sum())
      let count = sample.reduce(0) { $0 + (plane.distance($1) < 0.01 ? 1 : 0) }
      if count > bestCount {
        bestCount = count
        best = plane
      }
    }
    return best
  }

  @Test func cleanedExportIsSmallerAndKeepsTheDeskAndTheMonitor() throws {
    let raw = try Self.merged()
    let voxelOnly = try CleaningPipeline.run(raw, options: CleaningOptions(voxelSizeMeters: 0.01))
      .cloud
    let cleaned = try CleaningPipeline.run(
      raw,
      options: CleaningOptions(
        voxelSizeMeters: 0.01, statistical: StatisticalOutlierOptions(neighbours: 20, stdRatio: 2))
    ).cloud
    #expect(cleaned.count < voxelOnly.count)
    #expect(cleaned.count * 3 < raw.count, "\(cleaned.count) of \(raw.count)")

    let desk = Self.deskHeight(raw)
    // Measured when this test was written: the desk top lies at y ≈ −0.295 m.
    #expect(abs(desk - (-0.295)) < 0.02, "desk at \(desk) m")
    func deskBand(_ cloud: PointCloud) -> Int {
      cloud.positions.filter { abs($0.y - desk) < 0.01 }.count
    }
    #expect(deskBand(voxelOnly) > 5_000)
    #expect(Double(deskBand(cleaned)) >= 0.95 * Double(deskBand(voxelOnly)))

    let monitor = Self.monitorPlane(raw, above: desk)
    func onMonitor(_ cloud: PointCloud) -> Int {
      cloud.positions.filter { $0.y > desk + 0.1 && monitor.distance($0) < 0.01 }.count
    }
    #expect(onMonitor(voxelOnly) > 1_000)
    #expect(Double(onMonitor(cleaned)) >= 0.95 * Double(onMonitor(voxelOnly)))
  }
}
