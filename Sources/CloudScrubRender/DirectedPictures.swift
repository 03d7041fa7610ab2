import CloudScrubCore

/// A directed video's pictures, drawn one after another: each frame's commands
/// (`VideoDirector`) applied to the state, then its picture drawn, grown from the last
/// one where that gives the same picture (`GrowingPicture`). What `cloudscrub video`
/// and the window's drawn recordings (turntable, timeline) share.
public struct DirectedPictures {
  private var director: VideoDirector
  /// The state of the picture drawn last (the director's start before any).
  public private(set) var state: ViewerState
  /// Pictures drawn so far.
  public private(set) var drawn = 0
  private var picture = GrowingPicture()

  public init(director: VideoDirector, state: ViewerState) {
    self.director = director
    self.state = state
  }

  /// How many pictures the video has.
  public var frameCount: Int { director.frameCount }

  /// Whether every picture is drawn.
  public var isComplete: Bool { drawn >= director.frameCount }

  /// Draws the next picture of `store` with `renderer`, into its target.
  ///
  /// - Parameters:
  ///   - frameErrors: each loaded frame's alignment error, for the error colours.
  ///   - corrections: the refined poses shown, one transform a store frame.
  ///   - mesh: the scene's mesh, drawn as the state's surface setting says.
  public mutating func drawNext(
    with renderer: SceneRenderer, store: PointStore, frameErrors: FrameAlignmentErrors?,
    mesh: SceneMesh?, corrections: [Matrix4]? = nil
  ) {
    guard !isComplete else { return }
    for command in director.commands(forFrame: drawn) { state.apply(command) }
    picture.draw(
      with: renderer, state: state, store: store, frameErrors: frameErrors, mesh: mesh,
      corrections: corrections)
    drawn += 1
  }
}
