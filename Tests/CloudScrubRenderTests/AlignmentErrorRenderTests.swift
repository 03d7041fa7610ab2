import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubRender

/// The alignment-error colour mode in both renderers: each frame's points in the ramp
/// colour of its error (hand-computed from the ramp's stops), grey where the frame was
/// not measured, and OpenGL and the CPU rasterizer agreeing as in
/// `CPURasterizerAgreementTests`.
@Suite(.serialized) struct AlignmentErrorRenderTests {
  static let width = 320
  static let height = 200
  static let store = ComparisonScenes.store(pointsPerFrame: 4000, frames: 5, seed: 29)
  /// The worst is 2 cm, the top of the ramp: frame 0 red, frame 2 (1 cm) the ramp's
  /// middle stop, frame 3 (4 mm, a fifth) 0.2·blue + 0.8·cyan, frames 1 and 4 grey.
  static let errors = FrameAlignmentErrors(residualsMeters: [0.02, nil, 0.01, 0.004, nil])
  static let expected: [(UInt8, UInt8, UInt8)] = [
    (235, 46, 31),  // (0.92, 0.18, 0.12)
    (115, 115, 115),  // 0.45 grey
    (51, 217, 64),  // (0.20, 0.85, 0.25)
    (28, 176, 242),  // (0.11, 0.69, 0.95)
  ]

  static func state(size: Float = 3, edl: Bool = false) -> ViewerState {
    var state = ComparisonScenes.state(store, width: width, height: height)
    state.apply(.display(.setColorMode(.alignmentError)))
    state.apply(.display(.setPointSize(size)))
    state.apply(.display(.toggleGrid))
    state.apply(.display(.toggleAxes))
    state.apply(.display(.toggleTrajectory))
    state.apply(.display(.toggleFrustum))
    if edl { state.apply(.display(.toggleEyeDomeLighting)) }
    return state
  }

  static func picture(
    _ comparison: RendererComparison, _ state: ViewerState, _ renderer: PointRenderer,
    errors: FrameAlignmentErrors? = Self.errors
  ) throws -> RGBImage {
    comparison.backend.pointDrawer = renderer.makeDrawer()
    try comparison.renderer.sync(with: store)
    comparison.renderer.draw(state: state, store: store, frameErrors: errors)
    return comparison.target.readPixels()
  }

  /// How many pixels have each expected colour (within 1 a channel), and how many
  /// are neither one of them nor the background.
  static func census(_ image: RGBImage) -> (counts: [Int], other: Int) {
    var counts = [Int](repeating: 0, count: expected.count)
    var other = 0
    for pixel in 0..<(image.width * image.height) {
      let rgb = (image.pixels[pixel * 3], image.pixels[pixel * 3 + 1], image.pixels[pixel * 3 + 2])
      if rgb == (26, 26, 26) { continue }
      let match = expected.firstIndex {
        abs(Int($0.0) - Int(rgb.0)) <= 1 && abs(Int($0.1) - Int(rgb.1)) <= 1
          && abs(Int($0.2) - Int(rgb.2)) <= 1
      }
      if let match { counts[match] += 1 } else { other += 1 }
    }
    return (counts, other)
  }

  @Test func eachFrameTakesTheColourOfItsError() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for renderer in [PointRenderer.gl, .cpu] {
      let image = try Self.picture(comparison, Self.state(), renderer)
      let census = Self.census(image)
      for (k, count) in census.counts.enumerated() {
        #expect(count > 200, "\(renderer): colour \(Self.expected[k]) on \(count) pixels")
      }
      #expect(census.other == 0, "\(renderer): \(census.other) pixels of another colour")
    }
  }

  @Test func noErrorsPaintEveryPointGrey() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for renderer in [PointRenderer.gl, .cpu] {
      let image = try Self.picture(comparison, Self.state(), renderer, errors: nil)
      let census = Self.census(image)
      #expect(census.counts[1] > 1000, "\(renderer)")
      #expect(census.counts[0] + census.counts[2] + census.counts[3] + census.other == 0)
    }
  }

  @Test func openGLAndTheCPURasterizerAgree() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for size: Float in [1, 2, 5] {
      for edl in [false, true] {
        var state = Self.state(size: size, edl: edl)
        // Scrubbed back: the frames shown keep their own colours.
        if size == 2 { state.apply(.playback(.seek(frame: 2))) }
        let gl = try Self.picture(comparison, state, .gl)
        let cpu = try Self.picture(comparison, state, .cpu)
        let differing = RendererComparison.differingFraction(gl, cpu, threshold: 8)
        #expect(differing <= 0.01, "size \(size), EDL \(edl): \(differing * 100) % differ")
        #expect(RendererComparison.coveredFraction(cpu) > 0.1)
      }
    }
  }

  @Test func tableMarksUnmeasuredAndNonFiniteFrames() {
    let table = FrameErrorTable(
      FrameAlignmentErrors(residualsMeters: [0.003, nil, .nan, 0.05]), frameCount: 6)
    #expect(table.errorsMeters == [0.003, -1, -1, 0.05, -1, -1])
    #expect(table.scaleMeters == 0.05)
    #expect(table.single(frame: 3).errorsMeters == [0.05])
    #expect(table.single(frame: 9).errorsMeters == [-1])
    #expect(CPUPointShading.errorColor(-1, scaleMeters: 0.05, dimmed: false) & 0xFF == 115)
  }
}

/// What the scene renderer hands the backend in the alignment-error mode.
@Suite struct AlignmentErrorUniformTests {
  static func uniforms(_ backend: RecordingRenderBackend) -> [PointUniforms] {
    backend.events.compactMap { event -> PointUniforms? in
      if case .drawPoints(_, _, _, let uniforms) = event { return uniforms }
      return nil
    }
  }

  @Test func theTableGoesWithTheErrorModeOnly() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: [3, 4, 5])
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.jumpToEnd))
    let errors = FrameAlignmentErrors(residualsMeters: [nil, 0.03])
    renderer.draw(state: state, store: points, frameErrors: errors)
    #expect(Self.uniforms(backend).allSatisfy { $0.frameErrors == FrameErrorTable() })
    backend.clearEvents()
    state.apply(.display(.setColorMode(.alignmentError)))
    renderer.draw(state: state, store: points, frameErrors: errors)
    let drawn = Self.uniforms(backend)
    #expect(!drawn.isEmpty)
    // One value a store frame: frame 2 is past the errors, so unmeasured.
    #expect(drawn.allSatisfy { $0.frameErrors.errorsMeters == [-1, 0.03, -1] })
    #expect(drawn.allSatisfy { $0.frameErrors.scaleMeters == 0.03 })
  }

  @Test func aWholeFrameReplacementTakesItsFramesError() throws {
    let backend = RecordingRenderBackend()
    let points = store(framePointCounts: [3, 4, 5])
    let renderer = SceneRenderer(backend: backend)
    try renderer.sync(with: points)
    var state = loadedState(points)
    state.apply(.playback(.setMode(.currentFrameOnly)))
    state.apply(.playback(.seek(frame: 1)))
    state.apply(.display(.setColorMode(.alignmentError)))
    let replacement = OverlayPoints(backend: backend)
    try replacement.replace(with: store(framePointCounts: [6]))
    renderer.draw(
      state: state, store: points, pass: [0..<0], continuing: false, replacement: replacement,
      frameErrors: FrameAlignmentErrors(residualsMeters: [0.01, 0.02, 0.04]))
    let drawn = Self.uniforms(backend)
    #expect(drawn.count >= 1)
    #expect(
      drawn.allSatisfy {
        $0.fixedFrame == 1 && $0.frameErrors.errorMeters(ofFrame: 1) == 0.02 && $0.frameCount == 3
      })
  }
}
