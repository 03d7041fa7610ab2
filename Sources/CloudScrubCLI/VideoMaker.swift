import CloudScrubCore
import CloudScrubFormats
import CloudScrubRender
import CloudScrubSession
import Foundation

/// Draws a video's frames with the headless renderer and hands them to the encoder:
/// the state the director gives each frame, drawn from the points uploaded once.
package enum VideoMaker {
  /// What making a video took.
  package struct Made {
    package var frames = 0
    /// Seconds spent drawing and reading back pictures (the side image included).
    package var drawSeconds: Double = 0
    /// Seconds from the first frame drawn to the file in place.
    package var totalSeconds: Double = 0
  }

  /// Draws and encodes the video `request` describes of `input` into `output`.
  ///
  /// - Parameters:
  ///   - frameErrors: each loaded frame's alignment error, for `--color error`.
  ///   - protecting: inputs the output must not overwrite.
  ///   - sink: where the frames go instead of `output` (benchmarks).
  /// - Throws: `RenderError` when drawing fails, the sink's error when encoding or
  ///   writing fails; nothing of the output is left behind.
  package static func make(
    input: RenderRequest.Input, request: VideoRequest, frameErrors: FrameAlignmentErrors?,
    output: String, protecting: [String], sink: (any VideoFrameSink)? = nil
  ) throws -> Made {
    let render = request.render
    let side = request.sideBySide ? input.source.map { VideoSideImages(source: $0) } : nil
    let layout = VideoLayout(
      width: render.width, height: render.height, imageAspect: side?.aspect)
    let state = try HeadlessRenderer.state(
      content: input.content, commands: input.commands, request: render,
      hasMesh: input.mesh != nil, viewport: (layout.viewWidth, layout.height))
    var pictures = DirectedPictures(
      director: VideoDirector(shot: request.shot, state: state), state: state)
    guard pictures.frameCount > 0 else {
      throw UsageError("the video would have no frames (a path with no poses?)")
    }
    let surface = try HeadlessRenderer.Surface(
      width: layout.viewWidth, height: layout.height, request: render)
    let mesh = input.mesh.map { SceneMesh($0, backend: surface.backend) }
    try surface.renderer.sync(with: input.content.store)
    let queue = VideoEncodingQueue(
      sink: try sink
        ?? VideoOutput.open(
          output, width: layout.width, height: layout.height,
          framesPerSecond: request.shot.framesPerSecond, protecting: protecting))
    let progress = Terminal.progress("video \(output)")
    defer { progress?.finish() }
    var made = Made()
    let start = Date()
    do {
      while !pictures.isComplete {
        let drawStart = Date()
        pictures.drawNext(
          with: surface.renderer, store: input.content.store, frameErrors: frameErrors,
          mesh: mesh)
        var image = try surface.readPicture()
        if let side, let position = pictures.state.playback.visibleFrames?.upperBound,
          input.content.frameIndices.indices.contains(position)
        {
          let frameIndex = input.content.frameIndices[position]
          image = layout.compose(
            view: image, image: side.image(ofFrame: frameIndex, width: layout.imageWidth))
        } else if layout.imageWidth > 0 {
          image = layout.compose(view: image, image: nil)
        }
        made.drawSeconds += Date().timeIntervalSince(drawStart)
        try queue.append(image)
        made.frames += 1
        progress?.update(Double(pictures.drawn) / Double(pictures.frameCount))
      }
      try queue.finish()
    } catch {
      queue.abandon()
      throw error
    }
    made.totalSeconds = Date().timeIntervalSince(start)
    withExtendedLifetime((surface, mesh)) {}
    return made
  }
}
