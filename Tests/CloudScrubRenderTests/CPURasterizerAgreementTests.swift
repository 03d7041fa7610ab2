import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubRender

/// The CPU rasterizer against OpenGL (Mesa's llvmpipe here) on the same scenes, both
/// through the same scene target, overlay lines and composite pass.
///
/// Tolerance: at most 1 % of pixels may differ by more than 8 (of 255) in a channel.
/// The paths differ only where a point's window position lies within float rounding
/// of a pixel edge (llvmpipe snaps to fixed point, the CPU compares floats), where two
/// points tie in OpenGL's 24-bit depth (OpenGL keeps the first drawn, the CPU the
/// nearer in float), and in eye-dome lighting next to such pixels; colour rounding
/// differs by at most 1. Measured here: at most 0.2 % of pixels for every case, while
/// a wrong colour mode differs in far more than 1 % (checked below).
@Suite(.serialized) struct CPURasterizerAgreementTests {
  static let width = 320
  static let height = 200
  static let tolerance = 0.01
  static let channelThreshold = 8

  static let store = ComparisonScenes.store(pointsPerFrame: 4000, frames: 5, seed: 11)

  static func agree(
    _ comparison: RendererComparison, _ state: ViewerState, _ label: String,
    preview: OverlayPoints? = nil, store: PointStore = store
  ) throws {
    comparison.backend.pointDrawer = PointRenderer.gl.makeDrawer()
    try comparison.renderer.sync(with: store)
    comparison.renderer.draw(state: state, store: store, preview: preview)
    let gl = comparison.target.readPixels()
    comparison.backend.pointDrawer = PointRenderer.cpu.makeDrawer()
    try comparison.renderer.sync(with: store)
    comparison.renderer.draw(state: state, store: store, preview: preview)
    let cpu = comparison.target.readPixels()
    let differing = RendererComparison.differingFraction(gl, cpu, threshold: channelThreshold)
    #expect(differing <= tolerance, "\(label): \(differing * 100) % of pixels differ")
    // Both drew the scene (a picture of only background would agree too).
    #expect(RendererComparison.coveredFraction(cpu) > 0.1, "\(label)")
  }

  @Test(arguments: PointColorMode.allCases)
  func everyColourModeSizeAndShapeAgreesWithOpenGL(mode: PointColorMode) throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for size: Float in [1, 2, 5] {
      for round in [false, true] {
        for edl in [false, true] {
          var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
          state.apply(.display(.setColorMode(mode)))
          state.apply(.display(.setPointSize(size)))
          state.apply(.display(.setRoundPoints(round)))
          if edl { state.apply(.display(.toggleEyeDomeLighting)) }
          try Self.agree(comparison, state, "\(mode), size \(size), round \(round), EDL \(edl)")
        }
      }
    }
  }

  @Test func minimumConfidenceAndTheScrubbedFramesAgreeWithOpenGL() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for level in ConfidenceLevel.allCases {
      var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
      state.apply(.display(.setMinConfidence(level)))
      state.apply(.display(.setColorMode(.confidence)))
      try Self.agree(comparison, state, "minimum confidence \(level)")
    }
    var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    state.apply(.playback(.seek(frame: 2)))
    state.apply(.display(.setColorMode(.frame)))
    try Self.agree(comparison, state, "up to frame 2")
  }

  @Test func cleaningPreviewOverDimmedPointsAgreesWithOpenGL() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    // The preview: every fourth point of the scene, as if the others were cleaned away.
    var kept = FramePoints()
    for index in stride(from: 0, to: Self.store.count, by: 4) {
      kept.positions.append(Self.store.positions[index])
      kept.colors.append(Self.store.colors[index])
      kept.confidence.append(255)
    }
    var previewStore = PointStore()
    previewStore.append(kept, frameIndex: 0)
    let preview = OverlayPoints(backend: comparison.backend)
    try preview.replace(with: previewStore)
    for mode in [PointColorMode.rgb, .height] {
      var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
      state.apply(.display(.setColorMode(mode)))
      try Self.agree(comparison, state, "preview, \(mode)", preview: preview)
    }
    // In CPU mode the preview holds no GPU copy.
    #expect(preview.mirror.uploadedPoints == 0)
  }

  /// The intensity mode draws each point's level as a grey, and points without levels in
  /// one flat grey, alike with either renderer.
  @Test func theIntensityModeDrawsLevelsOrAFlatGrey() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    state.apply(.display(.setColorMode(.intensity)))
    state.apply(.display(.setPointSize(3)))
    let levels = try comparison.picture(state, store: Self.store, with: .cpu)
    let plain = ComparisonScenes.store(pointsPerFrame: 4000, frames: 5, seed: 11, intensity: false)
    try Self.agree(comparison, state, "intensity mode without intensity", store: plain)
    let flat = try comparison.picture(state, store: plain, with: .gl)
    // Count the greys of the points' pixels: the grid and axes are drawn over the
    // background, not over points, and are few.
    func greys(_ image: RGBImage) -> [UInt8: Int] {
      var counts: [UInt8: Int] = [:]
      for pixel in 0..<image.width * image.height {
        let rgb = image.pixels[pixel * 3..<pixel * 3 + 3]
        if rgb.allSatisfy({ $0 == rgb.first }), let grey = rgb.first {
          counts[grey, default: 0] += 1
        }
      }
      return counts
    }
    let covered = RendererComparison.coveredFraction(flat) * Double(Self.width * Self.height)
    // 0.75 of 255 is 191.25.
    #expect(Double(greys(flat)[191] ?? 0) > 0.9 * covered)
    // With levels, the points span the grey scale.
    let spread = greys(levels).filter { $0.value >= 5 }
    #expect(spread.count > 200)
    #expect(Double(greys(levels).values.reduce(0, +)) > 0.95 * covered)
  }

  @Test func aWrongColourModeIsFarOutsideTheTolerance() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    let gl = try comparison.picture(state, store: Self.store, with: .gl)
    state.apply(.display(.setColorMode(.height)))
    let cpu = try comparison.picture(state, store: Self.store, with: .cpu)
    #expect(
      RendererComparison.differingFraction(gl, cpu, threshold: Self.channelThreshold) > 10
        * Self.tolerance)
  }

  @Test func cpuRendererUploadsNoPointsAndFreesWhatOpenGLUploaded() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    let state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    _ = try comparison.picture(state, store: Self.store, with: .gl)
    #expect(comparison.renderer.mirror.uploadedPoints == Self.store.count)
    #expect(comparison.backend.pointChunkCount > 0)
    _ = try comparison.picture(state, store: Self.store, with: .cpu)
    #expect(comparison.renderer.mirror.uploadedPoints == 0)
    #expect(comparison.backend.pointChunkCount == 0)
  }

  @Test func autoPicksTheCPUOnSoftwareOpenGL() throws {
    for name in ["llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Mesa X11 swrast", "SWRAST"] {
      #expect(PointRendererChoice.auto.resolved(glRenderer: name) == .cpu, "\(name)")
    }
    for name in [
      "NVIDIA GeForce RTX 3090/PCIe/SSE2", "AMD Radeon RX 6800 (radeonsi, navi21)",
      "Mesa Intel(R) UHD 620",
    ] {
      #expect(PointRendererChoice.auto.resolved(glRenderer: name) == .gl, "\(name)")
    }
    #expect(PointRendererChoice.gl.resolved(glRenderer: "llvmpipe") == .gl)
    #expect(PointRendererChoice.cpu.resolved(glRenderer: "NVIDIA") == .cpu)
    // This machine's headless context.
    let context = try EGLHeadlessContext()
    let name = GLBackend.rendererString
    let expected: PointRenderer = PointRendererChoice.isSoftware(glRenderer: name) ? .cpu : .gl
    #expect(PointRendererChoice.auto.resolved(glRenderer: name) == expected)
    withExtendedLifetime(context) {}
  }
}
