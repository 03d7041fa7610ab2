import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// Points two pixels wide (the default size), which the rasterizer draws by a path of
/// their own: hand-worked pixels, and random points checked against the rule itself
/// (a pixel is covered when its centre lies in the point's square, and for round points
/// in its disc, the rim included) evaluated here in `Double`.
@Suite struct CPUTwoPixelPointTests {
  /// CPURasterizerTests' projection: at z = -2, window x = (x / 2 + 1) · size / 2, so
  /// in a 128-pixel picture window x = 32 x + 64, exact in floats for these points.
  static func draw(_ store: PointStore, round: Bool, size: Int = 128) -> CPUSceneImage {
    let rasterizer = CPUPointRasterizer(workerCount: 1)
    rasterizer.begin(widthPixels: size, heightPixels: size, background: SIMD3(0.1, 0.1, 0.1))
    rasterizer.draw(
      store, range: 0..<store.count,
      uniforms: CPURasterizerTests.uniforms(pointSize: 2, round: round))
    return rasterizer.resolvedImage()
  }

  @Test func aPointOnAPixelCentreCoversTwoByTwoOrThreeOfThem() {
    // Window (62.5, 42.5): centres 61.5 and 62.5 lie in [61.5, 63.5) on both axes. Round,
    // the corner (61, 41) is √2 from the point and goes; (61, 42) is on the rim and stays.
    let store = CPURasterizerTests.store([
      (Point3(-0.046875, -0.671875, -2), RGB8(200, 100, 50), 2)
    ])
    let square = CPURasterizerTests.covered(Self.draw(store, round: false))
    #expect(square == [[61, 41], [62, 41], [61, 42], [62, 42]])
    let disc = CPURasterizerTests.covered(Self.draw(store, round: true))
    #expect(disc == [[62, 41], [61, 42], [62, 42]])
  }

  @Test func aPointOnAPixelCornerCoversFourRoundOrNot() {
    // Window (63, 42): the four centres about it are √0.5 from it.
    let store = CPURasterizerTests.store([(Point3(-0.03125, -0.6875, -2), RGB8(1, 2, 3), 2)])
    let four: Set<[Int]> = [[62, 41], [63, 41], [62, 42], [63, 42]]
    for round in [false, true] {
      #expect(CPURasterizerTests.covered(Self.draw(store, round: round)) == four)
    }
  }

  @Test func aPointAtTheEdgeKeepsOnlyItsPixelsInside() {
    // Window (0.25, 42.5): column -1 is off the picture; column 0 (centre dx 0.25)
    // stays with rows 41 and 42, and round drops (0, 41), 1.03 from the point.
    let store = CPURasterizerTests.store([(Point3(-1.9921875, -0.671875, -2), RGB8(9, 9, 9), 2)])
    #expect(CPURasterizerTests.covered(Self.draw(store, round: false)) == [[0, 41], [0, 42]])
    #expect(CPURasterizerTests.covered(Self.draw(store, round: true)) == [[0, 42]])
  }

  @Test func randomPointsCoverWhatTheRuleSays() {
    // Window positions on an eighth-pixel grid, so that the float projection is exact
    // and points on pixel edges and disc rims are common; all at one depth, so that
    // the smaller colour word wins a pixel.
    let size = 128
    var random = SplitMix64(seed: 29)
    var points: [(Point3, RGB8, UInt8)] = []
    var windows: [(x: Double, y: Double, word: UInt32)] = []
    for _ in 0..<600 {
      let x = Double(random.next() % UInt64(8 * size + 1)) / 8
      let y = Double(random.next() % UInt64(8 * size + 1)) / 8
      let color = RGB8(
        UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()), 7)
      // window = 32 · coordinate + 64 at z = -2 for a 128-pixel picture.
      points.append((Point3(Float((x - 64) / 32), Float((y - 64) / 32), -2), color, 2))
      windows.append((x, y, UInt32(color.r) | UInt32(color.g) << 8 | 7 << 16))
    }
    let store = CPURasterizerTests.store(points)
    for round in [false, true] {
      var expected = [UInt32?](repeating: nil, count: size * size)
      for point in windows {
        for py in max(0, Int(point.y) - 2)...min(size - 1, Int(point.y) + 2) {
          for px in max(0, Int(point.x) - 2)...min(size - 1, Int(point.x) + 2) {
            let dx = Double(px) + 0.5 - point.x
            let dy = Double(py) + 0.5 - point.y
            guard dx >= -1, dx < 1, dy >= -1, dy < 1, !round || dx * dx + dy * dy <= 1 else {
              continue
            }
            expected[py * size + px] = min(expected[py * size + px] ?? .max, point.word)
          }
        }
      }
      let image = Self.draw(store, round: round)
      var mismatches = 0
      for py in 0..<size {
        for px in 0..<size {
          let pixel = image.color(x: px, y: py)
          let drawn =
            pixel.a == 255
            ? UInt32(pixel.r) | UInt32(pixel.g) << 8 | UInt32(pixel.b) << 16 : nil
          if drawn != expected[py * size + px] { mismatches += 1 }
        }
      }
      #expect(mismatches == 0, "round \(round)")
      #expect(expected.compactMap { $0 }.count > 1000)
    }
  }
}
