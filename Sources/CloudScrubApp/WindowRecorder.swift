import CGL
import CloudScrubCore
import CloudScrubRender
import CloudScrubSession
import Foundation

/// The Record section's work: a video of what the 3D view shows while the user plays or
/// drags (read from the window after each drawn turn, at a steady 30 frames a second
/// of wall time), or one the window draws itself, a frame a turn, off screen with the
/// CPU rasterizer: a turntable, or the timeline as it plays (`VideoDirector`, as
/// `cloudscrub video` directs it). The frames go to a `VideoEncodingQueue`.
final class WindowRecorder {
  enum Kind: Equatable {
    case view
    case turntable
    case timeline
  }

  static let framesPerSecond = 30
  /// The size of the videos the window draws itself.
  static let drawnSize = (width: 1280, height: 720)
  /// A turntable's length.
  static let turntableSeconds = 8.0

  private(set) var kind: Kind?
  private(set) var path = ""
  private var queue: VideoEncodingQueue?
  private(set) var framesWritten = 0
  // Recording the view.
  private var size = (width: 0, height: 0)
  private var startTime = 0.0
  /// The view's last picture taken, for the frames due when the recording stops.
  private var lastPicture: RGBImage?
  // Drawing a video.
  /// A drawn recording's pictures, and what draws them.
  private var pictures: DirectedPictures?
  private var drawer: (backend: GLBackend, target: OffscreenTarget, renderer: SceneRenderer)?

  var isRecording: Bool { kind != nil }

  /// The video being drawn: frames done and in all; nil when recording the view.
  var progress: (done: Int, total: Int)? {
    guard let pictures else { return nil }
    return (framesWritten, pictures.frameCount)
  }

  /// Starts recording the view, a `width` × `height` rectangle of the window (made
  /// even), to `path`.
  ///
  /// - Throws: what opening the video throws (a name that is no video format, a folder
  ///   that cannot be written, the input itself).
  func startView(path: String, width: Int, height: Int, now: Double, inputs: [String]) throws {
    size = (width & ~1, height & ~1)
    guard size.width >= 16, size.height >= 16 else {
      throw RenderError("the 3D view is too small to record")
    }
    queue = try VideoEncodingQueue.writing(
      path, width: size.width, height: size.height, framesPerSecond: Self.framesPerSecond,
      protecting: inputs)
    kind = .view
    self.path = path
    startTime = now
    framesWritten = 0
  }

  /// After a drawn turn: the frames due since the last, all of the view's picture as it
  /// is now (the picture did not change while nothing was drawn). `x`, `y` is the view's
  /// lower-left corner in the window's framebuffer.
  func captureView(x: Int, y: Int, width: Int, height: Int, now: Double) throws {
    guard kind == .view, let queue else { return }
    guard width & ~1 == size.width, height & ~1 == size.height else {
      throw RenderError("the 3D view changed size; the recording stopped there")
    }
    // Taken each drawn turn: a picture refined within one frame's time is the one the
    // next frame (or the end) shows.
    let picture = OffscreenTarget.readPixels(
      of: 0, x: x, y: y, width: size.width, height: size.height)
    lastPicture = picture
    let due = Int((now - startTime) * Double(Self.framesPerSecond)) + 1
    // Frames the loop slept through show the picture it left on the screen.
    while framesWritten < due && queue.hasRoom {
      try queue.append(picture)
      framesWritten += 1
    }
  }

  /// Starts drawing a turntable or the timeline of `current` (the window's state: its
  /// look, frames and camera) to `path`, at `drawnSize`.
  func startDrawn(_ kind: Kind, path: String, current: ViewerState, inputs: [String]) throws {
    var state = current
    state.apply(
      .camera(.setViewport(width: Self.drawnSize.width, height: Self.drawnSize.height)))
    let motion: VideoShot.Motion =
      kind == .turntable ? .turntable(seconds: Self.turntableSeconds) : .timeline(speed: 1)
    let director = VideoDirector(
      shot: VideoShot(motion: motion, framesPerSecond: Self.framesPerSecond), state: state)
    guard director.frameCount > 0 else { throw RenderError("nothing to draw yet") }
    let backend = try GLBackend()
    backend.pointDrawer = CPUPointDrawer()
    let target = try OffscreenTarget(
      width: Self.drawnSize.width, height: Self.drawnSize.height)
    backend.outputFramebuffer = target.framebuffer
    queue = try VideoEncodingQueue.writing(
      path, width: target.width, height: target.height, framesPerSecond: Self.framesPerSecond,
      protecting: inputs)
    drawer = (backend, target, SceneRenderer(backend: backend))
    pictures = DirectedPictures(director: director, state: state)
    self.kind = kind
    self.path = path
    framesWritten = 0
  }

  /// Draws the drawn video's next frame, when the encoder has room; true once every
  /// frame is drawn.
  ///
  /// - Parameters:
  ///   - corrections: the refined poses shown, one transform a store frame.
  ///   - mesh: the scene's mesh, drawn as the state's surface setting says.
  func drawNext(
    store: PointStore, frameErrors: FrameAlignmentErrors?, corrections: [Matrix4]?,
    mesh: SceneMesh?
  ) throws -> Bool {
    guard var pictures, let drawer, let queue else { return true }
    guard !pictures.isComplete else { return true }
    guard queue.hasRoom else { return false }
    pictures.drawNext(
      with: drawer.renderer, store: store, frameErrors: frameErrors, mesh: mesh,
      corrections: corrections)
    self.pictures = pictures
    if let failure = drawer.backend.sceneTargetError { throw failure }
    try queue.append(drawer.target.readPixels())
    framesWritten += 1
    return pictures.isComplete
  }

  /// Completes the video and puts it in place; says what was written. A recording of
  /// the view lasts until `now`: its last picture stays on for the frames due since.
  func finish(now: Double) throws -> String {
    defer { reset() }
    guard let queue else { return "" }
    if kind == .view, let lastPicture {
      let due = Int((now - startTime) * Double(Self.framesPerSecond)) + 1
      while framesWritten < due {
        try queue.append(lastPicture)
        framesWritten += 1
      }
    }
    try queue.finish()
    let seconds = Double(framesWritten) / Double(Self.framesPerSecond)
    return String(format: "wrote %d frames (%.1f s) to %@", framesWritten, seconds, path)
  }

  /// Stops, leaving nothing of the video behind.
  func cancel() {
    queue?.abandon()
    reset()
  }

  private func reset() {
    queue = nil
    kind = nil
    pictures = nil
    drawer = nil
    lastPicture = nil
  }
}
