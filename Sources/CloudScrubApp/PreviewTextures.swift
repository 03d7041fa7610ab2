import CGL
import CloudScrubCore
import Foundation

/// A texture on the GPU and its size.
struct PreviewTexture {
  var id: UInt32
  var width: Int
  var height: Int
}

/// The current frame's colour, depth and confidence images as textures. The images
/// are made on a background thread when the playhead moves, one request at a time, so
/// scrubbing never waits for a decode; the newest frame asked for wins.
final class PreviewTextures {
  private(set) var color: PreviewTexture?
  private(set) var depth: PreviewTexture?
  private(set) var confidence: PreviewTexture?
  private(set) var depthRangeMeters: ClosedRange<Float>?
  /// Why the playhead's frame has no images ("could not decode frame 7: …"), nil when
  /// it has them or they are coming. The panel shows it in place of the images.
  private(set) var failure: String?
  private var requestedFrame: Int?
  private let work = BackgroundWork<(frame: Int, result: Result<FramePreview, any Error>)>()

  /// Whether images are being made on the background thread.
  var isWorking: Bool { work.isBusy }

  /// Starts making the playhead's frame's images if they are not shown or coming, and
  /// uploads finished ones.
  ///
  /// - Returns: whether new images were uploaded (the panel must be drawn again).
  @discardableResult
  func update(for session: ViewerSession) -> Bool {
    var uploaded = false
    if let finished = work.take() {
      switch finished.result {
      case .success(let preview):
        upload(preview)
        failure = nil
      case .failure(let error):
        // The images shown are another frame's: take them down, and say why.
        deleteTextures()
        let reason = "could not decode frame \(finished.frame): \(error)"
        failure = reason
        FileHandle.standardError.write(Data("cloudscrub: \(reason)\n".utf8))
      }
      uploaded = true
    }

    guard let document = session.document, let source = document.recording else { return uploaded }
    let position = session.state.playback.currentFrame
    guard session.content.frameIndices.indices.contains(position) else { return uploaded }
    let frame = session.content.frameIndices[position]
    // One attempt per frame: a frame that failed to decode is not retried every turn.
    guard frame != requestedFrame else { return uploaded }
    let decoder = document.decoder
    let started = work.start {
      let result = Result { () throws -> FramePreview in
        let captured = try source.frame(at: frame)
        return try FramePreview.make(from: captured, frameIndex: frame, decoder: decoder)
      }
      return (frame, result)
    }
    if started { requestedFrame = frame }
    return uploaded
  }

  /// Forgets the images (a new document is opening).
  func clear() {
    work.invalidate()
    deleteTextures()
    failure = nil
    requestedFrame = nil
  }

  private func deleteTextures() {
    for texture in [color, depth, confidence] {
      if var id = texture?.id { glDeleteTextures(1, &id) }
    }
    color = nil
    depth = nil
    confidence = nil
    depthRangeMeters = nil
  }

  private func upload(_ preview: FramePreview) {
    color = Self.upload(preview.color, into: color)
    depth = Self.upload(preview.depth, into: depth)
    confidence = Self.upload(preview.confidence, into: confidence)
    depthRangeMeters = preview.depthRangeMeters
  }

  private static func upload(_ image: RGBImage?, into existing: PreviewTexture?) -> PreviewTexture?
  {
    guard let image else {
      if var id = existing?.id { glDeleteTextures(1, &id) }
      return nil
    }
    var id = existing?.id ?? 0
    if id == 0 { glGenTextures(1, &id) }
    glBindTexture(GLenum(GL_TEXTURE_2D), id)
    glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
    image.pixels.withUnsafeBytes { raw in
      glTexImage2D(
        GLenum(GL_TEXTURE_2D), 0, GL_RGB8, GLsizei(image.width), GLsizei(image.height), 0,
        GLenum(GL_RGB),
        GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
    }
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    return PreviewTexture(id: id, width: image.width, height: image.height)
  }
}
