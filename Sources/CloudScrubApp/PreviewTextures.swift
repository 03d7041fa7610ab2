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
  private var requestedFrame: Int?
  private let mailbox = Mailbox()

  /// What the background thread hands back, under a lock.
  private final class Mailbox: @unchecked Sendable {
    let lock = NSLock()
    var ready: Result<FramePreview, any Error>?
    var busy = false
    var generation = 0
  }

  /// Whether images are being made on the background thread.
  var isWorking: Bool {
    mailbox.lock.lock()
    defer { mailbox.lock.unlock() }
    return mailbox.busy
  }

  /// Starts making the playhead's frame's images if they are not shown or coming, and
  /// uploads finished ones.
  ///
  /// - Returns: whether new images were uploaded (the panel must be drawn again).
  @discardableResult
  func update(for session: ViewerSession) -> Bool {
    let mailbox = self.mailbox
    mailbox.lock.lock()
    let finished = mailbox.ready
    mailbox.ready = nil
    let working = mailbox.busy
    mailbox.lock.unlock()
    var uploaded = false
    if let finished, case .success(let preview) = finished {
      upload(preview)
      uploaded = true
    }

    guard let document = session.document, let source = document.recording else { return uploaded }
    let position = session.state.playback.currentFrame
    guard session.content.frameIndices.indices.contains(position) else { return uploaded }
    let frame = session.content.frameIndices[position]
    // One attempt per frame: a frame that failed to decode is not retried every turn.
    guard frame != requestedFrame, !working else { return uploaded }
    requestedFrame = frame
    mailbox.lock.lock()
    mailbox.busy = true
    let ticket = mailbox.generation
    mailbox.lock.unlock()
    let decoder = document.decoder
    Thread.detachNewThread {
      let result = Result { () throws -> FramePreview in
        let captured = try source.frame(at: frame)
        return try FramePreview.make(from: captured, frameIndex: frame, decoder: decoder)
      }
      mailbox.lock.lock()
      if ticket == mailbox.generation { mailbox.ready = result }
      mailbox.busy = false
      mailbox.lock.unlock()
    }
    return uploaded
  }

  /// Forgets the images (a new document is opening).
  func clear() {
    mailbox.lock.lock()
    mailbox.generation += 1
    mailbox.ready = nil
    mailbox.lock.unlock()
    for texture in [color, depth, confidence] {
      if var id = texture?.id { glDeleteTextures(1, &id) }
    }
    color = nil
    depth = nil
    confidence = nil
    depthRangeMeters = nil
    requestedFrame = nil
  }

  private func upload(_ preview: FramePreview) {
    color = Self.upload(preview.color, into: color)
    depth = Self.upload(preview.depth, into: depth)
    confidence = Self.upload(preview.confidence, into: confidence)
    depthRangeMeters = preview.depthRangeMeters
  }

  private static func upload(_ image: RGBImage?, into existing: PreviewTexture?) -> PreviewTexture? {
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
        GLenum(GL_TEXTURE_2D), 0, GL_RGB8, GLsizei(image.width), GLsizei(image.height), 0, GLenum(GL_RGB),
        GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
    }
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
    glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    return PreviewTexture(id: id, width: image.width, height: image.height)
  }
}
