import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubRender

/// The cleaning preview coloured by frame or by alignment error: each kept point takes
/// its own frame's colour, the one it has with no preview. The preview's store names
/// its appended frames by timeline position, as the window's `CleaningPreview` makes it.
@Suite(.serialized) struct PreviewFrameColourTests {
  static let width = 320
  static let height = 200
  static let store = ComparisonScenes.store(pointsPerFrame: 3000, frames: 5, seed: 23)
  static let errors = FrameAlignmentErrors(residualsMeters: [0.01, 0.02, 0.03, 0.04, 0.05])

  /// Every third point of each frame, as if the others were cleaned away, in the
  /// preview's layout: frame k of the store is appended as timeline position k.
  static func kept() -> PointStore {
    var kept = PointStore()
    for frame in 0..<store.frameCount {
      var points = FramePoints()
      for index in stride(from: store.frameRanges[frame], to: store.frameRanges[frame + 1], by: 3) {
        points.positions.append(store.positions[index])
        points.colors.append(store.colors[index])
        points.confidence.append(store.confidence[index])
      }
      kept.append(points, frameIndex: frame)
    }
    return kept
  }

  /// Clearly coloured: the frame ramp's colours are, the dimmed points and the grey
  /// background, grid and unmeasured frames are not.
  static func coloured(_ image: RGBImage, _ pixel: Int) -> Bool {
    let p = image.pixels[pixel * 3..<pixel * 3 + 3]
    return Int(p.max() ?? 0) - Int(p.min() ?? 0) > 80
  }

  @Test(arguments: [PointColorMode.frame, .alignmentError], [PointRenderer.gl, .cpu])
  func keptPointsTakeTheirFramesColourOverThePreview(mode: PointColorMode, with: PointRenderer)
    throws
  {
    let comparison = try RendererComparison(width: Self.width, height: Self.height)
    comparison.backend.pointDrawer = with.makeDrawer()
    let kept = Self.kept()
    var state = ComparisonScenes.state(Self.store, width: Self.width, height: Self.height)
    state.apply(.display(.setColorMode(mode)))
    state.apply(.display(.setPointSize(3)))
    // The kept points alone, drawn as the main cloud at the preview's size (one more).
    var alone = state
    alone.apply(.display(.setPointSize(4)))
    try comparison.renderer.sync(with: kept)
    comparison.renderer.draw(state: alone, store: kept, frameErrors: Self.errors)
    let expected = comparison.target.readPixels()
    // The whole cloud dimmed, the kept points as the preview over it.
    let preview = OverlayPoints(backend: comparison.backend)
    try preview.replace(with: kept)
    try comparison.renderer.sync(with: Self.store)
    comparison.renderer.draw(
      state: state, store: Self.store, preview: preview, frameErrors: Self.errors)
    let shown = comparison.target.readPixels()

    var compared = 0
    var differing = 0
    var colours = Set<[UInt8]>()
    for pixel in 0..<(Self.width * Self.height) where Self.coloured(shown, pixel) {
      compared += 1
      let a = shown.pixels[pixel * 3..<pixel * 3 + 3]
      let b = expected.pixels[pixel * 3..<pixel * 3 + 3]
      if zip(a, b).contains(where: { abs(Int($0) - Int($1)) > 8 }) { differing += 1 }
      colours.insert(Array(a))
    }
    #expect(compared > 400, "only \(compared) preview pixels in colour")
    #expect(
      Double(differing) <= 0.01 * Double(compared),
      "\(differing) of \(compared) preview pixels differ from the kept points' own colours")
    // All five frames' colours show, not one colour for the whole preview.
    #expect(colours.count >= 5, "\(colours.count) colours over the preview")
  }
}
