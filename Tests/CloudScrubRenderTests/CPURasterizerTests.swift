import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// Hand-made cases for the CPU rasterizer, with a projection worked out on paper: a
/// 90° frustum (f = 1), aspect 1, near 1 m and far 3 m, camera at the origin looking
/// down -z. Then clip = (x, y, -2z - 3, -z): a point at z = -2 has window depth 0.75.
@Suite struct CPURasterizerTests {
  static let size = 100
  static let projection = Matrix4(rowMajor: [
    1, 0, 0, 0,
    0, 1, 0, 0,
    0, 0, -2, -3,
    0, 0, -1, 0,
  ])

  static func uniforms(
    pointSize: Float = 1, round: Bool = false, minConfidence: ConfidenceLevel = .low,
    mode: PointColorMode = .rgb,
    frameCount: Int = 1
  ) -> PointUniforms {
    PointUniforms(
      viewProjection: projection,
      view: Matrix4(rowMajor: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
      pointSizePixels: pointSize, colorMode: mode, minConfidence: minConfidence, roundPoints: round,
      upAxis: SIMD3(0, 1, 0), heightRangeMeters: 0...1, depthRangeMeters: 0...1,
      frameCount: frameCount)
  }

  /// One frame of points with the given positions, colours and confidences.
  static func store(_ points: [(Point3, RGB8, UInt8)]) -> PointStore {
    var frame = FramePoints()
    for (position, color, confidence) in points {
      frame.positions.append(position)
      frame.colors.append(color)
      frame.confidence.append(confidence)
    }
    var store = PointStore()
    store.append(frame, frameIndex: 0)
    return store
  }

  static func draw(_ store: PointStore, _ uniforms: PointUniforms, workers: Int = 1)
    -> CPUSceneImage
  {
    let rasterizer = CPUPointRasterizer(workerCount: workers)
    rasterizer.begin(widthPixels: size, heightPixels: size, background: SIMD3(0.1, 0.1, 0.1))
    rasterizer.draw(store, range: 0..<store.count, uniforms: uniforms)
    return rasterizer.resolvedImage()
  }

  /// The pixels (x, y from the bottom) that hold a point.
  static func covered(_ image: CPUSceneImage) -> Set<[Int]> {
    var result = Set<[Int]>()
    for y in 0..<image.heightPixels {
      for x in 0..<image.widthPixels where image.color(x: x, y: y).a == 255 {
        result.insert([x, y])
      }
    }
    return result
  }

  @Test func onePointLandsOnTheComputedPixel() {
    // (0.5, -0.3, -2): ndc (0.25, -0.15, 0.5), window (62.5, 42.5), depth 0.75.
    let image = Self.draw(
      Self.store([(Point3(0.5, -0.3, -2), RGB8(200, 100, 50), 2)]), Self.uniforms())
    #expect(Self.covered(image) == [[62, 42]])
    let pixel = image.color(x: 62, y: 42)
    #expect(pixel.r == 200 && pixel.g == 100 && pixel.b == 50 && pixel.a == 255)
    #expect(image.depth[42 * Self.size + 62] == 0.75)
    // Everything else is the background (0.1 → 26) at depth 1, alpha 0.
    #expect(image.color(x: 0, y: 0) == (26, 26, 26, 0))
    #expect(image.depth[0] == 1)
  }

  @Test func widePointsCoverTheirSquareOrDisc() {
    let store = Self.store([(Point3(0.5, -0.3, -2), RGB8(200, 100, 50), 2)])
    // Size 3 about (62.5, 42.5): the centres 61.5…63.5 in both directions.
    let square = Self.covered(Self.draw(store, Self.uniforms(pointSize: 3)))
    #expect(square == Set((61...63).flatMap { x in (41...43).map { [x, $0] } }))
    // Round, size 3: the corner centres are √2 < 1.5 from the centre, so all stay.
    #expect(Self.covered(Self.draw(store, Self.uniforms(pointSize: 3, round: true))) == square)
    // Size 5: the square 60…64; round drops the corners (√8 > 2.5), keeps (2, 1) (√5).
    let square5 = Set((60...64).flatMap { x in (40...44).map { [x, $0] } })
    #expect(Self.covered(Self.draw(store, Self.uniforms(pointSize: 5))) == square5)
    let disc = Self.covered(Self.draw(store, Self.uniforms(pointSize: 5, round: true)))
    #expect(disc == square5.subtracting([[60, 40], [60, 44], [64, 40], [64, 44]]))
    // A round point one pixel wide whose centre is 0.5 px off its pixel centre in both
    // directions (0.707 > 0.5) is cut away entirely, as gl_PointCoord's test does.
    let offCentre = Self.store([(Point3(0.52, -0.32, -2), RGB8(1, 2, 3), 2)])  // window (63, 42)
    #expect(Self.covered(Self.draw(offCentre, Self.uniforms(round: true))).isEmpty)
    #expect(Self.covered(Self.draw(store, Self.uniforms(round: true))) == [[62, 42]])
  }

  @Test func nearerOfTwoPointsOnOnePixelWins() {
    // Both on the ray through ndc (0.25, -0.15): window depth 0.75 at z = -2, and 0.9
    // at z = -2.5 (clip z 2, w 2.5).
    let near = (Point3(0.5, -0.3, -2), RGB8(255, 0, 0), UInt8(2))
    let far = (Point3(0.625, -0.375, -2.5), RGB8(0, 0, 255), UInt8(2))
    for order in [[near, far], [far, near]] {
      let image = Self.draw(Self.store(order), Self.uniforms())
      #expect(Self.covered(image) == [[62, 42]])
      #expect(image.color(x: 62, y: 42).r == 255)
      #expect(image.depth[42 * Self.size + 62] == 0.75)
    }
  }

  @Test func pointsBehindTheCameraOrOutsideTheFrustumDrawNothing() {
    let outside: [Point3] = [
      Point3(0.5, -0.3, 2),  // behind the camera
      Point3(0, 0, 0),  // at the camera (w = 0)
      Point3(0.1, 0.1, -0.5),  // nearer than the near plane
      Point3(0.1, 0.1, -3.5),  // past the far plane
      Point3(2.5, 0, -2),  // right of the frustum (ndc x 1.25)
      Point3(0, -2.1, -2),  // below it
      Point3(.infinity, 0, -2), Point3(0, 0, -.infinity), Point3(.nan, 0, -2),  // not numbers
    ]
    let store = Self.store(outside.map { ($0, RGB8(255, 255, 255), 2) })
    for size: Float in [1, 5] {
      #expect(Self.covered(Self.draw(store, Self.uniforms(pointSize: size))).isEmpty)
    }
  }

  @Test func minimumConfidenceHidesExactlyThePointsBelowIt() {
    // Four points on four pixels, confidence 0, 1, 2 and 255 (no map, always shown).
    let xs: [Float] = [-1, -0.5, 0.5, 1]
    let confidences: [UInt8] = [0, 1, 2, 255]
    let store = Self.store(zip(xs, confidences).map { (Point3($0, 0, -2), RGB8(9, 9, 9), $1) })
    // x = -1, -0.5, 0.5, 1 at z = -2: ndc -0.5, -0.25, 0.25, 0.5, window x 25, 37.5, 62.5, 75.
    let columns = [25, 37, 62, 75]
    for (level, shown) in [
      (ConfidenceLevel.low, [0, 1, 2, 3]), (.medium, [1, 2, 3]), (.high, [2, 3]),
    ] {
      let image = Self.draw(store, Self.uniforms(minConfidence: level))
      #expect(Self.covered(image) == Set(shown.map { [columns[$0], 50] }), "\(level)")
    }
  }

  @Test func frameColoursComeFromTheFrameTable() {
    // Three frames of one point each, side by side; colour by frame over three frames:
    // ramp(0), ramp(0.5), ramp(1).
    var store = PointStore()
    for (frame, x) in [Float(-1), 0, 1].enumerated() {
      var points = FramePoints()
      points.positions = [Point3(x, 0, -2)]
      points.colors = [RGB8(0, 0, 0)]
      points.confidence = [2]
      store.append(points, frameIndex: frame)
    }
    let image = Self.draw(store, Self.uniforms(mode: .frame, frameCount: 3))
    // ramp(0) = (0.15, 0.25, 0.95), ramp(0.5) = (0.20, 0.85, 0.25), ramp(1) = (0.92, 0.18, 0.12).
    #expect(image.color(x: 25, y: 50) == (38, 64, 242, 255))
    #expect(image.color(x: 50, y: 50) == (51, 217, 64, 255))
    #expect(image.color(x: 75, y: 50) == (235, 46, 31, 255))
  }

  @Test func splittingOverWorkersGivesTheSamePicture() {
    let store = ComparisonScenes.store(pointsPerFrame: 50_000, frames: 3, seed: 5)
    let state = ComparisonScenes.state(store, width: Self.size, height: Self.size)
    var uniforms = Self.uniforms(pointSize: 2, round: true, mode: .frame, frameCount: 3)
    uniforms.viewProjection = state.projectionMatrix * state.viewMatrix
    let one = Self.draw(store, uniforms, workers: 1)
    let three = Self.draw(store, uniforms, workers: 3)
    #expect(one == three)
    #expect(Self.covered(one).count > Self.size * Self.size / 10)
  }
}
