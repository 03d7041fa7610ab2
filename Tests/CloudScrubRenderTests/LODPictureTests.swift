import CloudScrubCore
import Testing

@testable import CloudScrubRender

/// A level-of-detail picture refined to the end is the budget-free picture: on the CPU
/// rasterizer exactly (its nearest-point merge does not depend on drawing order), with
/// OpenGL up to depth ties (OpenGL keeps the first of two equally deep points).
@Suite(.serialized) struct LODPictureTests {
  static let width = 320
  static let height = 200
  static let store = ComparisonScenes.store(pointsPerFrame: 4000, frames: 5, seed: 11)

  static func pictures(
    _ comparison: RendererComparison, _ state: ViewerState, _ renderer: PointRenderer
  ) throws -> (whole: RGBImage, refined: RGBImage, passes: Int) {
    comparison.backend.pointDrawer = renderer.makeDrawer()
    let whole = try comparison.picture(state, store: store, with: renderer)
    comparison.renderer.mirror.reset()
    let octree = PointOctree(
      store: store, options: PointOctree.Options(gridResolution: 16, leafCapacity: 1_500))
    let plan = LODPlan(octree: octree, state: state, budgetPoints: 1_700)
    for pass in 0..<plan.passCount {
      try comparison.renderer.draw(
        state: state, octree: octree, nodes: plan.items(ofPass: pass), continuing: pass > 0)
    }
    let refined = comparison.target.readPixels()
    comparison.renderer.nodeCache.reset()
    return (whole, refined, plan.passCount)
  }

  @Test(arguments: PointColorMode.allCases)
  func refinedToTheEndEqualsTheBudgetFreePicture(mode: PointColorMode) throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    for edl in [false, true] {
      var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
      state.apply(.display(.setColorMode(mode)))
      if edl { state.apply(.display(.toggleEyeDomeLighting)) }
      let cpu = try Self.pictures(comparison, state, .cpu)
      #expect(cpu.passes > 5)
      #expect(cpu.whole == cpu.refined, "\(mode), EDL \(edl): CPU pictures differ")
      #expect(RendererComparison.coveredFraction(cpu.refined) > 0.1)
      let gl = try Self.pictures(comparison, state, .gl)
      let differing = RendererComparison.differingFraction(gl.whole, gl.refined, threshold: 8)
      #expect(differing <= 0.002, "\(mode), EDL \(edl): \(differing * 100) % of GL pixels differ")
    }
  }

  @Test func aScrubbedWindowRefinedEqualsItsBudgetFreePicture() throws {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    state.apply(.playback(.setLastFramesCount(2)))
    state.apply(.playback(.setMode(.lastFrames)))
    state.apply(.playback(.seek(frame: 2)))
    state.apply(.display(.setColorMode(.frame)))
    let cpu = try Self.pictures(comparison, state, .cpu)
    #expect(cpu.whole == cpu.refined)
    let gl = try Self.pictures(comparison, state, .gl)
    #expect(RendererComparison.differingFraction(gl.whole, gl.refined, threshold: 8) <= 0.002)
  }
}
