import TestSupport
import Testing

@testable import CloudScrubCore

/// Points worked out by hand on paper for tiny depth frames.
@Suite struct UnprojectorTests {
  /// Depths 1, 2 / 3, 4 on a 2×2 grid, fx = fy = 1, principal point (1, 1): pixel
  /// centres sit at ±0.5 from it, so OpenCV camera points are
  /// (−0.5·1, −0.5·1, 1), (0.5·2, −0.5·2, 2), (−0.5·3, 0.5·3, 3), (0.5·4, 0.5·4, 4).
  let twoByTwo: [Float] = [1, 2, 3, 4]
  let openCVPoints = [
    Point3(-0.5, -0.5, 1), Point3(1, -1, 2), Point3(-1.5, 1.5, 3), Point3(2, 2, 4),
  ]

  @Test func twoByTwoInOpenCVAxesWithIdentityPose() throws {
    let frame = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo)
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(points.positions == openCVPoints)
  }

  @Test func twoByTwoInOpenGLAxesFlipsYAndZ() throws {
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: twoByTwo,
      pose: CameraPose(worldFromCamera: .identity, axes: .openGL))
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(
      points.positions == [
        Point3(-0.5, 0.5, -1), Point3(1, 1, -2), Point3(-1.5, -1.5, -3), Point3(2, -2, -4),
      ])
  }

  @Test func twoByTwoWithARotatedAndTranslatedOpenGLPose() throws {
    // 90° about +y: (x, y, z) → (z, y, −x); then + (10, 0, 0).
    let pose = CameraPose(
      worldFromCamera: Transform3D(
        axisAngle: SIMD3(0, Double.pi / 2, 0), translation: SIMD3(10, 0, 0)),
      axes: .openGL)
    let frame = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo, pose: pose)
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    let expected = [Point3(9, 0.5, 0.5), Point3(8, 1, -1), Point3(7, -1.5, 1.5), Point3(6, -2, -2)]
    for (point, want) in zip(points.positions, expected) {
      #expect(
        abs(point.x - want.x) < 1e-5 && abs(point.y - want.y) < 1e-5 && abs(point.z - want.z) < 1e-5
      )
    }
  }

  @Test func intrinsicsForALargerColourImageAreScaledToDepth() throws {
    // The same camera described for a 4×4 colour image: fx = 2, principal point (2, 2).
    var frame = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo)
    frame.intrinsics = CameraIntrinsics(fx: 2, fy: 2, cx: 2, cy: 2, width: 4, height: 4)
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(points.positions == openCVPoints)
  }

  @Test func fourByFourWithOffCentrePrincipalPoint() throws {
    // fx = 2, fy = 4, cx = 1, cy = 3 on a 4×4 grid, every depth 2: pixel (u, v) gives
    // x = (u + 0.5 − 1) / 2 · 2 = u − 0.5, y = (v + 0.5 − 3) / 4 · 2 = (v − 2.5) / 2.
    var frame = Frames.depthFrame(width: 4, height: 4, meters: [Float](repeating: 2, count: 16))
    frame.intrinsics = CameraIntrinsics(fx: 2, fy: 4, cx: 1, cy: 3, width: 4, height: 4)
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    var expected: [Point3] = []
    for v in 0..<4 {
      for u in 0..<4 { expected.append(Point3(Float(u) - 0.5, (Float(v) - 2.5) / 2, 2)) }
    }
    #expect(points.positions == expected)
  }

  @Test func pixelsOutsideTheDepthRangeAreSkippedAndTheRestGoesOn() throws {
    let frame = Frames.depthFrame(width: 2, height: 2, meters: [1, 9, 0, 4])
    let points = try Unprojector.unproject(
      frame, options: UnprojectionOptions(depthRangeMeters: 0.5...5, flyingPixels: nil))
    // 9 m is beyond the range and 0 is no depth; pixel 3 (after them) is still there.
    #expect(points.positions == [Point3(-0.5, -0.5, 1), Point3(2, 2, 4)])
  }

  @Test func confidenceBelowTheMinimumIsSkippedAndKeptAsAnAttribute() throws {
    let frame = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo, confidence: [2, 0, 1, 2])
    let medium = try Unprojector.unproject(
      frame, options: UnprojectionOptions(minConfidence: .medium, flyingPixels: nil))
    #expect(medium.positions == [openCVPoints[0], openCVPoints[2], openCVPoints[3]])
    #expect(medium.confidence == [2, 1, 2])
    let high = try Unprojector.unproject(
      frame, options: UnprojectionOptions(minConfidence: .high, flyingPixels: nil))
    #expect(high.positions == [openCVPoints[0], openCVPoints[3]])
    let noMap = try Unprojector.unproject(
      Frames.depthFrame(width: 2, height: 2, meters: twoByTwo),
      options: UnprojectionOptions(minConfidence: .high, flyingPixels: nil))
    #expect(noMap.confidence == [255, 255, 255, 255])
  }

  @Test func strideTakesEveryNthPixelFromTheFirst() throws {
    let frame = Frames.depthFrame(width: 4, height: 4, meters: (1...16).map(Float.init))
    let points = try Unprojector.unproject(
      frame, options: UnprojectionOptions(flyingPixels: nil, stride: 2))
    #expect(points.positions.map(\.z) == [1, 3, 9, 11])
  }

  @Test func flyingPixelsBetweenTwoSurfacesAreDropped() throws {
    // A row: a near surface at 1 m, a smeared pixel at 1.5 m, a wall at 2 m.
    let row: [Float] = [1, 1, 1.5, 2, 2]
    let frame = Frames.depthFrame(width: 5, height: 1, meters: row)
    let points = try Unprojector.unproject(frame)
    #expect(points.positions.map(\.z) == [1, 1, 2, 2])
    // A thin object in front of a wall keeps its pixel: both steps point away from it.
    let thin = Frames.depthFrame(width: 5, height: 1, meters: [2, 2, 1, 2, 2])
    #expect(try Unprojector.unproject(thin).positions.map(\.z) == [2, 2, 1, 2, 2])
    // A gentle slope (2 % a pixel) is a surface, not a smear.
    let slope = Frames.depthFrame(width: 5, height: 1, meters: [1, 1.02, 1.04, 1.06, 1.08])
    #expect(try Unprojector.unproject(slope).count == 5)
  }

  @Test func colourComesFromTheMatchingPixelOfALargerImage() throws {
    // A 4×4 RGB image whose red channel is 10·x + y and green 100: depth pixel (u, v)
    // covers colour pixels 2u…2u+1; its centre maps to colour pixel (2u + 1, 2v + 1).
    var pixels: [UInt8] = []
    for y in 0..<4 {
      for x in 0..<4 { pixels += [UInt8(10 * x + y), 100, 0] }
    }
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: twoByTwo,
      color: .rgb(RGBImage(width: 4, height: 4, pixels: pixels)))
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(points.colors.map(\.r) == [11, 31, 13, 33])
  }

  @Test func bgraWithRowPaddingIsSampledByBytesPerRow() throws {
    // 2×2 BGRA with 12 bytes a row (4 bytes of padding): B, G, R, A.
    let bytes: [UInt8] = [
      1, 2, 3, 255, 4, 5, 6, 255, 0xEE, 0xEE, 0xEE, 0xEE,
      7, 8, 9, 255, 10, 11, 12, 255, 0xEE, 0xEE, 0xEE, 0xEE,
    ]
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: twoByTwo,
      color: .bgra(BGRAImage(width: 2, height: 2, bytesPerRow: 12, bytes: bytes)))
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(points.colors == [RGB8(3, 2, 1), RGB8(6, 5, 4), RGB8(9, 8, 7), RGB8(12, 11, 10)])
  }

  @Test func yCbCrIsConvertedWithBT601InBothRanges() throws {
    // Video range: Y 235 with neutral chroma is white; Y 81, Cb 90, Cr 240 is red.
    #expect(ColorSampler.rgb(y: 235, cb: 128, cr: 128, range: .video) == RGB8(255, 255, 255))
    #expect(ColorSampler.rgb(y: 16, cb: 128, cr: 128, range: .video) == RGB8(0, 0, 0))
    // R = 1.164·65 + 1.596·112 = 254.4; G = 75.66 − 0.392·(−38) − 0.813·112 = −0.5 → 0;
    // B = 75.66 + 2.017·(−38) = −0.99 → 0.
    #expect(ColorSampler.rgb(y: 81, cb: 90, cr: 240, range: .video) == RGB8(254, 0, 0))
    // Full range: Y 255 neutral is white; Y 76, Cb 85, Cr 255 → R = 76 + 1.402·127 = 254.1.
    #expect(ColorSampler.rgb(y: 255, cb: 128, cr: 128, range: .full) == RGB8(255, 255, 255))
    #expect(ColorSampler.rgb(y: 76, cb: 85, cr: 255, range: .full).r == 254)
    // Sampling: chroma at half resolution with its own row stride.
    let image = YCbCrImage(
      width: 2, height: 2, range: .video, luma: [235, 16, 16, 235], lumaBytesPerRow: 2,
      chroma: [128, 128, 0, 0], chromaBytesPerRow: 4)
    let frame = Frames.depthFrame(
      width: 2, height: 2, meters: twoByTwo, color: .yCbCr420(image))
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(
      points.colors == [RGB8(255, 255, 255), RGB8(0, 0, 0), RGB8(0, 0, 0), RGB8(255, 255, 255)])
  }

  @Test func disparityAndHalfFloatDepthReadAsMetres() throws {
    // Disparity 0.5 /m in half floats (0x3800) is 2 m; disparity 0 is no depth.
    let bytes: [UInt8] = [0x00, 0x38, 0x00, 0x00]
    var frame = Frames.depthFrame(width: 2, height: 1, meters: [0, 0])
    frame.depth = DepthMap(
      width: 2, height: 1, sampleType: .float16, encoding: .disparityInverseMeters, bytes: bytes)
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(points.positions == [Point3(-1, 0, 2)])
  }

  @Test func paddedDepthRowsAreReadByBytesPerRow() throws {
    // Two rows of one float each, 8 bytes a row: 1.0 then padding, 3.0 then padding.
    let one: [UInt8] = [0, 0, 0x80, 0x3F]
    let three: [UInt8] = [0, 0, 0x40, 0x40]
    let padding: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F]
    var frame = Frames.depthFrame(width: 1, height: 2, meters: [0, 0])
    frame.depth = DepthMap(
      width: 1, height: 2, bytesPerRow: 8, bytes: one + padding + three + padding)
    let points = try Unprojector.unproject(frame, options: UnprojectionOptions(flyingPixels: nil))
    #expect(points.positions.map(\.z) == [1, 3])
  }

  @Test func shortMapsAreErrorsNotCrashes() {
    var frame = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo)
    frame.depth.bytes.removeLast()
    #expect(throws: UnprojectionError.incompleteDepth(width: 2, height: 2, bytes: 15)) {
      try Unprojector.unproject(frame)
    }
    var noConfidence = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo, confidence: [2, 2])
    noConfidence.confidence?.height = 2
    #expect(throws: UnprojectionError.incompleteConfidence(width: 2, height: 2, bytes: 2)) {
      try Unprojector.unproject(noConfidence)
    }
    let shortBGRA = Frames.depthFrame(
      width: 2, height: 2, meters: twoByTwo,
      color: .bgra(
        BGRAImage(width: 2, height: 2, bytesPerRow: 12, bytes: [UInt8](repeating: 0, count: 19))))
    #expect(throws: UnprojectionError.incompleteColor(width: 2, height: 2)) {
      try Unprojector.unproject(shortBGRA)
    }
    let shortChroma = Frames.depthFrame(
      width: 2, height: 2, meters: twoByTwo,
      color: .yCbCr420(
        YCbCrImage(width: 2, height: 2, range: .full, luma: [1, 2, 3, 4], chroma: [128])))
    #expect(throws: UnprojectionError.incompleteColor(width: 2, height: 2)) {
      try Unprojector.unproject(shortChroma)
    }
    let jpeg = Frames.depthFrame(width: 2, height: 2, meters: twoByTwo, color: .jpeg([1, 2]))
    #expect(throws: UnprojectionError.noJPEGDecoder) { try Unprojector.unproject(jpeg) }
  }
}
