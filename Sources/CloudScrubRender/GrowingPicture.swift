import CloudScrubCore

/// Draws a run of pictures in which only the playhead moves forward and the points
/// drawn only grow (a timeline playing in the up-to mode under a still camera), by
/// adding each picture's new points to the last picture instead of drawing it whole.
///
/// Only where the point drawer keeps its picture between passes and gives the scene
/// target all of it again each pass (the CPU rasterizer, whose depth test keeps the
/// nearest point whatever the order, so the picture is the one a whole draw makes);
/// otherwise, or when anything else changed, each picture is drawn whole.
public struct GrowingPicture {
  /// The last picture's state with its playhead at the start, and the points it drew.
  private var last: (state: ViewerState, range: Range<Int>)?

  public init() {}

  /// Draws `state`'s picture of `store`, continuing the last one when that gives the
  /// same picture.
  ///
  /// - Parameter corrections: one model transform a store frame (the refined poses
  ///   shown), as `SceneRenderer.draw` takes them; the same for every picture of a run.
  public mutating func draw(
    with renderer: SceneRenderer, state: ViewerState, store: PointStore,
    frameErrors: FrameAlignmentErrors? = nil, mesh: SceneMesh? = nil,
    corrections: [Matrix4]? = nil
  ) {
    let range = state.drawRange(frameRanges: store.frameRanges)
    var still = state
    still.apply(.playback(.seek(frame: 0)))
    defer { last = (still, range) }
    if renderer.backend.pointDrawer is CPUPointDrawer, let last, last.state == still,
      last.range.lowerBound == range.lowerBound, last.range.upperBound <= range.upperBound
    {
      renderer.draw(
        state: state, store: store, pass: [last.range.upperBound..<range.upperBound],
        continuing: true, frameErrors: frameErrors, corrections: corrections, mesh: mesh)
      return
    }
    renderer.draw(
      state: state, store: store, frameErrors: frameErrors, corrections: corrections, mesh: mesh)
  }
}
